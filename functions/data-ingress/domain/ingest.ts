import type { IngestResult, ReadingBatch } from '../../../shared/contracts/data-ingress';
import type { FirmwareTarget } from '../../../shared/contracts/devices';
import { ownValue } from '../../../shared/objects/own-value';
import { APP_METRICS } from '../../../shared/operations/metrics';
import { hoursOf } from '../../../shared/sensor-data/chart-files';
import { MEASUREMENTS } from '../../../shared/sensor-data/measurements';
import { type AdoptionStore, recordFirmwareReport } from '../../_shared/code-releases/adoption';
import type { DeviceUpdates } from '../../_shared/code-releases/device-updates';
import type { Log } from '../../_shared/logger';
import type { Counters } from '../../_shared/metrics';
import type { QueueSender } from '../../_shared/queue/queue-sender';
import type { LivePublisher } from '../../_shared/sensor-data/live-publisher';
import { flagReadings } from '../../_shared/sensor-data/quality-flags';
import type { SensorDataMessage } from '../../_shared/sensor-data/queue-messages';
import type { ReadingsStore } from '../../_shared/sensor-data/readings-store';
import {
  ROLLUP_SEND_MARGIN_MS,
  type RollupCoalescing,
  rollupNotBefore,
} from '../../_shared/sensor-data/rollup-coalescing';
import type { AfterStored, DeviceSeenStore, IngestCount, IngestStatsStore, StoredBatchWebhooks } from './ports';
import { checkReadings } from './validate-readings';

export interface IngestDeps {
  log: Log;
  readings: Pick<ReadingsStore, 'write'>;
  stats: IngestStatsStore;
  devices: Pick<DeviceSeenStore, 'markSeen' | 'reportFirmware' | 'markRollupSent'>;
  /** The rollout records a targeted device's report moves (docs/code-releases.md, "Adoption"). */
  adoption: { store: AdoptionStore; updates: Pick<DeviceUpdates, 'move'> };
  work: Pick<QueueSender<SensorDataMessage>, 'send'>;
  live: Pick<LivePublisher, 'publish'>;
  /** The batch as a readings.received event for the device's webhooks. */
  webhooks: StoredBatchWebhooks;
  now: () => number;
  /** Readings accepted and refused, for the operations dashboard. */
  counters: Counters;
  /** When the stored hours' roll-ups run: at once, or once the hour is over (ROLLUP_COALESCING). */
  coalescing: RollupCoalescing;
  /** What follows a stored batch (the alerts evaluator, …), each beside the roll-up message and the live view. */
  afterStored: readonly AfterStored[];
  /**
   * The quality checks (docs/data-quality.md) over the batch and the device's kept memory: flagged readings, and the
   * memory to keep (undefined: unchanged). The bench's ingest "without flags" replaces them. @default flagReadings
   */
  flag?: typeof flagReadings;
}

/** The batch's outcome; `unknown-device`: the device does not exist or is retired, and nothing was stored. */
export type IngestOutcome = (IngestResult & { device: 'ok' }) | (IngestResult & { device: 'unknown' });

const countRejections = (rejected: IngestResult['rejected']) => {
  const counts: Partial<Record<IngestCount, number>> = {};
  for (const { reason } of rejected) counts[reason] = (counts[reason] ?? 0) + 1;
  return counts;
};

/**
 * One batch from a device, over HTTPS or MQTT (the caller has established which device it is). Each reading is
 * checked alone; refusals are counted per device and day, never dropped silently. The stored readings mark the
 * device seen, carry the quality checks' flags (docs/data-quality.md: against the device's recent values, which the
 * device record's update answers, so the checks read nothing of their own), are handed to the roll-up worker in one
 * message, published to live watchers, told to the device's webhooks (readings.received) and handed to the work
 * after a stored batch (`afterStored`: the alerts evaluator).
 *
 * Order matters for "nothing lost": the readings are written before the roll-up message is sent, the webhooks hear of
 * them, the alerts evaluate them and the batch is counted, and a failed write or send throws, so the device resends;
 * storing is idempotent per (device, timestamp), and so are the webhooks' event and the alerts' evaluation.
 */
export const createIngest = ({
  readings,
  stats,
  devices,
  adoption,
  work,
  live,
  webhooks,
  now,
  counters,
  coalescing,
  afterStored,
  log,
  flag = flagReadings,
}: IngestDeps) => {
  /**
   * The device reports a firmware version other than the one recorded: its rollout target (if any) first, then the
   * device record. A failure is logged, not thrown: the readings are stored, and while the device record still holds
   * the old version, the device's next batch does both again (each write is conditional, so nothing counts twice).
   */
  const reportFirmware = async (deviceId: string, version: string, at: number, target?: FirmwareTarget) => {
    try {
      if (target) await recordFirmwareReport(adoption, deviceId, target, version, at);
      await devices.reportFirmware(deviceId, version, at);
    } catch (error) {
      log('error', 'Firmware report not recorded', {
        deviceId,
        version,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  };

  /**
   * One roll-up message per batch, or none when a coalesced one already sent for the device will cover this batch:
   * due at the same time (so for the same hour, the batch's only one: a batch reaching back into an earlier hour sends
   * for both), and far enough ahead that these readings (written now) are stored before it is worked. The message is
   * marked sent only once SQS has taken it, so a failed send leaves no mark and the device's resend sends again; a
   * failed mark only costs the next batch a message of its own.
   */
  const askForRollup = async (
    deviceId: string,
    hours: number[],
    notBefore: number | undefined,
    sentFor: number | undefined,
    at: number,
  ) => {
    if (notBefore === undefined) {
      await work.send([{ kind: 'rollup', deviceId, hours }]);
      return;
    }
    if (hours.length === 1 && sentFor === notBefore && at < notBefore - ROLLUP_SEND_MARGIN_MS) return;
    await work.send([{ kind: 'rollup', deviceId, hours, notBefore }]);
    await devices.markRollupSent(deviceId, notBefore).catch((error: unknown) =>
      log('warn', 'Roll-up message not marked sent', {
        deviceId,
        error: error instanceof Error ? error.message : String(error),
      }),
    );
  };

  return {
    ingest: async (deviceId: string, batch: ReadingBatch): Promise<IngestOutcome> => {
      const at = now();
      const { accepted, rejected } = checkReadings(batch.readings, at);
      const result = { accepted: accepted.length, rejected };
      if (rejected.length > 0) counters.count(APP_METRICS.readingsRefused, rejected.length);
      if (accepted.length === 0) {
        await stats.add(deviceId, countRejections(rejected), at);
        return { ...result, device: 'ok' };
      }
      const names = [...new Set(accepted.flatMap((r) => Object.keys(r.values)))];
      const units = Object.fromEntries(
        Object.entries(batch.units ?? {}).filter(([name]) => !ownValue(MEASUREMENTS, name) && names.includes(name)),
      );
      const newest = accepted.reduce((max, r) => Math.max(max, r.timestamp), 0);
      // Readings within the allowed clock skew may be a little ahead of us: lastSeen never is.
      const reportedAt = Math.min(newest, at);
      // The checks run against the memory the device record's update is made against, and their new memory goes
      // in that update where the store can (decision 102): the last run is the one that counts.
      let flagged: ReturnType<typeof flag> | undefined;
      const known = await devices.markSeen(deviceId, { lastSeen: reportedAt, names, units }, (kept) => {
        flagged = flag(accepted, kept);
        return flagged.state;
      });
      if (!known) {
        await stats.add(deviceId, { 'unknown-device': batch.readings.length }, at);
        counters.count(APP_METRICS.readingsRefused, accepted.length);
        return { accepted: 0, rejected, device: 'unknown' };
      }
      // The store runs the checks whenever it answers a device (DeviceSeenStore.markSeen).
      const checked = flagged!.readings;
      // Counted only once stored: a batch whose write failed is answered 5xx and resent, and counting it then too
      // would count its readings twice.
      await readings.write(deviceId, checked, at);
      const hours = hoursOf(accepted.map((r) => r.timestamp));
      const notBefore = rollupNotBefore(hours, at, coalescing);
      await Promise.all([
        stats.add(deviceId, { accepted: accepted.length, ...countRejections(rejected) }, at),
        askForRollup(deviceId, hours, notBefore, known.rollupSentFor, at),
        live.publish(deviceId, checked),
        webhooks.readingsStored(deviceId, accepted, at),
        ...afterStored.map((hook) =>
          hook({
            deviceId,
            readings: accepted,
            receivedAt: at,
            previousLastSeen: known.lastSeen,
            alertsAtRest: known.alertsAtRest === true,
          }),
        ),
      ]);
      counters.count(APP_METRICS.readingsAccepted, accepted.length);
      if (batch.firmwareVersion && batch.firmwareVersion !== known.firmwareVersion) {
        await reportFirmware(deviceId, batch.firmwareVersion, reportedAt, known.firmwareTarget);
      }
      return { ...result, device: 'ok' };
    },
  };
};
