import type { Caller } from '../../../shared/auth/verify-token';
import type { QuotaThreshold, QuotaWarning } from '../../../shared/contracts/sensor-data-api-keys';
import type { Formula } from '../../../shared/sensor-data/calibration';
import type { ChartResolution } from '../../../shared/sensor-data/chart-files';
import type { StoredPage } from '../../_shared/paging';
import type { ExportRecord } from '../../_shared/sensor-data/export-access';
import type { LiveWatch } from '../../_shared/sensor-data/live-publisher';
import type { StoredProfile } from '../../_shared/sensor-data/quality-profile';

type Key = Record<string, unknown>;

/** A key as stored: its owner (the person it acts as) and the secret's hash, never the secret. */
export interface StoredApiKey {
  keyId: string;
  ownerId: string;
  /** The owner's username and e-mail when the key was made: the caller a request with the key runs as. */
  ownerUsername: string;
  ownerEmail?: string;
  name: string;
  created: number;
  lastUsed?: number;
  secretHash: string;
}

export interface ApiKeyStore {
  put: (key: StoredApiKey) => Promise<void>;
  get: (keyId: string) => Promise<StoredApiKey | undefined>;
  /** Every key of the owner, oldest first (a person holds at most a handful, see MAX_API_KEYS_PER_USER). */
  listByOwner: (ownerId: string) => Promise<StoredApiKey[]>;
  /** @returns the removed key, or undefined when there was none of that id */
  remove: (keyId: string) => Promise<StoredApiKey | undefined>;
  /** Writes lastUsed unless it was written within `resolutionMs` (or the key is gone). */
  touch: (keyId: string, at: number, resolutionMs: number) => Promise<void>;
}

export interface DeviceMonth {
  used: number;
  warnings: QuotaWarning[];
}

export type CountResult =
  | {
      counted: true;
      used: number;
      recorded: QuotaThreshold[];
      newOwner: boolean;
    }
  | {
      counted: false;
    };

export interface ApiUsageStore {
  /**
   * Counts one request on a meter's month (`meterKey` of api-metering.ts) unless it already holds `limit`: a refused
   * request is not counted, so `used` never passes the limit. ALL_OLD (rather than UPDATED_NEW) also answers which
   * warnings were recorded and whether this owner had called before, so a request below the thresholds costs one
   * write. The ADD is atomic: concurrent requests each see their own `used`.
   */
  count: (input: {
    meter: string;
    month: string;
    ownerId: string;
    limit: number;
    expiresAt: number;
  }) => Promise<CountResult>;
  /**
   * Records a threshold's warning on a meter's month unless it is recorded: of concurrent requests crossing it,
   * exactly one gets true (and sends the event).
   */
  recordWarning: (meter: string, month: string, warning: QuotaWarning) => Promise<boolean>;
  /** Takes a warning back (its event could not be sent), so a later request records and sends it again. */
  forgetWarning: (meter: string, month: string, threshold: QuotaThreshold) => Promise<void>;
  meterMonth: (meter: string, month: string) => Promise<DeviceMonth>;
  addOwnerDevice: (ownerId: string, month: string, deviceId: string, expiresAt: number) => Promise<void>;
  ownerDevices: (ownerId: string, month: string) => Promise<string[]>;
}

/** Min, max, mean and count columns: entry i belongs to bucket `t[i]`; null where there was no value. */
export interface ChartStats {
  min: (number | null)[];
  max: (number | null)[];
  mean: (number | null)[];
  count: (number | null)[];
}

/** The columns of each quality: good, suspect, bad. */
export interface ChartClasses {
  g: ChartStats;
  s: ChartStats;
  b: ChartStats;
}

/**
 * One measurement's columns (docs/data-quality.md "Roll-ups"): its corrected values that are not excluded, every
 * quality; split by quality (`q`) where the period held a suspect or bad value; the raw values' columns (`raw`) and
 * each bucket's calibration version (`cal`) where a calibration corrected some. A bucket whose `q` (or `raw`) columns
 * are all null while its own hold a value was merged from an object without them: all good (and uncalibrated).
 */
export interface ChartSeries extends ChartStats {
  q?: ChartClasses;
  raw?: ChartStats & { q?: ChartClasses };
  cal?: (number | null)[];
}

/**
 * Buckets (start ms, UTC, ascending), each measurement's columns over them, and the quality profile version each
 * bucket was computed with (`pv`; absent: 0 throughout).
 */
export interface ChartColumns {
  t: number[];
  pv?: (number | null)[];
  m: Record<string, ChartSeries>;
}

/**
 * One chart-data object (docs/sensor-data.md "Roll-ups and chart data"): every hour roll-up of a month
 * (`charts/{deviceId}/hour/{YYYY-MM}.json`) or every day roll-up of a year (`charts/{deviceId}/day/{YYYY}.json`),
 * columnar so a long-range chart reads a few small objects instead of thousands of items.
 */
export interface ChartObject extends ChartColumns {
  deviceId: string;
  resolution: ChartResolution;
  /** `YYYY-MM` (hour objects) or `YYYY` (day objects), UTC. */
  period: string;
}

export interface ChartDataStore {
  read: (deviceId: string, resolution: ChartResolution, period: string) => Promise<ChartObject | undefined>;
  /** Replaces the object of its period (the worker always writes a whole recomputed period). */
  write: (object: ChartObject) => Promise<void>;
  /**
   * The roll-ups of `[fromMs, toMs]` at one resolution, merged from every period object it overlaps (periods
   * without an object, i.e. without readings, add nothing). Buckets are those that overlap the range.
   */
  readChartObjects: (
    deviceId: string,
    resolution: ChartResolution,
    fromMs: number,
    toMs: number,
  ) => Promise<ChartColumns>;
}

export type { ExportRecord };

export interface ExportStore {
  /** @returns false when the id is taken */
  create: (record: ExportRecord) => Promise<boolean>;
  get: (id: string) => Promise<ExportRecord | undefined>;
  /**
   * Marks an attempt started (unless the export is already done or failed).
   * @returns the record as it now is, or undefined when there is nothing left to do
   */
  start: (id: string, now: number) => Promise<ExportRecord | undefined>;
  /** Progress of a running export; never moves a finished one back. */
  progress: (id: string, progress: number, rows: number, now: number) => Promise<void>;
  finish: (
    id: string,
    outcome:
      | {
          status: 'done';
          rows: number;
          bytes: number;
        }
      | {
          status: 'failed' | 'queued';
          error: string;
        },
    now: number,
  ) => Promise<void>;
  /**
   * Counts one export started by `requester` in the hour starting at `hourStart` (ms), unless the hour already
   * holds `limit`. The counter is an item of this table with an id no export can have (ids start `exp_`):
   * `starts#{requester}#{hourStart}`, expiring with the hour (TTL is housekeeping; the key is per hour).
   * @returns false when the hour is full (nothing counted)
   */
  countStart: (requester: string, hourStart: number, limit: number) => Promise<boolean>;
  /** One page of an owner's exports created since `since` (ms), newest first. */
  listByOwner: (
    ownerId: string,
    since: number,
    startKey: Key | undefined,
    limit: number,
  ) => Promise<StoredPage<ExportRecord>>;
}

/**
 * The realtime identity port: who the caller is to IoT Core, and attaching the realtime policy to it.
 * - In the cloud (IDENTITY_POOL_ID set) the identity id is the caller's Cognito identity id. The server finds it
 *   itself (GetId with the caller's ID token as login) after checking that the ID token is the bearer caller's,
 *   so a user can never name another's identity; AttachPolicy/DetachPolicy go to IoT Core, their failures read as
 *   the service's errors (iotCall: a busy service is a 503 to try again).
 * - Locally (no identity pool) the identity id is `local:{sub}` and there is nothing to attach: the local broker
 *   checks every subscription itself (infra/local/mqtt-auth.ts).
 */
export interface RealtimeIdentity {
  identityOf: (caller: Caller, idToken: string | undefined) => Promise<string>;
  attach: (identityId: string) => Promise<'iot' | 'local'>;
  detach: (identityId: string) => Promise<'iot' | 'local'>;
}

/** A watch as stored: the publisher's fields, and the user (sub) who registered it, so only they end it. */
export interface StoredLiveWatch extends LiveWatch {
  sub: string;
}

export interface LiveWatchesStore {
  /** Writes or renews a watch. @returns false when the identity's watch on this device belongs to another user */
  put: (watch: StoredLiveWatch) => Promise<boolean>;
  /** Ends the user's own watch; another user's stays. */
  remove: (deviceId: string, watcher: string, sub: string) => Promise<'removed' | 'absent' | 'another'>;
}

/** A calibration version's full record (data-quality table, `sk = cal#{id}`); the profile says it is in force. */
export interface CalibrationRecord {
  id: string;
  deviceId: string;
  measurement: string;
  version: number;
  formula: Formula;
  effectiveFrom: number;
  effectiveTo?: number;
  note: string;
  source?: string;
  createdBy: string;
  created: number;
  campaignId?: string;
}

/** An exclusion's full record (`sk = exc#{id}`), kept for good; removing it marks it. */
export interface ExclusionRecord {
  id: string;
  deviceId: string;
  from: number;
  to: number;
  measurements?: string[];
  reason: string;
  createdBy: string;
  created: number;
  campaignId?: string;
  removedBy?: string;
  removedAt?: number;
}

/**
 * A device's reprocessing run (`sk = job`): the merged ranges of the changes up to profile version `through`, and how
 * far it has come (`cursor`, the next ms to recompute; `done` of `total` ms).
 */
export interface ReprocessJob {
  deviceId: string;
  status: 'running' | 'done';
  through: number;
  ranges: { from: number; to: number }[];
  cursor: number;
  done: number;
  total: number;
  started: number;
  updated: number;
}

/** The data-quality table (docs/data-quality.md): a device's profile, its records, its reprocessing run. */
export interface QualityStore {
  /** The profile as stored, read consistently; undefined before the device's first change. */
  profile: (deviceId: string) => Promise<StoredProfile | undefined>;
  /**
   * Writes the profile if it is still at version `expected` (0: none stored yet).
   * @returns false when another change was written first (read it again and redo the change)
   */
  saveProfile: (profile: StoredProfile, expected: number) => Promise<boolean>;
  putCalibration: (record: CalibrationRecord) => Promise<void>;
  putExclusion: (record: ExclusionRecord) => Promise<void>;
  getExclusion: (deviceId: string, id: string) => Promise<ExclusionRecord | undefined>;
  /** Marks an exclusion removed, once. @returns false when it already was */
  markRemoved: (deviceId: string, id: string, by: string, at: number) => Promise<boolean>;
  /** Every record of one kind of a device (a device holds a few dozen). */
  calibrations: (deviceId: string) => Promise<CalibrationRecord[]>;
  exclusions: (deviceId: string) => Promise<ExclusionRecord[]>;
  /** The records made for a campaign's devices at once (the byCampaign index). */
  campaignCalibrations: (campaignId: string) => Promise<CalibrationRecord[]>;
  campaignExclusions: (campaignId: string) => Promise<ExclusionRecord[]>;
  /** Several devices' profiles in one round trip. */
  profiles: (deviceIds: readonly string[]) => Promise<Map<string, StoredProfile>>;
  job: (deviceId: string) => Promise<ReprocessJob | undefined>;
  /**
   * Writes the run if the stored one still has `expected` (its `started` and `cursor`; undefined: none or done).
   * @returns false when another delivery moved it first
   */
  saveJob: (job: ReprocessJob, expected?: { started: number; cursor: number }) => Promise<boolean>;
}
