import { createHash } from 'node:crypto';
import type { TimeRange } from '../../../shared/campaigns/window';
import { DATASET_MESSAGES } from '../../../shared/datasets/dataset-messages';
import { silentLog } from '../../../test/support/log';
import type { DatasetRecord } from '../../_shared/datasets/dataset-access';
import type { ExportReading } from '../../_shared/exports/export-format';
import { type BuildJobDeps, createBuildJob } from './build-job';
import type { BuildMessage } from './build-message';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 2, 1);
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

const record = (overrides: Partial<DatasetRecord> = {}): DatasetRecord => ({
  id: 'ds_000000000001',
  conceptId: 'ds_000000000001',
  version: 1,
  title: 'Lake PM',
  description: 'Two buoys',
  creators: [{ name: 'Alice' }],
  license: 'CC-BY-4.0',
  visibility: 'public',
  source: { kind: 'devices' },
  from: T0,
  to: T0 + 2 * DAY - 1,
  asOf: T0 + 2 * DAY,
  devices: [
    {
      deviceId: 'd1',
      name: 'Buoy 1',
      productLine: 'sd1',
      tier: { id: 'tier1', name: 'Tier 1' },
      windowDays: 30,
      parts: [{ from: T0, to: T0 + 2 * DAY - 1 }],
    },
    {
      deviceId: 'd2',
      name: 'Buoy 2',
      productLine: 'sd1',
      tier: { id: 'tier1', name: 'Tier 1' },
      windowDays: 30,
      parts: [{ from: T0 + DAY, to: T0 + 2 * DAY - 1 }],
    },
  ],
  status: 'queued',
  progress: 0,
  attempts: 0,
  step: 0,
  files: [],
  rows: 0,
  bytes: 0,
  creatorId: 'alice',
  created: T0 + 2 * DAY,
  updated: T0 + 2 * DAY,
  ...overrides,
});

/** The datasets table's rules in memory: the same conditions as the store's. */
const memoryStore = (initial: DatasetRecord) => {
  const r = structuredClone(initial);
  const progress: number[] = [];
  const store: BuildJobDeps['store'] = {
    start: async (_id, now) => {
      if (r.status !== 'queued' && r.status !== 'building') return undefined;
      Object.assign(r, { status: 'building', updated: now, attempts: r.attempts + 1 });
      return structuredClone(r);
    },
    progress: async (_id, value) => {
      if (r.status === 'building' && r.progress < value) r.progress = value;
      progress.push(value);
    },
    stepDone: async (_id, step, { files, device, progress: value }) => {
      if (r.status !== 'building' || r.step !== step) return false;
      r.files.push(...files);
      r.devices[step] = device;
      r.rows += files.filter((f) => f.format === 'csv').reduce((sum, f) => sum + (f.rows ?? 0), 0);
      r.bytes += files.reduce((sum, f) => sum + f.bytes, 0);
      Object.assign(r, { step: step + 1, attempts: 0, progress: value });
      delete r.error;
      return true;
    },
    freeze: async (_id, { manifest, frozenAt, listed }, steps) => {
      if (r.status !== 'building' || r.step !== steps) return false;
      r.files.push(manifest);
      Object.assign(
        r,
        { status: 'frozen', progress: 100, frozenAt, step: steps + 1 },
        listed ? { listing: 'public' } : {},
      );
      return true;
    },
    setback: async (_id, status, error) => {
      if (r.status === 'queued' || r.status === 'building') Object.assign(r, { status, error });
    },
  };
  return { r, store, progress };
};

const memoryFiles = () => {
  const objects = new Map<string, string>();
  let versions = 0;
  return {
    objects,
    open: (key: string) => {
      let text = '';
      return {
        write: async (chunk: string | Uint8Array) => {
          // Text files as text; a Parquet file's bytes as latin1, one character a byte.
          text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('latin1');
        },
        close: async () => {
          objects.set(key, text);
          return { bytes: Buffer.byteLength(text), versionId: `v${++versions}` };
        },
        abort: async () => undefined,
      };
    },
  };
};

/** Readings every hour: d1 pm2_5 only, d2 pm2_5 and a measurement of its own. */
const scan = async function* (deviceId: string, { from, to }: TimeRange) {
  const all: ExportReading[] = Array.from({ length: 48 }, (_, i) => ({
    timestamp: T0 + i * HOUR,
    values: (deviceId === 'd1' ? { pm2_5: i } : { pm2_5: i / 2, lake_temp: 4 + i / 10 }) as Record<string, number>,
  }));
  const inside = all.filter((reading) => reading.timestamp >= from && reading.timestamp <= to);
  for (let i = 0; i < inside.length; i += 6) yield inside.slice(i, i + 6);
};

let sent: BuildMessage[] = [];
let files = memoryFiles();
let privateDevice = '';
let time = 0;

const deps = (store: BuildJobDeps['store']): BuildJobDeps => ({
  log: silentLog,
  store,
  files,
  readings: { scan },
  readDevice: async (id) => ({
    id,
    name: id,
    productLine: 'sd1',
    dataVisibility: id === privateDevice ? 'private' : 'public',
    state: 'active',
    ...(id === 'd2' ? { measurementUnits: { lake_temp: '°C' } } : {}),
  }),
  work: {
    send: async (messages) => {
      sent.push(...messages);
    },
  },
  webOrigin: 'https://app.example',
  now: () => (time += 1000),
  maxAttempts: 5,
});

const setup = (initial = record(), options: { privateDevice?: string } = {}) => {
  const { r, store, progress } = memoryStore(initial);
  files = memoryFiles();
  sent = [];
  privateDevice = options.privateDevice ?? '';
  time = T0 + 2 * DAY + 1000;
  return { r, store, job: createBuildJob(deps(store)), files, sent, progress };
};

describe('the dataset build job', () => {
  it('writes a CSV and a JSON per device, a step per message, then a manifest whose checksums match the files', async () => {
    const { r, job, files, sent } = setup();
    expect(await job.run(r.id)).toBe('step');
    expect(sent).toEqual([{ kind: 'build', datasetId: r.id }]);
    expect(r).toMatchObject({ status: 'building', step: 1, rows: 48 });
    expect(await job.run(r.id)).toBe('step');
    expect(r).toMatchObject({ step: 2, rows: 72 });
    expect(r.progress).toBe(99);
    expect(await job.run(r.id)).toBe('frozen');
    expect(r).toMatchObject({ status: 'frozen', progress: 100, listing: 'public' });
    expect(sent).toHaveLength(2);

    expect([...files.objects.keys()]).toEqual([
      'datasets/ds_000000000001/d1.csv',
      'datasets/ds_000000000001/d1.json',
      'datasets/ds_000000000001/d2.csv',
      'datasets/ds_000000000001/d2.json',
      'datasets/ds_000000000001/manifest.json',
    ]);
    const d2csv = files.objects.get('datasets/ds_000000000001/d2.csv')!;
    expect(d2csv.split('\r\n')[0]).toBe('timestamp,iso_time,pm2_5 (µg/m³),lake_temp (°C)');
    expect(d2csv.trim().split('\r\n')).toHaveLength(25);

    const manifest = JSON.parse(files.objects.get('datasets/ds_000000000001/manifest.json')!);
    expect(manifest).toMatchObject({
      manifestVersion: 1,
      id: r.id,
      version: 1,
      publisher: 'Device Data Platform',
      license: { name: 'CC-BY-4.0' },
      rows: 72,
      frozenAt: r.frozenAt,
      query: { deviceIds: ['d1', 'd2'], from: T0, to: T0 + 2 * DAY - 1, asOf: T0 + 2 * DAY, measurements: null },
      metadata: {},
    });
    expect(manifest.devices.map((d: { rows: number }) => d.rows)).toEqual([48, 24]);
    for (const file of manifest.files as { name: string; sha256: string; bytes: number }[]) {
      const text = files.objects.get(`datasets/ds_000000000001/${file.name}`)!;
      expect([file.sha256, file.bytes]).toEqual([sha256(text), Buffer.byteLength(text)]);
    }
    // The record knows the manifest's own checksum and each object's version.
    const stored = r.files.find((file) => file.format === 'manifest')!;
    expect(stored.sha256).toBe(sha256(files.objects.get(stored.key)!));
    expect(r.files.map((file) => file.versionId)).toEqual(['v1', 'v2', 'v3', 'v4', 'v5']);
    expect(manifest.citation).toBe(
      'Alice (2026). Lake PM (Version 1) [Data set]. Device Data Platform. https://app.example/dashboard/datasets/ds_000000000001',
    );
    // A message after the freeze does nothing.
    expect(await job.run(r.id)).toBe('skipped');
  });

  it('reports progress below 100 while writing, and records a step once when two deliveries race', async () => {
    const { r, job, progress, sent, store } = setup();
    await job.run(r.id);
    expect(progress.length).toBeGreaterThanOrEqual(5);
    expect(progress.every((p) => p < 100)).toBe(true);
    // A late delivery of the first step's message, which read the record before that step was recorded.
    const stale = createBuildJob({
      ...deps(store),
      store: { ...store, start: async () => structuredClone({ ...r, step: 0 }) },
    });
    const before = { files: r.files.length, rows: r.rows, sent: sent.length };
    expect(await stale.run(r.id)).toBe('skipped');
    expect({ files: r.files.length, rows: r.rows, sent: sent.length }).toEqual(before);
  });

  it('fails a public dataset at once when one of its devices was made private meanwhile', async () => {
    const { r, job, sent } = setup(record(), { privateDevice: 'd2' });
    await job.run(r.id);
    expect(await job.run(r.id)).toBe('failed');
    expect(r).toMatchObject({ status: 'failed', error: DATASET_MESSAGES.deviceMadePrivate('Buoy 2', 'd2') });
    expect(sent).toHaveLength(1);
  });

  it('throws a failed step back to the queue, and fails the dataset on its last attempt', async () => {
    const { r, store } = setup(record({ attempts: 3 }));
    const failing = createBuildJob({
      ...deps(store),
      readings: {
        // biome-ignore lint/correctness/useYield: a scan that fails before its first chunk
        scan: async function* () {
          throw new Error('throttled');
        },
      },
    });
    await expect(failing.run(r.id)).rejects.toThrow('throttled');
    expect(r).toMatchObject({ status: 'queued', error: DATASET_MESSAGES.retrying(4, 5) });
    expect(await failing.run(r.id)).toBe('failed');
    expect(r).toMatchObject({ status: 'failed', error: DATASET_MESSAGES.failed });
    expect(await failing.run(r.id)).toBe('skipped');
  });
});
