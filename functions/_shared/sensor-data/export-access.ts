import { isStaff } from '../../../shared/auth/groups';
import type { Caller } from '../../../shared/auth/verify-token';
import type { TimeRange } from '../../../shared/campaigns/window';
import type { ExportFormat, ExportStatus } from '../../../shared/contracts/sensor-data-exports';

/**
 * An export's record and file, and who may read them: the sensor-data area makes exports, and the api area signs
 * links to their files (`POST /api/aws`), so the rules both apply live here rather than in one area's domain
 * (as the datasets' do in `_shared/datasets/dataset-access.ts`).
 */

/** One export as stored in the exports table (docs/sensor-data.md "Downloads"). */
export interface ExportRecord {
  id: string;
  /** Absent for a guest's export (a sparse byOwner index: guests' exports are listed nowhere). */
  ownerId?: string;
  deviceId: string;
  deviceName: string;
  format: ExportFormat;
  from: number;
  to: number;
  /** What may be read of `[from, to]` (campaign windows clip it); the job reads only these. */
  parts: TimeRange[];
  measurements?: string[];
  window: 'public' | 'permissioned';
  status: ExportStatus;
  progress: number;
  rows: number;
  bytes: number;
  /** The object's key in the exports bucket: `exports/{deviceId}/{id}.{format}`. */
  key: string;
  attempts: number;
  error?: string;
  created: number;
  updated: number;
  /** Seconds since the epoch (the table's TTL attribute); enforced at read time, TTL is housekeeping. */
  expiresAt: number;
}

export const EXPORT_MESSAGES = {
  notFound: (id: string) => `Export not found: ${id}`,
  notQueued: 'The export could not be queued; please try again',
  failed: 'The export could not be written; please start it again',
  tooMany: (limit: number, nextAt: number) =>
    `At most ${limit} downloads can be started an hour; the next one can start at ${new Date(nextAt)
      .toISOString()
      .slice(11, 16)} UTC`,
  retrying: (attempt: number, max: number) => `Attempt ${attempt} of ${max} failed; retrying`,
};

export const exportKey = (deviceId: string, id: string, format: ExportFormat) => `exports/${deviceId}/${id}.${format}`;

/** `exports/{deviceId}/{exportId}.{csv|json|parquet}` read back, or undefined for any other key. */
export const parseExportKey = (
  key: string,
): { deviceId: string; exportId: string; format: ExportFormat } | undefined => {
  const match = /^exports\/([A-Za-z0-9._:-]+)\/(exp_[A-Za-z0-9_-]+)\.(csv|json|parquet)$/.exec(key);
  return match ? { deviceId: match[1]!, exportId: match[2]!, format: match[3] as ExportFormat } : undefined;
};

const compactTime = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace(/[-:]/g, '');

/** The name a browser saves the file under: device, range (UTC minutes) and format. */
export const exportFileName = (record: Pick<ExportRecord, 'deviceId' | 'from' | 'to' | 'format'>) =>
  `${record.deviceId}_${compactTime(record.from)}Z_${compactTime(record.to)}Z.${record.format}`;

/** Is the export still kept? Retention is enforced here: the table's TTL deletes late, the emulator never. */
export const isLive = (record: ExportRecord, now: number) => record.expiresAt * 1000 > now;

/** Who may see an export: its creator or staff; a guest's export (no owner) whoever holds its id. */
export const mayReadExport = (caller: Caller | undefined, record: ExportRecord) =>
  record.ownerId === undefined || (caller !== undefined && (caller.sub === record.ownerId || isStaff(caller.groups)));
