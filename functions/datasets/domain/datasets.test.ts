import type { Caller } from '../../../shared/auth/verify-token';
import type { CreateDatasetBody } from '../../../shared/contracts/datasets';
import { DATASET_MESSAGES } from '../../../shared/datasets/dataset-messages';
import { DAY_MS, DEFAULT_TIERS, type TierId, tierRow } from '../../../shared/sensor-data/tiers';
import { callerOf } from '../../../test/support/callers';
import { silentLog } from '../../../test/support/log';
import type { DatasetRecord } from '../../_shared/datasets/dataset-access';
import { Forbidden } from '../../_shared/errors';
import type { DataAccess } from '../../_shared/sensor-data/data-access';
import type { BuildMessage } from './build-message';
import { createDatasets, type DatasetsDeps } from './datasets';

const NOW = Date.UTC(2026, 5, 10, 12, 30);

interface FakeDevice {
  id: string;
  tier: TierId;
  line?: 'sd1' | 'al30';
  visibility?: 'public' | 'private';
  /** Who reaches it, and how: a member by a relation, or through campaigns with these windows. */
  members?: Record<string, { startsAt: number; endsAt: number }[] | null>;
}

const setup = (devices: FakeDevice[], { campaignDevices = [] as string[], failSend = false } = {}) => {
  const records = new Map<string, DatasetRecord>();
  const sent: BuildMessage[] = [];
  let ids = 0;
  let versions = 0;
  let builds = 0;
  const resolve = async (caller: Caller | undefined, deviceId: string): Promise<DataAccess> => {
    const device = devices.find((d) => d.id === deviceId)!;
    const line = device.line ?? 'sd1';
    const staff = caller?.groups.includes('Administrators') ?? false;
    const member = caller ? device.members?.[caller.sub] : undefined;
    const reach = staff || member !== undefined;
    if (!reach && device.visibility !== 'public') throw new Forbidden();
    return {
      device: {
        id: device.id,
        name: `Device ${device.id}`,
        productLine: line,
        dataVisibility: device.visibility ?? 'private',
        state: 'active',
      },
      tier: tierRow(DEFAULT_TIERS[line], device.tier),
      lineTiers: DEFAULT_TIERS[line],
      route: staff ? 'staff' : member === null ? 'relation' : member ? 'campaign' : 'public',
      permissioned: reach,
      windows: staff ? null : (member ?? null),
    };
  };
  const deps: DatasetsDeps = {
    log: silentLog,
    store: {
      create: async (record) => {
        if (records.has(record.id)) return false;
        records.set(record.id, structuredClone(record));
        return true;
      },
      get: async (id) => records.get(id),
      nextVersion: async () => 1 + ++versions,
      countBuild: async () => ++builds <= 20,
      setback: async (id, status, error) => {
        Object.assign(records.get(id)!, { status, error });
      },
      listByCreator: async (creatorId) => ({
        items: [...records.values()].filter((r) => r.creatorId === creatorId),
        lastKey: undefined,
      }),
      listByCampaign: async (campaignId) => ({
        items: [...records.values()].filter((r) => r.campaignId === campaignId),
        lastKey: undefined,
      }),
      listPublic: async () => ({
        items: [...records.values()].filter((r) => r.listing === 'public'),
        lastKey: undefined,
      }),
      listVersions: async (conceptId) => [...records.values()].filter((r) => r.conceptId === conceptId),
    },
    dataAccess: { resolve },
    campaigns: {
      get: async (id) =>
        id === 'camp-1'
          ? { id, name: 'Lake survey', startsAt: NOW - 20 * DAY_MS, endsAt: NOW + 20 * DAY_MS }
          : undefined,
      devices: async () => campaignDevices,
      mayManage: async (caller, id) => caller.sub === 'manager' || (caller.groups.includes('Administrators') && !!id),
    },
    nameOf: async (sub) => (sub === 'alice' ? 'Alice Example' : undefined),
    work: {
      send: async (messages) => {
        if (failSend) throw new Error('queue down');
        sent.push(...messages);
      },
    },
    place: { bucket: 'datasets-local-files', webOrigin: 'https://app.example' },
    now: () => NOW,
    newId: () => `ds_${String(++ids).padStart(12, '0')}`,
  };
  return { datasets: createDatasets(deps), records, sent };
};

const body = (overrides: Partial<CreateDatasetBody> = {}): CreateDatasetBody => ({
  title: 'Rooftop PM',
  description: '',
  license: 'CC-BY-4.0',
  parquet: false,
  visibility: 'permissioned',
  source: { kind: 'devices', deviceIds: ['d1'] },
  ...overrides,
});

const reject = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: { status: number; message: string }) => ({ status: error.status, message: error.message }),
  );

const alice = callerOf('alice');

describe('building a dataset', () => {
  it("cuts each device's rows to its tier's download window at the time of the request, and queues the build", async () => {
    const { datasets, sent, records } = setup([
      { id: 'd1', tier: 'tier1', members: { alice: null } },
      { id: 'd2', tier: 'tier2', members: { alice: null } },
      { id: 'd3', tier: 'tier0', members: { alice: null } },
    ]);
    const dataset = await datasets.create(
      alice,
      body({ source: { kind: 'devices', deviceIds: ['d1', 'd2', 'd3'] }, from: NOW - 100 * DAY_MS }),
    );
    expect(dataset).toMatchObject({
      status: 'queued',
      version: 1,
      conceptId: dataset.id,
      from: NOW - 100 * DAY_MS,
      to: NOW,
      asOf: NOW,
      creators: [{ name: 'Alice Example' }],
      files: [],
    });
    // Tier 1 downloads 30 days, Tier 2 365 (the whole range), Tier 0 none: no rows, but listed with why.
    expect(dataset.devices.map((d) => [d.deviceId, d.tier.name, d.windowDays, d.parts])).toEqual([
      ['d1', 'Tier 1', 30, [{ from: NOW - 30 * DAY_MS, to: NOW }]],
      ['d2', 'Tier 2', 365, [{ from: NOW - 100 * DAY_MS, to: NOW }]],
      ['d3', 'Tier 0', null, []],
    ]);
    expect(dataset.citation).toBe(
      `Alice Example (2026). Rooftop PM (Version 1) [Data set]. Device Data Platform. https://app.example/dashboard/datasets/${dataset.id}`,
    );
    expect(sent).toEqual([{ kind: 'build', datasetId: dataset.id }]);
    expect(records.get(dataset.id)).toMatchObject({ step: 0, attempts: 0, creatorId: 'alice' });
  });

  it('takes the public download window for a public dataset, and holds only public devices', async () => {
    const { datasets } = setup([
      { id: 'd1', tier: 'tier1', line: 'al30', visibility: 'public', members: { alice: null } },
      { id: 'd2', tier: 'tier2', members: { alice: null } },
    ]);
    const open = await datasets.create(alice, body({ visibility: 'public' }));
    // AL Tier 1 downloads 7 days, public and permissioned alike.
    expect(open.devices[0]).toMatchObject({ windowDays: 7, parts: [{ from: NOW - 7 * DAY_MS, to: NOW }] });
    const refused = await reject(
      datasets.create(alice, body({ visibility: 'public', source: { kind: 'devices', deviceIds: ['d1', 'd2'] } })),
    );
    expect(refused).toEqual({ status: 400, message: DATASET_MESSAGES.deviceNotPublic('Device d2', 'd2') });
  });

  it('needs download rights by permission over every device: a public device of a stranger is refused', async () => {
    const { datasets } = setup([
      { id: 'd1', tier: 'tier1', members: { alice: null } },
      { id: 'd2', tier: 'tier1', visibility: 'public' },
    ]);
    const refused = await reject(
      datasets.create(alice, body({ visibility: 'public', source: { kind: 'devices', deviceIds: ['d2'] } })),
    );
    expect(refused).toEqual({ status: 403, message: DATASET_MESSAGES.deviceNotPermitted('Device d2', 'd2') });
    // Staff may build of any device.
    const staff = await datasets.create(
      callerOf('boss', ['Administrators']),
      body({ source: { kind: 'devices', deviceIds: ['d1', 'd2'] } }),
    );
    expect(staff.devices).toHaveLength(2);
  });

  it("keeps a campaign member's rows inside the campaign windows, and refuses a build with no rows at all", async () => {
    const window = { startsAt: NOW - 10 * DAY_MS, endsAt: NOW - 5 * DAY_MS };
    const { datasets } = setup([
      { id: 'd1', tier: 'tier1', members: { alice: [window] } },
      { id: 'd2', tier: 'tier0', members: { alice: null } },
    ]);
    const built = await datasets.create(alice, body());
    expect(built.devices[0]!.parts).toEqual([{ from: window.startsAt, to: window.endsAt }]);
    const none = await reject(datasets.create(alice, body({ source: { kind: 'devices', deviceIds: ['d2'] } })));
    expect(none).toEqual({ status: 403, message: DATASET_MESSAGES.nothingToBuild('permissioned') });
  });

  it("makes a campaign's dataset of its devices and window, for its managers only", async () => {
    const { datasets } = setup(
      [
        { id: 'd1', tier: 'tier2', members: { manager: [{ startsAt: NOW - 20 * DAY_MS, endsAt: NOW + 20 * DAY_MS }] } },
        { id: 'd2', tier: 'tier2', members: { manager: [{ startsAt: NOW - 20 * DAY_MS, endsAt: NOW + 20 * DAY_MS }] } },
      ],
      { campaignDevices: ['d2', 'd1'] },
    );
    const refused = await reject(datasets.create(alice, body({ source: { kind: 'campaign', campaignId: 'camp-1' } })));
    expect(refused).toEqual({ status: 403, message: DATASET_MESSAGES.campaignManagerOnly });
    const built = await datasets.create(
      callerOf('manager'),
      body({ source: { kind: 'campaign', campaignId: 'camp-1' } }),
    );
    expect(built.source).toEqual({ kind: 'campaign', campaignId: 'camp-1', campaignName: 'Lake survey' });
    // From the campaign's start to now (it has not ended): the future is not frozen.
    expect([built.from, built.to]).toEqual([NOW - 20 * DAY_MS, NOW]);
    expect(built.devices.map((d) => d.deviceId)).toEqual(['d1', 'd2']);
  });

  it('refuses a new version of a dataset not frozen, and lets its creator make one that links to it', async () => {
    const { datasets, records } = setup([{ id: 'd1', tier: 'tier1', members: { alice: null, bob: null } }]);
    const first = await datasets.create(alice, body());
    const early = await reject(datasets.create(alice, body({ previousVersionId: first.id })));
    expect(early).toEqual({ status: 409, message: DATASET_MESSAGES.versionOnlyFrozen(first.id, 'queued') });
    records.get(first.id)!.status = 'frozen';
    // Bob may read it (he is a member of its device) but did not make it.
    const bob = await reject(datasets.create(callerOf('bob'), body({ previousVersionId: first.id })));
    expect(bob).toEqual({ status: 403, message: DATASET_MESSAGES.versionNotAllowed });
    const second = await datasets.create(alice, body({ previousVersionId: first.id, title: 'Rooftop PM, fixed' }));
    expect(second).toMatchObject({ version: 2, conceptId: first.id, previousVersionId: first.id });
    expect((await datasets.listVersions(alice, second.id)).items.map((d) => d.version)).toEqual([1, 2]);
  });

  it('marks a dataset failed and answers 503 when its build cannot be queued', async () => {
    const { datasets, records } = setup([{ id: 'd1', tier: 'tier1', members: { alice: null } }], { failSend: true });
    const refused = await reject(datasets.create(alice, body()));
    expect(refused).toEqual({ status: 503, message: DATASET_MESSAGES.notQueued });
    expect([...records.values()][0]).toMatchObject({ status: 'failed', error: DATASET_MESSAGES.notQueued });
  });
});

describe('reading a dataset', () => {
  it('shows a permissioned dataset to its creator, staff and members of every device; anyone else gets 404', async () => {
    const { datasets } = setup([
      { id: 'd1', tier: 'tier1', members: { alice: null, bob: null, carol: null } },
      { id: 'd2', tier: 'tier1', members: { alice: null, bob: null } },
    ]);
    const made = await datasets.create(alice, body({ source: { kind: 'devices', deviceIds: ['d1', 'd2'] } }));
    await expect(datasets.get(callerOf('bob'), made.id)).resolves.toMatchObject({ id: made.id });
    await expect(datasets.get(callerOf('boss', ['Employees']), made.id)).resolves.toMatchObject({ id: made.id });
    // Carol reaches only one of its devices; a guest none.
    expect(await reject(datasets.get(callerOf('carol'), made.id))).toEqual({
      status: 404,
      message: DATASET_MESSAGES.notFound(made.id),
    });
    expect((await reject(datasets.get(undefined, made.id)))?.status).toBe(404);
    expect((await datasets.listMine(callerOf('carol'), { limit: 10 })).items).toEqual([]);
  });

  it('shows a public dataset to guests, and a file list only once frozen', async () => {
    const { datasets, records } = setup([{ id: 'd1', tier: 'tier1', visibility: 'public', members: { alice: null } }]);
    const made = await datasets.create(alice, body({ visibility: 'public' }));
    expect((await datasets.get(undefined, made.id)).files).toEqual([]);
    Object.assign(records.get(made.id)!, {
      status: 'frozen',
      frozenAt: NOW + 1000,
      files: [
        { name: 'd1.csv', format: 'csv', deviceId: 'd1', rows: 3, bytes: 30, sha256: 'ab', key: 'k', versionId: 'v' },
      ],
    });
    const frozen = await datasets.get(undefined, made.id);
    // The object version is the API's own business: clients ask for the key, and get the version recorded.
    expect(frozen.files).toEqual([
      {
        name: 'd1.csv',
        format: 'csv',
        deviceId: 'd1',
        rows: 3,
        bytes: 30,
        sha256: 'ab',
        key: 'k',
        bucket: 'datasets-local-files',
      },
    ]);
  });
});
