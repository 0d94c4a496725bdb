import { DEFAULT_TIERS, tierRow } from '../../../shared/sensor-data/tiers';
import { callerOf } from '../../../test/support/callers';
import type { DatasetRecord } from '../../_shared/datasets/dataset-access';
import { Forbidden } from '../../_shared/errors';
import type { ExportRecord } from '../../_shared/sensor-data/export-access';
import { createSignedUrls, SIGNED_URL_SECONDS } from './signed-urls';

const NOW = Date.UTC(2026, 5, 1);
const person = (sub: string, groups: string[] = []) => callerOf(sub, groups);

const exportRecord = (overrides: Partial<ExportRecord>): ExportRecord => ({
  id: 'exp_bbbbbbbbbbbbbbbbbbbbbbbb',
  ownerId: 'alice',
  deviceId: 'dev-1',
  deviceName: 'D',
  format: 'csv',
  from: NOW - 1000,
  to: NOW,
  parts: [],
  window: 'permissioned',
  status: 'done',
  progress: 100,
  rows: 1,
  bytes: 10,
  key: 'exports/dev-1/exp_bbbbbbbbbbbbbbbbbbbbbbbb.csv',
  attempts: 1,
  created: NOW,
  updated: NOW,
  expiresAt: NOW / 1000 + 3600,
  ...overrides,
});

const DATASET_ID = 'ds_0123456789ab';

const datasetRecord = (overrides: Partial<DatasetRecord>): DatasetRecord => ({
  id: DATASET_ID,
  conceptId: DATASET_ID,
  version: 1,
  title: 'T',
  description: '',
  creators: [{ name: 'Alice' }],
  license: 'CC-BY-4.0',
  visibility: 'permissioned',
  source: { kind: 'devices' },
  from: NOW - 1000,
  to: NOW,
  asOf: NOW,
  devices: [
    {
      deviceId: 'dev-member',
      name: 'D',
      productLine: 'sd1',
      tier: { id: 'tier1', name: 'Tier 1' },
      windowDays: 30,
      parts: [{ from: NOW - 1000, to: NOW }],
    },
  ],
  status: 'frozen',
  progress: 100,
  attempts: 0,
  step: 2,
  files: [
    {
      name: 'dev-member.csv',
      format: 'csv',
      deviceId: 'dev-member',
      rows: 1,
      bytes: 10,
      sha256: 'ab',
      key: `datasets/${DATASET_ID}/dev-member.csv`,
      versionId: 'v-7',
    },
  ],
  rows: 1,
  bytes: 10,
  creatorId: 'alice',
  created: NOW,
  updated: NOW,
  ...overrides,
});

const setup = (records: ExportRecord[], datasets: DatasetRecord[] = []) => {
  const signed: { bucket: string; key: string; seconds: number; fileName?: string; versionId?: string }[] = [];
  const urls = createSignedUrls({
    buckets: {
      exports: 'sensor-data-local-exports',
      chartData: 'sensor-data-api-dev-chartdata',
      datasets: 'datasets-local-files',
    },
    exports: { get: async (id) => records.find((r) => r.id === id) },
    datasets: { get: async (id) => datasets.find((r) => r.id === id) },
    dataAccess: {
      resolve: async (caller, deviceId) => {
        const open = deviceId === 'dev-public' || deviceId === 'dev-tier2';
        const member = deviceId === 'dev-member' && caller?.sub === 'carol';
        const campaign = deviceId === 'dev-campaign' && caller?.sub === 'carol';
        if (!open && !member && !campaign && caller?.sub !== 'alice') throw new Forbidden();
        return {
          device: { id: deviceId, name: 'D', productLine: 'sd1', dataVisibility: 'public', state: 'active' },
          tier: tierRow(DEFAULT_TIERS.sd1, deviceId === 'dev-public' ? undefined : 'tier2'),
          lineTiers: DEFAULT_TIERS.sd1,
          route: campaign ? 'campaign' : member ? 'relation' : 'public',
          permissioned: member || campaign,
          // The campaign ran from February to mid-April 2026.
          windows: campaign ? [{ startsAt: Date.UTC(2026, 1, 1), endsAt: Date.UTC(2026, 3, 15) }] : null,
        };
      },
    },
    presign: async (bucket, key, seconds, options) => {
      signed.push({ bucket, key, seconds, ...options });
      return `https://s3.example/${bucket}/${key}`;
    },
    now: () => NOW,
  });
  return { urls, signed };
};

const reject = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: { status: number }) => error.status,
  );

describe('getSignedS3Url', () => {
  it("signs an export file for its creator and for staff, five minutes, under the export's file name", async () => {
    const record = exportRecord({});
    const { urls, signed } = setup([record]);
    const answer = await urls.getSignedS3Url(person('alice'), { bucket: 'sensor-data-local-exports', key: record.key });
    expect(answer).toEqual({ url: expect.stringContaining(record.key), expiresAt: NOW + SIGNED_URL_SECONDS * 1000 });
    await urls.getSignedS3Url(person('boss', ['Employees']), { bucket: 'exports', key: record.key });
    expect(signed).toHaveLength(2);
    expect(signed[0]).toMatchObject({ seconds: 300, fileName: expect.stringMatching(/^dev-1_.*\.csv$/) });
  });

  it("refuses someone else's export as not found, and an unfinished or expired one", async () => {
    const done = exportRecord({});
    const running = exportRecord({
      id: 'exp_cccccccccccccccccccccccc',
      key: 'exports/dev-1/exp_cccccccccccccccccccccccc.csv',
      status: 'running',
    });
    const old = exportRecord({
      id: 'exp_dddddddddddddddddddddddd',
      key: 'exports/dev-1/exp_dddddddddddddddddddddddd.csv',
      expiresAt: NOW / 1000 - 1,
    });
    const { urls } = setup([done, running, old]);
    expect(await reject(urls.getSignedS3Url(person('bob'), { bucket: 'exports', key: done.key }))).toBe(404);
    expect(await reject(urls.getSignedS3Url(undefined, { bucket: 'exports', key: done.key }))).toBe(404);
    expect(await reject(urls.getSignedS3Url(person('alice'), { bucket: 'exports', key: running.key }))).toBe(409);
    expect(await reject(urls.getSignedS3Url(person('alice'), { bucket: 'exports', key: old.key }))).toBe(404);
    // The record's own key only: the same id under another device is no file of it.
    expect(
      await reject(
        urls.getSignedS3Url(person('alice'), { bucket: 'exports', key: done.key.replace('dev-1', 'dev-2') }),
      ),
    ).toBe(404);
  });

  it("signs a frozen dataset's file, at the version it recorded, for whoever may read the dataset", async () => {
    const frozen = datasetRecord({});
    const building = datasetRecord({ id: 'ds_bbbbbbbbbbbb', status: 'building', files: [] });
    const open = datasetRecord({
      id: 'ds_cccccccccccc',
      visibility: 'public',
      creatorId: 'zed',
      files: [{ ...datasetRecord({}).files[0]!, key: 'datasets/ds_cccccccccccc/dev-member.csv' }],
    });
    const { urls, signed } = setup([], [frozen, building, open]);
    const key = frozen.files[0]!.key;
    // Its creator, and a member of its device (by permission).
    await urls.getSignedS3Url(person('alice'), { bucket: 'datasets', key });
    await urls.getSignedS3Url(person('carol'), { bucket: 'datasets-local-files', key });
    expect(signed[0]).toEqual({
      bucket: 'datasets-local-files',
      key,
      seconds: 300,
      fileName: 'dev-member.csv',
      versionId: 'v-7',
    });
    expect(signed).toHaveLength(2);
    // Anyone else, a guest included: as if it did not exist.
    expect(await reject(urls.getSignedS3Url(person('bob'), { bucket: 'datasets', key }))).toBe(404);
    expect(await reject(urls.getSignedS3Url(undefined, { bucket: 'datasets', key }))).toBe(404);
    // A public one: a guest too.
    await urls.getSignedS3Url(undefined, { bucket: 'datasets', key: key.replace(DATASET_ID, open.id) });
    // Not frozen yet: 409; a name that is not one of its files: 404; a key of another shape: 400.
    const early = urls.getSignedS3Url(person('alice'), {
      bucket: 'datasets',
      key: `datasets/${building.id}/dev-member.csv`,
    });
    expect(await reject(early)).toBe(409);
    expect(
      await reject(urls.getSignedS3Url(person('alice'), { bucket: 'datasets', key: key.replace('.csv', '.json') })),
    ).toBe(404);
    expect(await reject(urls.getSignedS3Url(person('alice'), { bucket: 'datasets', key: 'datasets/x/y.csv' }))).toBe(
      400,
    );
  });

  it("lets whoever holds a guest export's id fetch it", async () => {
    const record = exportRecord({ ownerId: undefined });
    const { urls } = setup([record]);
    await expect(urls.getSignedS3Url(undefined, { bucket: 'exports', key: record.key })).resolves.toHaveProperty('url');
  });

  it('signs a chart file only for someone who may see all of it, and refuses other buckets, keys and dot segments', async () => {
    const { urls, signed } = setup([]);
    // Tier 2 (365 days) of a public device: last month's hourly file lies wholly in the window.
    await urls.getSignedS3Url(undefined, { bucket: 'chartData', key: 'charts/dev-tier2/hour/2026-05.json' });
    expect(signed[0]).toEqual({
      bucket: 'sensor-data-api-dev-chartdata',
      key: 'charts/dev-tier2/hour/2026-05.json',
      seconds: 300,
    });
    expect(
      await reject(urls.getSignedS3Url(person('bob'), { bucket: 'chartData', key: 'charts/dev-9/hour/2026-05.json' })),
    ).toBe(403);
    // A file starting before the base tier's 7-day view window names the tier that unlocks it, even when it reaches
    // into the window: it would be handed out whole.
    for (const key of [
      'charts/dev-public/hour/2026-04.json',
      'charts/dev-public/hour/2026-05.json',
      'charts/dev-public/day/2026.json',
    ]) {
      await expect(urls.getSignedS3Url(undefined, { bucket: 'chartData', key })).rejects.toMatchObject({
        status: 403,
        message: expect.stringMatching(/Tier 2 unlocks older data/),
      });
    }
    // A campaign member sees the device only inside the campaign's window: May 2026 reaches past its end.
    expect(
      await reject(
        urls.getSignedS3Url(person('carol'), { bucket: 'chartData', key: 'charts/dev-campaign/hour/2026-05.json' }),
      ),
    ).toBe(403);
    await expect(
      urls.getSignedS3Url(person('carol'), { bucket: 'chartData', key: 'charts/dev-campaign/hour/2026-05.json' }),
    ).rejects.toMatchObject({ message: expect.stringContaining('GET /sensor-data/devices/dev-campaign/series') });
    await urls.getSignedS3Url(person('carol'), { bucket: 'chartData', key: 'charts/dev-campaign/hour/2026-03.json' });
    expect(
      await reject(
        urls.getSignedS3Url(undefined, { bucket: 'chartData', key: 'charts/dev-public/day/2026-06-01.json' }),
      ),
    ).toBe(400);
    expect(
      await reject(urls.getSignedS3Url(person('alice'), { bucket: 'organizations-local-logofiles', key: 'a' })),
    ).toBe(403);
    expect(await reject(urls.getSignedS3Url(person('alice'), { bucket: 'chartData', key: 'other/dev-public/x' }))).toBe(
      400,
    );
    expect(
      await reject(urls.getSignedS3Url(person('alice'), { bucket: 'exports', key: 'exports/dev-1/notes.txt' })),
    ).toBe(400);
    expect(
      await reject(urls.getSignedS3Url(undefined, { bucket: 'chartData', key: 'charts/dev-public/../../exports/x' })),
    ).toBe(400);
  });
});
