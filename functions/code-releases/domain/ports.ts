import type { StageTally } from '../../../shared/code-releases/rollout-rules';
import type { ReleaseVerdict, Rollout, TestRun } from '../../../shared/contracts/code-releases';
import type { FirmwareTarget } from '../../../shared/contracts/devices';
import type { RolloutHalted } from '../../../shared/contracts/events';
import type { StoredRollout } from '../../_shared/code-releases/rollout-item';
import type { StoredPage } from '../../_shared/paging';
import type { StoredRelease } from './records';

type Key = Record<string, unknown>;

export interface ArtifactFiles {
  /** A URL that accepts one PUT of exactly this length (Content-Length is signed; S3 refuses another). */
  uploadUrl: (key: string, size: number, expiresInSeconds: number) => Promise<string>;
  readUrl: (key: string, fileName: string, expiresInSeconds: number) => Promise<string>;
  /** @returns undefined when there is no such object */
  size: (key: string) => Promise<number | undefined>;
  /** SHA-256 (hex) of the stored bytes, streamed: the object is never held whole in memory. */
  sha256: (key: string) => Promise<string>;
  remove: (key: string) => Promise<void>;
  /** Every object under the prefix (a draft's uploads). */
  removeAll: (prefix: string) => Promise<void>;
}

/** Why a device could not be assigned. */
export type AssignRefusal = 'unknown' | 'retired' | 'otherProductLine';

/** The device points at a rollout started after this one (`assigned`, that rollout's start): it stays that one's. */
export interface TakenFirst {
  takenBy: { rolloutId: string; assigned: number };
}

/** What a device held when a rollout assigned it. */
export interface AssignedDevice {
  firmwareVersion?: string;
  /** The rollout that targeted the device before this one. */
  previousRolloutId?: string;
  /**
   * The device pointed at this rollout before the write (a step of a preparing rollout worked again after a failure):
   * nothing was written, and `previousRolloutId` is read from its update history.
   */
  already?: true;
}

export interface Fleet {
  /**
   * What each device holds now, or why a rollout of the product line would skip it (read before the stages are
   * chosen, so they are shares of the devices the rollout can reach).
   */
  standing: (
    deviceIds: readonly string[],
    productLine: string,
  ) => Promise<Map<string, { firmwareVersion?: string } | { refused: AssignRefusal }>>;
  /** The name of a campaign or organization, or undefined when there is none. */
  nameOf: (kind: 'campaign' | 'organization', id: string) => Promise<string | undefined>;
  /** The ids of the devices a campaign or organization holds (campaign-device, organization-device relations). */
  devicesOf: (kind: 'campaign' | 'organization', id: string) => Promise<string[]>;
  /**
   * Points the device at the rollout's release, if it is of the release's product line and not retired, does not
   * point at this rollout already, and points at no rollout started after this one (a preparing rollout's step comes
   * after its start: a rollout started meanwhile keeps the device), and adds the rollout to the device's update history
   * (`firmwareHistory`, the devices area's page reads it).
   * @returns what it ran and which rollout targeted it before, or why it was not assigned
   */
  assign: (
    deviceId: string,
    productLine: string,
    target: FirmwareTarget,
  ) => Promise<
    | AssignedDevice
    | {
        refused: AssignRefusal;
      }
    | TakenFirst
  >;
}

/** Who manages the devices a halted rollout reached: the organizations holding them (organization-device). */
export interface Organizations {
  /** Each device's organizations. */
  ofDevices: (deviceIds: readonly string[]) => Promise<Map<string, string[]>>;
}

/** Halts announced to people: domain events on the jobs queue, for the notifications worker. */
export interface HaltNotices {
  publish: (events: readonly RolloutHalted[]) => Promise<void>;
}

export interface People {
  emailOf: (userId: string) => Promise<string | undefined>;
}

export interface ReleaseStore {
  /** @returns false when the id (product line and version) exists */
  create: (release: StoredRelease) => Promise<boolean>;
  get: (id: string) => Promise<StoredRelease | undefined>;
  /** Writes the release over the version read. @returns false when someone changed it in between */
  save: (release: StoredRelease, readUpdated: number) => Promise<boolean>;
  remove: (id: string) => Promise<boolean>;
  /** One page of a product line's releases, highest version first. */
  page: (productLine: string, limit: number, startKey?: Key) => Promise<StoredPage<StoredRelease>>;
  /** Keeps the latest result for the list; an older result recorded late never replaces a newer one. */
  setVerdict: (id: string, verdict: ReleaseVerdict) => Promise<void>;
  /** Marks a published release rolled out (once): from then on the store refuses any change to it. */
  markRolledOut: (id: string, at: number) => Promise<void>;
  /** The product line's highest published release below this version (`versionKey`), if any. */
  previousPublished: (productLine: string, versionKey: string) => Promise<StoredRelease | undefined>;
}

export interface RolloutStore {
  create: (rollout: StoredRollout) => Promise<boolean>;
  remove: (id: string) => Promise<boolean>;
  get: (id: string) => Promise<StoredRollout | undefined>;
  /** A release's rollouts, newest first. */
  page: (releaseId: string, limit: number, startKey?: Key) => Promise<StoredPage<StoredRollout>>;
  /** Every rollout the stage job has work on (index `live`): active ones, and halted ones not yet announced. */
  live: () => Promise<StoredRollout[]>;
  /**
   * What the assignment found once it has gone through the devices: what it skipped, each stage's size, and the
   * counts of its devices (added, so moves made meanwhile are kept).
   */
  setAssigned: (
    id: string,
    assigned: { skipped: Rollout['skipped']; stageDevices: number[]; stageCounts: Partial<Record<string, number>>[] },
  ) => Promise<void>;
  /**
   * Records one step of a preparing rollout's assignment (decision 114), once: only from the step it read (`from`,
   * the last device of the step before, none for the first), adding what the step assigned to its counters and
   * leaving the targets of devices it could not assign to be removed. @returns false when the step was recorded already
   */
  commitStep: (id: string, step: PrepareStep) => Promise<boolean>;
  /** The targets of refused devices were removed: forgets them. */
  clearRefused: (id: string) => Promise<void>;
  /**
   * Every device is assigned: the rollout becomes active with its first stage started now.
   * @returns the rollout after, or undefined when it was not preparing
   */
  activate: (id: string, at: number) => Promise<StoredRollout | undefined>;
  /**
   * Starts stage `to` (and any empty ones between) if the rollout is active at stage `from`: two advancements at once
   * advance once. @returns the rollout after, or undefined when it was not at `from` or not active
   */
  advance: (id: string, advance: { from: number; to: number; at: number }) => Promise<StoredRollout | undefined>;
  /** The last stage soaked under the threshold. @returns false when it was not active at that stage */
  complete: (id: string, at: { stage: number; completed: number }) => Promise<boolean>;
  /**
   * Resumes a halted rollout: offers again, the criteria and the soak counting from now.
   * @returns the rollout after, or undefined when it was not halted by that halt
   */
  resume: (
    id: string,
    resume: { halted: number; resumed: number; resumedBy: string; baseline: StageTally & { stage: number } },
  ) => Promise<StoredRollout | undefined>;
  /**
   * Resumes a rollout halted while it was preparing (decision 114's addendum): preparing again, its steps to go on from
   * the one recorded last. @returns the rollout after, or undefined when it was not halted by that halt while preparing
   */
  resumePreparing: (
    id: string,
    resume: { halted: number; resumed: number; resumedBy: string },
  ) => Promise<StoredRollout | undefined>;
  /** Undoes `resumePreparing` of `resumed` when its step could not be queued: the rollout is halted again. */
  unresumePreparing: (id: string, resumed: number) => Promise<void>;
  /**
   * Marks the rollout rolled back to another rollout (once). @returns false when it was rolled back already
   */
  markRolledBack: (id: string, rollback: NonNullable<Rollout['rollback']>) => Promise<boolean>;
  /** Undoes `markRolledBack` when the rollback's own rollout could not start: the rollout is halted again. */
  unmarkRolledBack: (id: string, rolloutId: string) => Promise<void>;
  /**
   * Records that the halt of `halted` was announced; the job has no more work on a rollout that is not active.
   */
  markAnnounced: (id: string, halted: number) => Promise<void>;
}

/** What one step of a preparing rollout assigned (decision 114), added to the rollout once. */
export interface PrepareStep {
  /** The last device of the step before (the devices are taken in id order), or undefined for the first step. */
  from?: string;
  /** Its own last device. */
  to: string;
  /** Devices it pointed at the rollout. */
  assigned: number;
  counts: { targeted?: number; adopted?: number };
  skipped: Partial<Rollout['skipped']>;
  /** What each stage's size changes by: the stages are planned at the start, so only refused devices change them. */
  stageDevices: number[];
  stageCounts: Partial<Record<string, number>>[];
  /** Devices refused after all: their targets are to be removed. */
  refused: string[];
}

export interface TestRunStore {
  create: (run: TestRun) => Promise<boolean>;
  get: (releaseId: string, id: string) => Promise<TestRun | undefined>;
  /** Records the result of a run in progress. @returns the run, or undefined when it had a result already */
  conclude: (
    releaseId: string,
    id: string,
    result: {
      status: 'Pass' | 'Fail';
      finished: number;
      concludedBy: string;
      log?: string;
    },
  ) => Promise<TestRun | undefined>;
  page: (releaseId: string, limit: number, startKey?: Key) => Promise<StoredPage<TestRun>>;
  /** What the gate reads of every run of a release (a release has tens of runs, not thousands). */
  results: (releaseId: string) => Promise<Pick<TestRun, 'id' | 'status' | 'finished'>[]>;
}
