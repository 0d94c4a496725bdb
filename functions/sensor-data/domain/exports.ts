import type { Caller } from '../../../shared/auth/verify-token';
import type { ExportFormat, ExportJob } from '../../../shared/contracts/sensor-data-exports';
import { EXPORT_STARTS_PER_HOUR } from '../../../shared/sensor-data/export-limits';
import type { QualityFilter, ValueChoice } from '../../../shared/sensor-data/quality';
import { DAY_MS } from '../../../shared/sensor-data/tiers';
import { NotFound, ServiceUnavailable } from '../../_shared/errors';
import { takeHourlyUse } from '../../_shared/hourly-limit';
import type { Log } from '../../_shared/logger';
import { cursorPage } from '../../_shared/paging';
import { type DataAccessModule, readableRanges } from '../../_shared/sensor-data/data-access';
import {
  EXPORT_MESSAGES,
  exportFileName,
  exportKey,
  isLive,
  mayReadExport,
} from '../../_shared/sensor-data/export-access';
import type { ExportMessage } from '../../_shared/sensor-data/queue-messages';
import type { ExportRecord, ExportStore } from './ports';

/** An export and its file are kept this long (the exports bucket expires objects after the same week). */
export const EXPORT_LIFETIME_MS = 7 * DAY_MS;

export const toExportJob = (record: ExportRecord, bucket: string): ExportJob => ({
  id: record.id,
  deviceId: record.deviceId,
  deviceName: record.deviceName,
  format: record.format,
  from: record.from,
  to: record.to,
  ...(record.measurements ? { measurements: record.measurements } : {}),
  ...(record.quality ? { quality: record.quality } : {}),
  ...(record.values ? { values: record.values } : {}),
  ...(record.qualityColumns ? { qualityColumns: record.qualityColumns } : {}),
  window: record.window,
  status: record.status,
  progress: record.progress,
  rows: record.rows,
  bytes: record.bytes,
  ...(record.error ? { error: record.error } : {}),
  ...(record.status === 'done' ? { file: { bucket, key: record.key, name: exportFileName(record) } } : {}),
  created: record.created,
  updated: record.updated,
  expiresAt: record.expiresAt * 1000,
});

export interface ExportsDeps {
  log: Log;
  store: ExportStore;
  dataAccess: Pick<DataAccessModule, 'resolve'>;
  work: { send: (messages: readonly ExportMessage[]) => Promise<void> };
  /** The exports bucket's name, handed to clients with a finished file. */
  bucket: string;
  now: () => number;
  newId: () => string;
}

/** Downloads: start an export within the caller's download window, follow it, list one's own. */
export const createExports = ({ store, dataAccess, work, bucket, now, newId, log }: ExportsDeps) => {
  const readOwn = async (caller: Caller | undefined, id: string): Promise<ExportRecord> => {
    const record = await store.get(id);
    // Someone else's export answers as if it did not exist: its id reveals nothing.
    if (!record || !isLive(record, now()) || !mayReadExport(caller, record)) {
      throw new NotFound(EXPORT_MESSAGES.notFound(id));
    }
    return record;
  };

  return {
    create: async (
      caller: Caller | undefined,
      deviceId: string,
      request: {
        from?: number;
        to?: number;
        format: ExportFormat;
        measurements?: string[];
        quality?: QualityFilter;
        values?: ValueChoice;
        qualityColumns?: boolean;
      },
      sourceIp: string,
    ): Promise<ExportJob> => {
      const access = await dataAccess.resolve(caller, deviceId);
      const at = now();
      const { range, parts } = readableRanges(access, 'download', request, at);
      // Counted only once the request is allowed: a refused one costs nothing and takes no slot.
      const limit = caller ? EXPORT_STARTS_PER_HOUR.person : EXPORT_STARTS_PER_HOUR.guest;
      await takeHourlyUse(
        (subject, hourStart, max) => store.countStart(subject, hourStart, max),
        { subject: caller ? `person:${caller.sub}` : `guest:${sourceIp}`, limit, at },
        EXPORT_MESSAGES.tooMany,
      );
      const id = newId();
      const record: ExportRecord = {
        id,
        ...(caller ? { ownerId: caller.sub } : {}),
        deviceId,
        deviceName: access.device.name,
        format: request.format,
        from: range.from,
        to: range.to,
        parts,
        ...(request.measurements ? { measurements: request.measurements } : {}),
        ...(request.quality ? { quality: request.quality } : {}),
        ...(request.values ? { values: request.values } : {}),
        ...(request.qualityColumns ? { qualityColumns: true } : {}),
        window: access.permissioned ? 'permissioned' : 'public',
        status: 'queued',
        progress: 0,
        rows: 0,
        bytes: 0,
        key: exportKey(deviceId, id, request.format),
        attempts: 0,
        created: at,
        updated: at,
        expiresAt: Math.ceil((at + EXPORT_LIFETIME_MS) / 1000),
      };
      // The id is 24 random bytes: a collision is not a case to handle, only to refuse to overwrite.
      if (!(await store.create(record))) throw new Error(`Export id ${id} is taken`);
      try {
        await work.send([{ kind: 'export', exportId: id }]);
      } catch (error) {
        await store.finish(id, { status: 'failed', error: EXPORT_MESSAGES.notQueued }, now());
        log('error', 'Export not queued', { exportId: id, error });
        throw new ServiceUnavailable(EXPORT_MESSAGES.notQueued);
      }
      return toExportJob(record, bucket);
    },

    get: async (caller: Caller | undefined, id: string): Promise<ExportJob> =>
      toExportJob(await readOwn(caller, id), bucket),

    listMine: async (caller: Caller, request: { limit: number; cursor?: string }) => {
      const since = now() - EXPORT_LIFETIME_MS;
      const page = await cursorPage((startKey, size) => store.listByOwner(caller.sub, since, startKey, size), request);
      return { ...page, items: page.items.map((record) => toExportJob(record, bucket)) };
    },
  };
};

export type Exports = ReturnType<typeof createExports>;
