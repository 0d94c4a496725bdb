import type { ExportJob } from '../../../../shared/contracts/sensor-data-exports';
import { PRESETS, presetRange } from './range-rules';

/** The download panel's range choices; `window`: from the start of the tier's download window (the API clips it). */
export type ExportRangeChoice = '24h' | '7d' | '30d' | '1y' | 'window' | 'custom';

export const EXPORT_RANGES: { id: Exclude<ExportRangeChoice, 'custom'>; label: string }[] = [
  ...PRESETS,
  { id: 'window', label: 'All my tier allows' },
];

/** The body's range for a choice: a preset ends now; the whole window leaves both ends to the API. */
export const exportRange = (
  choice: Exclude<ExportRangeChoice, 'custom'>,
  now: number,
): { from?: number; to?: number } => (choice === 'window' ? {} : presetRange(choice, now));

export const formatBytes = (bytes: number): string => {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
};

/** One line for an export's state: "Queued", "Writing… 45 %", "Done: 1,234 rows, 56.7 KB", "Failed: why". */
export const exportStatusText = (job: Pick<ExportJob, 'status' | 'progress' | 'rows' | 'bytes' | 'error'>): string => {
  switch (job.status) {
    case 'queued':
      return job.error ? `Queued again (${job.error})` : 'Queued';
    case 'running':
      return `Writing… ${job.progress} %`;
    case 'done':
      return `Done: ${job.rows.toLocaleString('en')} rows, ${formatBytes(job.bytes)}`;
    default:
      return `Failed: ${job.error ?? 'unknown reason'}`;
  }
};

/** Polling stops once an export can change no more. */
export const isFinished = (job: Pick<ExportJob, 'status'>) => job.status === 'done' || job.status === 'failed';
