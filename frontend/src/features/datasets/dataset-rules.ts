import type { Dataset, DatasetDevice } from '../../../../shared/contracts/datasets';

/** Polling stops once a dataset can change no more. */
export const isSettled = (dataset: Pick<Dataset, 'status'>) =>
  dataset.status === 'frozen' || dataset.status === 'failed';

export const STATUS_TEXT: Record<Dataset['status'], string> = {
  queued: 'Queued',
  building: 'Building',
  frozen: 'Frozen',
  failed: 'Failed',
};

/** One line for a dataset's state: "Queued", "Building… 45 %", "Frozen: 1,234 rows, 56.7 KB", "Failed: why". */
export const datasetStatusText = (dataset: Pick<Dataset, 'status' | 'progress' | 'rows' | 'bytes' | 'error'>) => {
  if (dataset.status === 'frozen') {
    return `Frozen: ${dataset.rows.toLocaleString('en')} rows, ${formatBytes(dataset.bytes)}`;
  }
  if (dataset.status === 'failed') return `Failed: ${dataset.error ?? 'the build stopped'}`;
  const retry = dataset.error ? ` (${dataset.error})` : '';
  return dataset.status === 'queued' && dataset.progress === 0
    ? `Queued${retry}`
    : `Building… ${dataset.progress} %${retry}`;
};

export const formatBytes = (bytes: number): string => {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
};

const day = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

/** A range in UTC minutes: "2026-05-01 00:00 – 2026-05-31 23:59 UTC". */
export const rangeText = (range: { from: number; to: number }) => `${day(range.from)} – ${day(range.to)} UTC`;

/** What one device gave the dataset, and why: its tier's window, or that its tier has no downloads. */
export const deviceWindowText = (device: Pick<DatasetDevice, 'tier' | 'windowDays' | 'parts'>) => {
  if (device.windowDays === null) return `${device.tier.name} offers no downloads: no rows`;
  if (device.parts.length === 0) return `${device.tier.name}: ${device.windowDays} days, none of them in the range`;
  return `${device.tier.name}: last ${device.windowDays} days · ${device.parts.map(rangeText).join(', ')}`;
};

/** The one command that checks downloaded files against the manifest (docs/datasets.md). */
export const VERIFY_COMMAND = `jq -r '.files[] | "\\(.sha256)  \\(.path)"' manifest.json | sha256sum -c`;
