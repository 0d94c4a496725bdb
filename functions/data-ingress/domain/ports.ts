import type { FirmwareTarget } from '../../../shared/contracts/devices';
import type { QualityState } from '../../_shared/sensor-data/quality-flags';
import type { StoredReading } from '../../_shared/sensor-data/readings-store';

/** What ingest reads back of the device it marked seen: its firmware and the rollout that targets it. */
export interface SeenDevice {
  /** The device's newest reading before this batch: a reading at or before it was sent again or arrives late. */
  lastSeen?: number;
  firmwareVersion?: string;
  firmwareTarget?: FirmwareTarget;
  /** The `notBefore` of the last coalesced roll-up message sent for the device (`markRollupSent`). */
  rollupSentFor?: number;
  /** The quality checks' memory of the device's recent values (docs/data-quality.md), as the last batch left it. */
  qualityState?: QualityState;
  /** The device record's rest marks say every alert track of the device is at rest (decision 097). */
  alertsAtRest?: boolean;
}

export interface SeenUpdate {
  /** The newest stored reading's time, never later than now. */
  lastSeen: number;
  /** Every measurement name of the stored readings. */
  names: readonly string[];
  /** Units declared for names outside the catalogue. */
  units: Record<string, string>;
}

/**
 * The quality checks over a batch, given the memory the device's record keeps of its recent values
 * (docs/data-quality.md): the memory to keep afterwards, undefined when unchanged.
 */
export type QualityStep = (kept: QualityState | undefined) => QualityState | undefined;

export interface DeviceSeenStore {
  /**
   * Marks the device seen and keeps what `quality` makes of its memory, in the one write when the store knows the
   * record as it is (the memory it last wrote), else with a second, conditional one (decision 102). `quality` is
   * called with the memory the write was made against; should the record have moved meanwhile, it is called again
   * with the one it holds, and the last call is the one that counts.
   * @returns the device's firmware and target, or undefined when the device is unknown or retired (nothing
   * written). A batch older than lastSeen costs a second update, without lastSeen, unless the store knows the record.
   */
  markSeen: (deviceId: string, seen: SeenUpdate, quality?: QualityStep) => Promise<SeenDevice | undefined>;
  /**
   * Records the version the device reports, when it differs from the one recorded and no later report was (a
   * backfilled batch carries the version of its time). `firmwareReported` is when it started reporting it.
   * @returns false when nothing changed
   */
  reportFirmware: (deviceId: string, version: string, at: number) => Promise<boolean>;
  /**
   * Records that a roll-up message due at `notBefore` was sent for the device, once it was: later batches of the hour
   * find it in `markSeen`'s answer and send none of their own.
   */
  markRollupSent: (deviceId: string, notBefore: number) => Promise<void>;
}

/**
 * Who else hears of a stored batch: the webhooks of the device, its campaigns and its organization, as one
 * readings.received event per batch (docs/integrations.md). A failure throws, so the device resends; storing the
 * event again stores nothing twice.
 */
export interface StoredBatchWebhooks {
  readingsStored: (
    deviceId: string,
    readings: readonly { timestamp: number; values: Record<string, number> }[],
    receivedAt: number,
  ) => Promise<unknown>;
}

/** A batch ingest has stored, as the work after it sees it. */
export interface StoredBatch {
  deviceId: string;
  /** The readings stored (every accepted one), in the order sent. */
  readings: readonly StoredReading[];
  /** When the batch arrived (ms). */
  receivedAt: number;
  /** The device's newest reading before this batch (SeenDevice.lastSeen). */
  previousLastSeen?: number;
  /** SeenDevice.alertsAtRest: the alerts evaluator then reads no alert state for a batch that crosses no limit. */
  alertsAtRest?: boolean;
}

/**
 * Work that follows a stored batch, each beside the others: the alerts evaluator today (docs/alerts.md); data
 * quality joins it here. (The webhooks' readings.received has its own port, StoredBatchWebhooks, beside these.) A hook that fails fails the batch, which the device sends again: each must be
 * idempotent over a batch sent twice (its readings are then at or before `previousLastSeen`).
 */
export type AfterStored = (batch: StoredBatch) => Promise<void>;

/** What the stats count: stored readings, and refused ones by reason (attribute names as the reasons are spelled). */
export type IngestCount = 'accepted' | 'malformed' | 'future' | 'too-old' | 'out-of-range' | 'unknown-device';

export interface IngestStatsStore {
  add: (deviceId: string, counts: Partial<Record<IngestCount, number>>, at: number) => Promise<void>;
}
