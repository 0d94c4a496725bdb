import type { ReleaseVerdict, Rollout, TestRun } from '../../../shared/contracts/code-releases';
import type { FirmwareTarget } from '../../../shared/contracts/devices';
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

/** What a device held when a rollout assigned it. */
export interface AssignedDevice {
  firmwareVersion?: string;
  previousTarget?: FirmwareTarget;
}

export interface Fleet {
  /** The name of a campaign or organization, or undefined when there is none. */
  nameOf: (kind: 'campaign' | 'organization', id: string) => Promise<string | undefined>;
  /** The ids of the devices a campaign or organization holds (campaign-device, organization-device relations). */
  devicesOf: (kind: 'campaign' | 'organization', id: string) => Promise<string[]>;
  /**
   * Points the device at the rollout's release, if it is of the release's product line and not retired.
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
  >;
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
}

export interface RolloutStore {
  create: (rollout: Rollout) => Promise<boolean>;
  remove: (id: string) => Promise<boolean>;
  get: (id: string) => Promise<Rollout | undefined>;
  /** A release's rollouts, newest first. */
  page: (releaseId: string, limit: number, startKey?: Key) => Promise<StoredPage<Rollout>>;
  /** @returns the halted rollout, or undefined when it was not active */
  halt: (
    id: string,
    halt: {
      halted: number;
      haltedBy: string;
      haltReason: string;
    },
  ) => Promise<Rollout | undefined>;
  /** What the assignment found it could not target, once it has gone through the devices. */
  setSkipped: (id: string, skipped: Rollout['skipped']) => Promise<void>;
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
