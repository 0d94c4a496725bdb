import type { AlertTarget } from '../../../shared/contracts/alerts';
import type { AlertRecord, DeviceAlertState, StoredRule } from '../../_shared/alerts/alert-model';
import type { AlertFilter } from '../../_shared/alerts/alert-table';
import type { DeviceFacts } from '../../_shared/alerts/device-reader';
import type { PlanFacts } from '../../_shared/alerts/evaluation';
import type { PageRead, StoredPage } from '../../_shared/paging';

/** The rules table, as the rule routes use it. */
export interface RuleStore {
  get: (id: string) => Promise<StoredRule | undefined>;
  /** @returns false when the id is taken */
  create: (rule: StoredRule) => Promise<boolean>;
  /** Writes the whole rule if nobody changed it since `expectedUpdated`. @returns false otherwise */
  replace: (rule: StoredRule, expectedUpdated: number) => Promise<boolean>;
  /** @returns the removed rule, or undefined when there was none */
  remove: (id: string) => Promise<StoredRule | undefined>;
  /** A target's rules (enabled or not), newest first. */
  byTarget: (target: AlertTarget, page: PageRead) => Promise<StoredPage<StoredRule>>;
  /** The rules a person made, newest first. */
  byCreator: (userId: string, page: PageRead) => Promise<StoredPage<StoredRule>>;
  /** Every rule (staff). */
  listAll: (page: PageRead) => Promise<StoredPage<StoredRule>>;
}

/** The alert state table, as the routes and the sweep use it. */
export interface StateStore {
  /** The device's state; an empty one (version 0) when it has none. */
  get: (deviceId: string, consistent?: boolean) => Promise<DeviceAlertState>;
  /**
   * Writes the state if still at `expectedVersion`. `restBefore`: every track of the state written over was at rest
   * (the device record's rest marks, decision 097, then need no write when the new one is too). @returns false otherwise
   */
  write: (state: DeviceAlertState, expectedVersion: number, restBefore?: boolean) => Promise<boolean>;
  /** One page of the due index's partition `shard`: devices due at `now` or before. */
  due: (shard: string, now: number, page: PageRead) => Promise<StoredPage<{ deviceId: string; dueAt: number }>>;
  /** Makes a device due now (a rule of it changed), creating its item if needed. */
  touch: (deviceId: string, now: number) => Promise<void>;
  /** Moves the rules' generation: every instance's rule cache forgets what it held. */
  bumpGeneration: () => Promise<void>;
}

/** The alerts table, as the event routes use it. */
export interface AlertStore {
  get: (id: string) => Promise<AlertRecord | undefined>;
  /** Acknowledges a record no state holds open (the first acknowledgement stays). @returns the record after */
  acknowledge: (id: string, userId: string, at: number) => Promise<AlertRecord | undefined>;
  byDevice: (deviceId: string, filter: AlertFilter, page: PageRead) => Promise<StoredPage<AlertRecord>>;
  byRule: (ruleId: string, filter: AlertFilter, page: PageRead) => Promise<StoredPage<AlertRecord>>;
  all: (filter: AlertFilter, page: PageRead) => Promise<StoredPage<AlertRecord>>;
}

/** What the routes read about the objects a rule names. */
export interface TargetReader {
  /** A device's name, last reading and measurement names; undefined when there is no such device. */
  device: (deviceId: string) => Promise<DeviceFacts | undefined>;
  /** The devices a target watches: the device itself, or every device of the campaign or organization. */
  devicesOf: (target: AlertTarget) => Promise<string[]>;
  /** The campaigns and organizations that hold the device (their rules watch it too). */
  holdersOf: (deviceId: string) => Promise<AlertTarget[]>;
  /** Whether the campaign or organization holds the device. */
  holds: (target: AlertTarget, deviceId: string) => Promise<boolean>;
  /** The devices a person holds a relation to (owner, administrator, user), at most `limit`. */
  devicesOfPerson: (userId: string, limit: number) => Promise<string[]>;
}

/** What the sweep reads beyond the device's state. */
export interface SweepSources {
  /** The device's usual interval between batches (ms), from its recent batches; undefined with too few. */
  batchInterval: (deviceId: string, now: number) => Promise<number | undefined>;
  /** The device's plan as billing recorded it; null when it has none. */
  plan: (deviceId: string) => Promise<PlanFacts | null>;
}

/** The readings a preview backtests, oldest first. */
export interface PreviewReadings {
  /** At most `limit` readings in `[from, to]`, oldest first. */
  readings: (
    deviceId: string,
    range: { from: number; to: number },
    limit: number,
  ) => Promise<{ timestamp: number; values: Record<string, number> }[]>;
}
