import { createHash } from 'node:crypto';
import { DATASET_MESSAGES } from '../../../shared/datasets/dataset-messages';
import { datasetFormats, deviceFileName, MANIFEST_NAME } from '../../../shared/datasets/dataset-rules';
import { type DatasetRecord, datasetFileKey, type StoredDatasetFile } from '../../_shared/datasets/dataset-access';
import type { ExportFiles } from '../../_shared/exports/export-files';
import { CONTENT_TYPES, exportColumns, orderMeasurements } from '../../_shared/exports/export-format';
import { createFileFormatter } from '../../_shared/exports/file-formatter';
import { measurementsIn, type ReadingsScan, spanOf, writeReadingsFiles } from '../../_shared/exports/readings-file';
import type { Log } from '../../_shared/logger';
import type { DataDevice } from '../../_shared/sensor-data/data-access';
import type { BuildMessage } from './build-message';
import { manifestOf } from './manifest';
import type { DatasetStore } from './ports';

/** Progress is written when it has moved this many points. */
export const PROGRESS_STEP = 5;
/** The last point is the manifest's: 100 only with the dataset frozen. */
const DEVICES_SHARE = 99;

export interface BuildJobDeps {
  log: Log;
  store: Pick<DatasetStore, 'start' | 'progress' | 'stepDone' | 'freeze' | 'setback'>;
  files: Pick<ExportFiles, 'open'>;
  readings: { scan: ReadingsScan };
  readDevice: (deviceId: string) => Promise<DataDevice | undefined>;
  /** Sends the message of the next step. */
  work: { send: (messages: readonly BuildMessage[]) => Promise<void> };
  webOrigin: string;
  now: () => number;
  /** Deliveries of one step before the queue gives up on it (its maxReceiveCount): the last failure is final. */
  maxAttempts: number;
}

/** A failure that no retry can mend: the dataset fails at once with this message. */
class FinalFailure extends Error {}

/** Each device's share of the build's progress: its time span (at least 1, so a device without rows counts too). */
const weights = (record: DatasetRecord) => record.devices.map((device) => spanOf(device.parts) + 1);

/**
 * Builds a dataset one step per delivery (docs/datasets.md "Building"): step i writes device i's CSV and JSON from one
 * read of its readings, records both files (rows, bytes, SHA-256, object version) and sends the message of the next
 * step; the last step writes the manifest and freezes the dataset. A step is recorded only if it is still the current
 * one, so a repeated delivery never adds a device twice, and a frozen or failed dataset is left alone. A failure is
 * thrown back for the queue to retry the step, and is final on its last attempt.
 */
export const createBuildJob = ({
  store,
  files,
  readings,
  readDevice,
  work,
  webOrigin,
  now,
  maxAttempts,
  log,
}: BuildJobDeps) => {
  const writeDevice = async (record: DatasetRecord) => {
    const planned = record.devices[record.step]!;
    const device = await readDevice(planned.deviceId);
    if (record.visibility === 'public' && device?.dataVisibility !== 'public') {
      throw new FinalFailure(DATASET_MESSAGES.deviceMadePrivate(planned.name, planned.deviceId));
    }
    const names =
      record.measurements ??
      (device?.measurementNames?.length
        ? orderMeasurements(device.measurementNames)
        : orderMeasurements(await measurementsIn(readings.scan, planned.deviceId, planned.parts)));
    const meta = {
      deviceId: planned.deviceId,
      deviceName: planned.name,
      from: record.from,
      to: record.to,
      columns: exportColumns(names, device?.measurementUnits),
    };
    const all = weights(record);
    const before = all.slice(0, record.step).reduce((sum, w) => sum + w, 0);
    const total = all.reduce((sum, w) => sum + w, 0);
    let reported = record.progress;
    const formats = datasetFormats(record.parquet);
    const results = await writeReadingsFiles({
      deviceId: planned.deviceId,
      parts: planned.parts,
      scan: readings.scan,
      outputs: formats.map((format) => ({
        formatter: createFileFormatter(format, meta),
        file: files.open(datasetFileKey(record.id, deviceFileName(planned.deviceId, format)), CONTENT_TYPES[format]),
      })),
      onProgress: async (doneMs, totalMs) => {
        const progress = Math.floor(((before + (doneMs / totalMs) * all[record.step]!) / total) * DEVICES_SHARE);
        if (progress >= reported + PROGRESS_STEP) {
          reported = progress;
          await store.progress(record.id, progress, now());
        }
      },
    });
    const written: StoredDatasetFile[] = results.map((result, i) => {
      const name = deviceFileName(planned.deviceId, formats[i]!);
      return {
        name,
        format: formats[i]!,
        deviceId: planned.deviceId,
        rows: result.rows,
        bytes: result.bytes,
        sha256: result.sha256,
        key: datasetFileKey(record.id, name),
        ...(result.versionId ? { versionId: result.versionId } : {}),
      };
    });
    const progress = Math.floor(((before + all[record.step]!) / total) * DEVICES_SHARE);
    return { files: written, device: { ...planned, rows: results[0]!.rows }, progress };
  };

  const writeManifest = async (record: DatasetRecord, frozenAt: number): Promise<StoredDatasetFile> => {
    const text = `${JSON.stringify(manifestOf(record, { webOrigin, frozenAt }), null, 2)}\n`;
    const key = datasetFileKey(record.id, MANIFEST_NAME);
    const file = files.open(key, CONTENT_TYPES.json);
    try {
      await file.write(text);
      const closed = await file.close();
      return {
        name: MANIFEST_NAME,
        format: 'manifest',
        bytes: closed.bytes,
        sha256: createHash('sha256').update(text, 'utf8').digest('hex'),
        key,
        ...(closed.versionId ? { versionId: closed.versionId } : {}),
      };
    } catch (error) {
      await file.abort().catch(() => undefined);
      throw error;
    }
  };

  const step = async (record: DatasetRecord): Promise<'step' | 'frozen' | 'skipped'> => {
    if (record.step < record.devices.length) {
      const done = await writeDevice(record);
      if (!(await store.stepDone(record.id, record.step, done, now()))) return 'skipped';
      await work.send([{ kind: 'build', datasetId: record.id }]);
      return 'step';
    }
    const frozenAt = now();
    const manifest = await writeManifest(record, frozenAt);
    const frozen = await store.freeze(
      record.id,
      { manifest, frozenAt, listed: record.visibility === 'public' },
      record.devices.length,
    );
    return frozen ? 'frozen' : 'skipped';
  };

  return {
    run: async (datasetId: string): Promise<'step' | 'frozen' | 'skipped' | 'failed'> => {
      const record = await store.start(datasetId, now());
      if (!record) return 'skipped';
      try {
        return await step(record);
      } catch (error) {
        log('error', 'Dataset step failed', {
          datasetId,
          step: record.step,
          attempt: record.attempts,
          maxAttempts,
          error,
        });
        if (error instanceof FinalFailure) {
          await store.setback(datasetId, 'failed', error.message, now());
          return 'failed';
        }
        if (record.attempts >= maxAttempts) {
          await store.setback(datasetId, 'failed', DATASET_MESSAGES.failed, now());
          return 'failed';
        }
        await store.setback(datasetId, 'queued', DATASET_MESSAGES.retrying(record.attempts, maxAttempts), now());
        throw error;
      }
    },
  };
};

export type BuildJob = ReturnType<typeof createBuildJob>;
