import type { Caller } from '../../../shared/auth/verify-token';
import type { QuotaThreshold, QuotaWarning } from '../../../shared/contracts/sensor-data-api-keys';
import type { ChartResolution } from '../../../shared/sensor-data/chart-files';
import type { StoredPage } from '../../_shared/paging';
import type { ExportRecord } from '../../_shared/sensor-data/export-access';
import type { LiveWatch } from '../../_shared/sensor-data/live-publisher';

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

/** One measurement's columns: entry i belongs to bucket `t[i]`; null where the measurement had no value there. */
export interface ChartSeries {
  min: (number | null)[];
  max: (number | null)[];
  mean: (number | null)[];
  count: (number | null)[];
}

/** Buckets (start ms, UTC, ascending) and each measurement's columns over them. */
export interface ChartColumns {
  t: number[];
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
