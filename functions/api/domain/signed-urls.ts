import type { Caller } from '../../../shared/auth/verify-token';
import { DATASET_MESSAGES } from '../../../shared/datasets/dataset-messages';
import { type DatasetRecord, mayReadDataset, parseDatasetFileKey } from '../../_shared/datasets/dataset-access';
import { BadRequest, Conflict, Forbidden, NotFound } from '../../_shared/errors';
import { type DataAccessModule, readableRanges } from '../../_shared/sensor-data/data-access';
import {
  EXPORT_MESSAGES,
  type ExportRecord,
  exportFileName,
  isLive,
  mayReadExport,
  parseExportKey,
} from '../../_shared/sensor-data/export-access';

/** Spec §7 does not say; long enough to start a download, short enough that a leaked link soon dies. */
export const SIGNED_URL_SECONDS = 5 * 60;

export const SIGNED_URL_MESSAGES = {
  bucketRefused: (bucket: string) =>
    `Signed URLs are given only for the exports, chart-data and datasets buckets, not for "${bucket}"`,
  exportKey: 'An export key looks like exports/{deviceId}/{exportId}.csv (or .json, .parquet)',
  chartKey: 'A chart-data key looks like charts/{deviceId}/hour/{YYYY-MM}.json or charts/{deviceId}/day/{YYYY}.json',
  chartOutsideView: (deviceId: string, from: number, to: number) =>
    `This chart file covers ${new Date(from).toISOString().slice(0, 10)} to ${new Date(to).toISOString().slice(0, 10)}, ` +
    `more than you may see of device ${deviceId}: read it through GET /sensor-data/devices/${deviceId}/series, which keeps to your window`,
  datasetKey: 'A dataset file key looks like datasets/{datasetId}/{file name}',
  dotSegment: 'A key may not contain empty, "." or ".." segments',
  notFinished: (id: string, status: string, progress: number) =>
    `Export ${id} is not finished yet (${status}, ${progress} %)`,
};

const CHART_KEY = /^charts\/([A-Za-z0-9._:-]+)\/.+$/;

/** The time a chart-data file covers (functions/sensor-data/store/chart-data-store.ts names them), ms. */
export const chartPeriod = (key: string): { from: number; to: number } | undefined => {
  const hour = /^charts\/[^/]+\/hour\/(\d{4})-(\d{2})\.json$/.exec(key);
  if (hour) {
    const [year, month] = [Number(hour[1]), Number(hour[2])];
    return { from: Date.UTC(year, month - 1, 1), to: Date.UTC(year, month, 1) - 1 };
  }
  const day = /^charts\/[^/]+\/day\/(\d{4})\.json$/.exec(key);
  if (day) return { from: Date.UTC(Number(day[1]), 0, 1), to: Date.UTC(Number(day[1]) + 1, 0, 1) - 1 };
  return undefined;
};

export interface SignedUrlsDeps {
  /** The buckets' real names; their short names (`exports`, `chartData`, `datasets`) are accepted too. */
  buckets: { exports: string; chartData: string; datasets: string };
  exports: { get: (id: string) => Promise<ExportRecord | undefined> };
  datasets: { get: (id: string) => Promise<DatasetRecord | undefined> };
  dataAccess: Pick<DataAccessModule, 'resolve'>;
  /**
   * A presigned GET; `fileName` makes the browser save it under that name, `versionId` fetches that version of the
   * object rather than the current one.
   */
  presign: (
    bucket: string,
    key: string,
    expiresInSeconds: number,
    options?: { fileName?: string; versionId?: string },
  ) => Promise<string>;
  now: () => number;
}

/**
 * `getSignedS3Url`: the caller's access is checked against the bucket and the key before anything is signed.
 * Export files: their creator or staff (a guest's export: whoever holds its id, which the key contains).
 * Chart data: whoever may view the device's data (the same access module and tier as the reads). Dataset files: whoever
 * may read the dataset (docs/datasets.md), once it is frozen, at the object version it recorded.
 */
export const createSignedUrls = ({ buckets, exports, datasets, dataAccess, presign, now }: SignedUrlsDeps) => {
  const which = (bucket: string): 'exports' | 'chartData' | 'datasets' => {
    if (bucket === buckets.exports || bucket === 'exports') return 'exports';
    if (bucket === buckets.chartData || bucket === 'chartData') return 'chartData';
    if (bucket === buckets.datasets || bucket === 'datasets') return 'datasets';
    throw new Forbidden(SIGNED_URL_MESSAGES.bucketRefused(bucket));
  };

  const signed = async (bucket: string, key: string, options?: { fileName?: string; versionId?: string }) => ({
    url: await presign(bucket, key, SIGNED_URL_SECONDS, options),
    expiresAt: now() + SIGNED_URL_SECONDS * 1000,
  });

  const datasetFile = async (caller: Caller | undefined, key: string) => {
    const parsed = parseDatasetFileKey(key);
    if (!parsed) throw new BadRequest(SIGNED_URL_MESSAGES.datasetKey);
    const record = await datasets.get(parsed.datasetId);
    if (!record || !(await mayReadDataset(caller, record, dataAccess.resolve))) {
      throw new NotFound(DATASET_MESSAGES.notFound(parsed.datasetId));
    }
    if (record.status !== 'frozen') {
      throw new Conflict(DATASET_MESSAGES.notFrozen(record.id, record.status, record.progress));
    }
    const file = record.files.find((candidate) => candidate.key === key);
    if (!file) throw new NotFound(DATASET_MESSAGES.fileNotInDataset(record.id));
    // The version the dataset recorded: what it serves can never change, whatever is written under the key later.
    return signed(buckets.datasets, key, {
      fileName: file.name,
      ...(file.versionId ? { versionId: file.versionId } : {}),
    });
  };

  return {
    getSignedS3Url: async (caller: Caller | undefined, { bucket, key }: { bucket: string; key: string }) => {
      const kind = which(bucket);
      if (key.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) {
        throw new BadRequest(SIGNED_URL_MESSAGES.dotSegment);
      }
      if (kind === 'exports') {
        const parsed = parseExportKey(key);
        if (!parsed) throw new BadRequest(SIGNED_URL_MESSAGES.exportKey);
        const record = await exports.get(parsed.exportId);
        if (!record || record.key !== key || !isLive(record, now()) || !mayReadExport(caller, record)) {
          throw new NotFound(EXPORT_MESSAGES.notFound(parsed.exportId));
        }
        if (record.status !== 'done') {
          throw new Conflict(SIGNED_URL_MESSAGES.notFinished(record.id, record.status, record.progress));
        }
        return signed(buckets.exports, key, { fileName: exportFileName(record) });
      }
      if (kind === 'datasets') return datasetFile(caller, key);
      const match = CHART_KEY.exec(key);
      const period = chartPeriod(key);
      if (!match || !period) throw new BadRequest(SIGNED_URL_MESSAGES.chartKey);
      const deviceId = match[1]!;
      const access = await dataAccess.resolve(caller, deviceId);
      // A chart file holds a month of hourly or a year of daily roll-ups and is handed out whole, so it is signed
      // only when the caller may see all of it: the tier's window (a file starting before it is a 403 naming the tier
      // that unlocks it) and, for a campaign member, the campaign's windows (issue 19: a file reaching past them
      // would show what the readings API clips away). The series route serves any part of it, clipped.
      const at = now();
      const until = Math.min(period.to, at);
      const { parts } = readableRanges(access, 'view', { from: period.from, to: until }, at);
      const whole = parts.length === 1 && parts[0]!.from <= period.from && parts[0]!.to >= until;
      if (!whole) throw new Forbidden(SIGNED_URL_MESSAGES.chartOutsideView(deviceId, period.from, period.to));
      return signed(buckets.chartData, key);
    },
  };
};
