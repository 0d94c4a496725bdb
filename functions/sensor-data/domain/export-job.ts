import type { ExportData } from '../../../shared/contracts/webhook-events';
import type { ExportFiles } from '../../_shared/exports/export-files';
import { CONTENT_TYPES, exportColumns, orderMeasurements } from '../../_shared/exports/export-format';
import { createFileFormatter } from '../../_shared/exports/file-formatter';
import { measurementsIn, type ReadingsScan, writeReadingsFiles } from '../../_shared/exports/readings-file';
import type { Log } from '../../_shared/logger';
import type { DataDevice } from '../../_shared/sensor-data/data-access';
import { EXPORT_MESSAGES } from '../../_shared/sensor-data/export-access';
import { answeredScan, type QualityProfile } from '../../_shared/sensor-data/quality-profile';
import type { ExportRecord, ExportStore } from './ports';

/** Progress is written when it has moved this many points, so a long export costs some twenty writes. */
export const PROGRESS_STEP = 5;

export interface ExportJobDeps {
  log: Log;
  store: ExportStore;
  files: Pick<ExportFiles, 'open'>;
  readings: { scan: ReadingsScan };
  readDevice: (deviceId: string) => Promise<DataDevice | undefined>;
  /** The device's calibrations and exclusions, read when the file is written (docs/data-quality.md). */
  profiles: { read: (deviceId: string) => Promise<QualityProfile> };
  now: () => number;
  /** Deliveries before the queue gives up on a message (its maxReceiveCount): the last failure is final. */
  maxAttempts: number;
  /** The device's webhooks, told that a person's export is ready (export.ready, docs/integrations.md). */
  webhooks: { exportReady: (data: ExportData, at: number) => Promise<unknown> };
}

/**
 * Writes one export's file. Idempotent on redelivery: a done (or failed) export is left alone, and a repeated run
 * writes the same object under the same key from the same readings. A failure is thrown back so the queue
 * retries it, and recorded as final on the last attempt.
 */
export const createExportJob = ({
  store,
  files,
  readings,
  readDevice,
  profiles,
  now,
  maxAttempts,
  webhooks,
  log,
}: ExportJobDeps) => {
  /**
   * A person's finished export, told to the device's webhooks (a guest's is nobody's to announce). Told after the
   * record says done, and again on every later delivery of its message: the event's id is the export's, so it is
   * stored once per webhook, and a message that failed after the file was written still tells them.
   */
  const announce = async (record: ExportRecord, rows: number) => {
    if (!record.ownerId) return;
    await webhooks.exportReady(
      {
        exportId: record.id,
        deviceId: record.deviceId,
        format: record.format,
        from: record.from,
        to: record.to,
        rows,
        expiresAt: record.expiresAt * 1000,
        links: { export: `/exports/${encodeURIComponent(record.id)}` },
      },
      now(),
    );
  };

  /** The device's measurement names; a device whose record lacks them (seeded data) is read once for them. */
  const measurementsOf = async (record: ExportRecord, device: DataDevice | undefined): Promise<string[]> => {
    if (record.measurements) return record.measurements;
    if (device?.measurementNames?.length) return orderMeasurements(device.measurementNames);
    return orderMeasurements(await measurementsIn(readings.scan, record.deviceId, record.parts));
  };

  const write = async (record: ExportRecord): Promise<{ rows: number; bytes: number }> => {
    const [device, profile] = await Promise.all([readDevice(record.deviceId), profiles.read(record.deviceId)]);
    const columns = exportColumns(await measurementsOf(record, device), device?.measurementUnits);
    const choice = { quality: record.quality ?? 'all', values: record.values ?? 'corrected' } as const;
    const formatter = createFileFormatter(record.format, {
      deviceId: record.deviceId,
      deviceName: record.deviceName,
      from: record.from,
      to: record.to,
      columns,
      extras: { raw: choice.values === 'both', quality: record.qualityColumns === true },
    });
    let reported = record.progress;
    const [written] = await writeReadingsFiles({
      deviceId: record.deviceId,
      parts: record.parts,
      // Seen as every reader sees them: corrected, excluded values gone, each with its quality.
      scan: answeredScan(readings.scan, profile, choice),
      outputs: [{ formatter, file: files.open(record.key, CONTENT_TYPES[record.format]) }],
      onProgress: async (doneMs, totalMs) => {
        const progress = Math.floor((doneMs / totalMs) * 100);
        // 100 is only ever written with the file in place.
        if (progress >= reported + PROGRESS_STEP && progress < 100) {
          reported = progress;
          await store.progress(record.id, progress, formatter.rows, now());
        }
      },
    });
    return { rows: written!.rows, bytes: written!.bytes };
  };

  return {
    run: async (exportId: string): Promise<'done' | 'skipped' | 'failed'> => {
      const record = await store.start(exportId, now());
      if (!record) {
        const finished = await store.get(exportId);
        if (finished?.status === 'done') await announce(finished, finished.rows);
        return 'skipped';
      }
      let result: { rows: number; bytes: number };
      try {
        result = await write(record);
        await store.finish(exportId, { status: 'done', ...result }, now());
      } catch (error) {
        log('error', 'Export failed', { exportId, attempt: record.attempts, maxAttempts, error });
        if (record.attempts >= maxAttempts) {
          await store.finish(exportId, { status: 'failed', error: EXPORT_MESSAGES.failed }, now());
          return 'failed';
        }
        await store.finish(
          exportId,
          { status: 'queued', error: EXPORT_MESSAGES.retrying(record.attempts, maxAttempts) },
          now(),
        );
        throw error;
      }
      await announce(record, result.rows);
      return 'done';
    },
  };
};

export type ExportJobRunner = ReturnType<typeof createExportJob>;
