import type { TimeRange } from '../../../shared/campaigns/window';
import { silentLog } from '../../../test/support/log';
import { EXPORT_MESSAGES } from '../../_shared/sensor-data/export-access';
import { EMPTY_PROFILE } from '../../_shared/sensor-data/quality-profile';
import { createExportJob } from './export-job';
import type { ExportRecord, ExportStore } from './ports';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 2, 1);

/** The exports table's rules in memory: start only from queued or running, progress only while running. */
const memoryStore = (records: ExportRecord[]) => {
  const byId = new Map(records.map((r) => [r.id, { ...r }]));
  const progressWrites: number[] = [];
  const store: ExportStore = {
    create: async (r) => {
      if (byId.has(r.id)) return false;
      byId.set(r.id, { ...r });
      return true;
    },
    get: async (id) => byId.get(id),
    start: async (id, now) => {
      const r = byId.get(id);
      if (!r || (r.status !== 'queued' && r.status !== 'running')) return undefined;
      Object.assign(r, { status: 'running', updated: now, attempts: r.attempts + 1 });
      return { ...r };
    },
    progress: async (id, progress, rows) => {
      const r = byId.get(id)!;
      if (r.status === 'running') Object.assign(r, { progress, rows });
      progressWrites.push(progress);
    },
    finish: async (id, outcome) => {
      const r = byId.get(id)!;
      if (outcome.status === 'done') {
        Object.assign(r, { status: 'done', progress: 100, rows: outcome.rows, bytes: outcome.bytes });
        delete r.error;
      } else Object.assign(r, { status: outcome.status, error: outcome.error });
    },
    listByOwner: async () => ({ items: [], lastKey: undefined }),
    countStart: async () => true,
  };
  return { store, byId, progressWrites };
};

const memoryFiles = () => {
  const objects = new Map<string, string>();
  const aborted: string[] = [];
  return {
    objects,
    aborted,
    open: (key: string) => {
      let text = '';
      return {
        write: async (chunk: string | Uint8Array) => {
          // Text files as text; a Parquet file's bytes as latin1, one character a byte.
          text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('latin1');
        },
        close: async () => {
          objects.set(key, text);
          return { bytes: Buffer.byteLength(text) };
        },
        abort: async () => {
          aborted.push(key);
        },
      };
    },
  };
};

/** One reading an hour over `days` days, in chunks of a day, as the readings store yields them. */
const hourly = (days: number) => {
  const all = Array.from({ length: days * 24 }, (_, i) => ({ timestamp: T0 + i * 3_600_000, values: { pm10: i } }));
  return {
    all,
    scan: async function* (_deviceId: string, { from, to }: TimeRange) {
      for (let day = from - (from % DAY); day <= to; day += DAY) {
        const chunk = all.filter(
          (r) => r.timestamp >= Math.max(from, day) && r.timestamp <= Math.min(to, day + DAY - 1),
        );
        if (chunk.length) yield chunk;
      }
    },
  };
};

const record = (overrides: Partial<ExportRecord> = {}): ExportRecord => ({
  id: 'exp_aaaaaaaaaaaaaaaaaaaaaaaa',
  ownerId: 'owner',
  deviceId: 'dev-1',
  deviceName: 'Dev',
  format: 'csv',
  from: T0,
  to: T0 + 40 * DAY - 1,
  parts: [{ from: T0, to: T0 + 40 * DAY - 1 }],
  window: 'permissioned',
  status: 'queued',
  progress: 0,
  rows: 0,
  bytes: 0,
  key: 'exports/dev-1/exp_aaaaaaaaaaaaaaaaaaaaaaaa.csv',
  attempts: 0,
  created: T0,
  updated: T0,
  expiresAt: (T0 + 7 * DAY) / 1000,
  ...overrides,
});

const device = {
  id: 'dev-1',
  name: 'Dev',
  productLine: 'sd1' as const,
  dataVisibility: 'private' as const,
  state: 'active',
};

describe('export job', () => {
  it('writes every reading of the range, reports progress in steps below 100, and is left alone once done', async () => {
    const { store, byId, progressWrites } = memoryStore([record()]);
    const files = memoryFiles();
    const readings = hourly(40);
    const told: { exportId: string; rows: number; expiresAt: number; links: { export: string } }[] = [];
    const job = createExportJob({
      log: silentLog,
      store,
      files,
      readings,
      readDevice: async () => ({ ...device, measurementNames: ['pm10'] }),
      profiles: { read: async () => EMPTY_PROFILE },
      now: () => T0,
      maxAttempts: 5,
      webhooks: {
        exportReady: async (data) => {
          told.push(data);
        },
      },
    });
    expect(await job.run(record().id)).toBe('done');
    const lines = files.objects.get(record().key)!.trim().split('\r\n');
    expect(lines[0]).toBe('timestamp,iso_time,pm10 (µg/m³)');
    expect(lines).toHaveLength(1 + 40 * 24);
    expect(byId.get(record().id)).toMatchObject({ status: 'done', progress: 100, rows: 960, attempts: 1 });
    expect(progressWrites.length).toBeGreaterThanOrEqual(15);
    expect(progressWrites.every((p, i) => p < 100 && (i === 0 || p - progressWrites[i - 1]! >= 5))).toBe(true);

    // The device's webhooks hear of it once it is done, with where to fetch it.
    expect(told).toEqual([
      expect.objectContaining({
        exportId: record().id,
        rows: 960,
        expiresAt: T0 + 7 * DAY,
        links: { export: `/exports/${record().id}` },
      }),
    ]);

    files.objects.clear();
    expect(await job.run(record().id)).toBe('skipped');
    expect(files.objects.size).toBe(0);
    // A message that comes again tells them again (the same event id: stored once per webhook).
    expect(told).toHaveLength(2);
  });

  it("tells no webhook of a guest's export", async () => {
    const { store } = memoryStore([record({ ownerId: undefined })]);
    const told: unknown[] = [];
    const job = createExportJob({
      log: silentLog,
      store,
      files: memoryFiles(),
      readings: hourly(2),
      readDevice: async () => ({ ...device, measurementNames: ['pm10'] }),
      profiles: { read: async () => EMPTY_PROFILE },
      now: () => T0,
      maxAttempts: 5,
      webhooks: {
        exportReady: async (data) => {
          told.push(data);
        },
      },
    });
    expect(await job.run(record().id)).toBe('done');
    expect(told).toEqual([]);
  });

  it("reads only the record's parts (campaign windows) and finds the columns in the readings when the device lists none", async () => {
    const parts = [
      { from: T0 + DAY, to: T0 + DAY + 2 * 3_600_000 },
      { from: T0 + 3 * DAY, to: T0 + 3 * DAY },
    ];
    const { store } = memoryStore([record({ parts, format: 'json' })]);
    const files = memoryFiles();
    const job = createExportJob({
      log: silentLog,
      store,
      files,
      readings: hourly(5),
      readDevice: async () => device,
      profiles: { read: async () => EMPTY_PROFILE },
      now: () => T0,
      maxAttempts: 5,
      webhooks: { exportReady: async () => undefined },
    });
    await job.run(record().id);
    const doc = JSON.parse(files.objects.get(record().key)!);
    expect(doc.measurements).toEqual([{ name: 'pm10', unit: 'µg/m³' }]);
    expect(doc.readings.map((r: { timestamp: number }) => (r.timestamp - T0) / 3_600_000)).toEqual([24, 25, 26, 72]);
  });

  it('throws a failure back for the queue to retry, and records it as final on the last attempt', async () => {
    const { store, byId } = memoryStore([record({ attempts: 3 })]);
    const files = memoryFiles();
    const job = createExportJob({
      log: silentLog,
      store,
      files,
      readings: {
        // biome-ignore lint/correctness/useYield: a scan that fails before its first chunk
        scan: async function* () {
          throw new Error('throttled');
        },
      },
      readDevice: async () => ({ ...device, measurementNames: ['pm10'] }),
      profiles: { read: async () => EMPTY_PROFILE },
      now: () => T0,
      maxAttempts: 5,
      webhooks: { exportReady: async () => undefined },
    });
    await expect(job.run(record().id)).rejects.toThrow('throttled');
    expect(byId.get(record().id)).toMatchObject({ status: 'queued', error: EXPORT_MESSAGES.retrying(4, 5) });
    expect(files.aborted).toEqual([record().key]);
    expect(await job.run(record().id)).toBe('failed');
    expect(byId.get(record().id)).toMatchObject({ status: 'failed', error: EXPORT_MESSAGES.failed, attempts: 5 });
    expect(await job.run(record().id)).toBe('skipped');
  });
});
