import type { Caller } from '../../../shared/auth/verify-token';
import type { CalibrationBody } from '../../../shared/contracts/sensor-data-quality';
import { silentLog } from '../../../test/support/log';
import { memoryQualityStore } from '../../../test/support/quality-store';
import { BadRequest, Forbidden, NotFound } from '../../_shared/errors';
import type { DataAccess, DataDevice } from '../../_shared/sensor-data/data-access';
import { createDataQuality } from './data-quality';

const NOW = Date.UTC(2026, 4, 20, 10);
const DAY = 86_400_000;
const caller = (sub: string, groups: string[] = []): Caller => ({
  sub,
  username: sub,
  groups,
  tokenUse: 'access',
  issuedAt: 0,
  authTime: 0,
});
const OWNER = caller('owner');
const MANAGER = caller('manager');
const STRANGER = caller('stranger');
const STAFF = caller('staff', ['Employees']);

const device = (id: string, names = ['pm2_5', 'humidity']): DataDevice => ({
  id,
  name: id,
  productLine: 'sd1',
  dataVisibility: 'private',
  state: 'active',
  measurementNames: names,
});

const setup = () => {
  const memory = memoryQualityStore();
  const devices = new Map([
    ['d1', device('d1')],
    ['d2', device('d2', ['pm2_5'])],
  ]);
  const woken: string[] = [];
  let ids = 0;
  const campaign = { id: 'c1', name: 'Survey', startsAt: NOW - 10 * DAY, endsAt: NOW + 10 * DAY };
  const quality = createDataQuality({
    store: memory.store,
    dataAccess: {
      readDevice: async (id) => devices.get(id),
      resolve: async (who, id) => {
        if (!devices.has(id)) throw new NotFound(`Device not found: ${id}`);
        if (who?.sub === 'stranger') throw new Forbidden('You do not have access to this device');
        return { device: devices.get(id) } as DataAccess;
      },
    },
    access: {
      forCaller: (who) =>
        ({
          check: async (kind: string, _id: string, options: { need?: string } = {}) => ({
            allowed:
              (kind === 'device' && who?.sub === 'owner') ||
              (kind === 'campaign' && (who?.sub === 'manager' || (options.need !== 'manage' && who?.sub === 'member'))),
          }),
        }) as never,
    },
    campaigns: { get: async (id) => (id === 'c1' ? campaign : undefined) },
    links: {
      campaignsHolding: async (id) => (id === 'd1' || id === 'd2' ? ['c1'] : []),
      devicesOf: async (id) => (id === 'c1' ? ['d1', 'd2'] : []),
    },
    work: {
      send: async (messages) => {
        woken.push(...messages.map((m) => (m.kind === 'export' ? m.exportId : m.deviceId)));
      },
    },
    log: silentLog,
    now: () => NOW,
    newId: (prefix) => `${prefix}_${String(++ids).padStart(12, '0')}`,
  });
  return { ...memory, quality, woken, campaign };
};

const linear = (over: Partial<CalibrationBody> = {}): CalibrationBody => ({
  measurement: 'pm2_5',
  formula: { kind: 'linear', a: 0.5, b: 1 },
  effectiveFrom: NOW - 2 * DAY,
  note: 'Collocation',
  ...over,
});

const rejection = async (work: Promise<unknown>) =>
  work.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('calibrations', () => {
  it('adds versions per device and measurement, records who and when, and wakes the reprocessing', async () => {
    const { quality, profiles, woken } = setup();
    const first = await quality.addCalibration(OWNER, 'd1', linear());
    const second = await quality.addCalibration(OWNER, 'd1', linear({ formula: { kind: 'linear', a: 1, b: 0 } }));
    const other = await quality.addCalibration(OWNER, 'd1', linear({ measurement: 'humidity' }));
    expect([first.version, second.version, other.version]).toEqual([1, 2, 1]);
    expect(first).toMatchObject({ createdBy: 'owner', created: NOW, note: 'Collocation' });
    const profile = profiles.get('d1')!;
    expect(profile.version).toBe(3);
    expect(profile.pending?.map((p) => [p.v, p.from, p.to, p.kind])).toEqual([
      [1, NOW - 2 * DAY, NOW, 'calibration'],
      [2, NOW - 2 * DAY, NOW, 'calibration'],
      [3, NOW - 2 * DAY, NOW, 'calibration'],
    ]);
    expect(woken).toEqual(['d1', 'd1', 'd1']);
    expect((await quality.listCalibrations(OWNER, 'd1')).items.map((c) => [c.measurement, c.version])).toEqual([
      ['humidity', 1],
      ['pm2_5', 2],
      ['pm2_5', 1],
    ]);
  });

  it('tries again when another change of the device came first, and writes the record with the version it got', async () => {
    const { quality, conflict, calibrations } = setup();
    await quality.addCalibration(OWNER, 'd1', linear());
    conflict(2);
    const added = await quality.addCalibration(OWNER, 'd1', linear());
    expect(added.version).toBe(2);
    expect(calibrations.get(`d1#${added.id}`)?.version).toBe(2);
  });

  it('refuses a measurement or formula input the device has not sent, naming the field', async () => {
    const { quality } = setup();
    const error = (await rejection(
      quality.addCalibration(
        OWNER,
        'd2',
        linear({
          formula: {
            kind: 'linear-multi',
            intercept: 5.75,
            terms: [
              { measurement: 'pm2_5', coefficient: 0.52 },
              { measurement: 'humidity', coefficient: -0.086 },
            ],
          },
        }),
      ),
    )) as BadRequest;
    expect(error).toBeInstanceOf(BadRequest);
    expect(error.issues).toEqual([
      { path: 'body.formula.terms.1.measurement', message: 'humidity is not a measurement this device has sent' },
    ]);
    expect(
      ((await rejection(quality.addCalibration(OWNER, 'd1', linear({ measurement: 'pm3' })))) as BadRequest).issues,
    ).toEqual([{ path: 'body.measurement', message: 'pm3 is not a measurement this device has sent' }]);
  });

  it('lets a campaign manager calibrate within the campaign’s window only, and ends the version with it', async () => {
    const { quality, campaign } = setup();
    const added = await quality.addCalibration(MANAGER, 'd1', linear());
    expect(added.effectiveTo).toBe(campaign.endsAt);
    expect(
      await rejection(quality.addCalibration(MANAGER, 'd1', linear({ effectiveFrom: NOW - 20 * DAY }))),
    ).toBeInstanceOf(Forbidden);
    expect(await rejection(quality.addCalibration(STRANGER, 'd1', linear()))).toBeInstanceOf(Forbidden);
    expect((await quality.addCalibration(STAFF, 'd1', linear({ effectiveFrom: 0 }))).version).toBe(2);
  });

  it('calibrates every device of a campaign that has sent the formula’s inputs, and says which it left out', async () => {
    const { quality } = setup();
    const body = linear({
      formula: { kind: 'linear-multi', intercept: 1, terms: [{ measurement: 'humidity', coefficient: 1 }] },
    });
    const { items, skipped } = await quality.addCampaignCalibration(MANAGER, 'c1', body);
    expect(items.map((c) => [c.deviceId, c.campaignId])).toEqual([['d1', 'c1']]);
    expect(skipped).toEqual([{ deviceId: 'd2', reason: 'has not sent humidity' }]);
    expect(await rejection(quality.addCampaignCalibration(OWNER, 'c1', body))).toBeInstanceOf(Forbidden);
    expect((await quality.listCampaignCalibrations(caller('member'), 'c1')).items).toHaveLength(1);
  });
});

describe('ending a calibration (decision 103)', () => {
  const end = (over: Partial<CalibrationBody> = {}) =>
    linear({ formula: { kind: 'none' }, effectiveFrom: NOW - DAY, note: 'Sensor replaced', ...over });

  it('saves an end as the next version, in force from its start, and starts the reprocessing of its range', async () => {
    const { quality, profiles, woken } = setup();
    await quality.addCalibration(OWNER, 'd1', linear());
    const ended = await quality.addCalibration(OWNER, 'd1', end());
    expect(ended).toMatchObject({ version: 2, formula: { kind: 'none' }, createdBy: 'owner', note: 'Sensor replaced' });
    expect(profiles.get('d1')!.pending?.at(-1)).toMatchObject({ v: 2, from: NOW - DAY, to: NOW, kind: 'calibration' });
    expect(woken).toEqual(['d1', 'd1']);
    expect((await quality.listCalibrations(OWNER, 'd1')).items.map((c) => [c.version, c.formula.kind])).toEqual([
      [2, 'none'],
      [1, 'linear'],
    ]);
  });

  it('refuses an end with nothing in force to end, naming effectiveFrom: before the start, none at all, ended already', async () => {
    const { quality } = setup();
    const issuesOf = async (body: CalibrationBody) =>
      ((await rejection(quality.addCalibration(OWNER, 'd1', body))) as BadRequest).issues?.map((i) => i.path);
    expect(await issuesOf(end())).toEqual(['body.effectiveFrom']);
    await quality.addCalibration(OWNER, 'd1', linear());
    const before = (await rejection(
      quality.addCalibration(OWNER, 'd1', end({ effectiveFrom: NOW - 3 * DAY })),
    )) as BadRequest;
    expect(before.message).toBe(
      `effectiveFrom (${new Date(NOW - 3 * DAY).toISOString()}) is before the calibration of pm2_5 starts (${new Date(NOW - 2 * DAY).toISOString()}): there is nothing to end then`,
    );
    await quality.addCalibration(OWNER, 'd1', end());
    expect(await issuesOf(end({ effectiveFrom: NOW - DAY / 2 }))).toEqual(['body.effectiveFrom']);
    expect(await issuesOf(end({ measurement: 'pm3' }))).toEqual(['body.measurement']);
  });

  it("ends a campaign's calibration on the devices that have one then, and leaves out the others", async () => {
    const { quality, store, calibrations } = setup();
    await quality.addCalibration(OWNER, 'd1', linear());
    const reads: string[] = [];
    const read = store.profile;
    store.profile = (deviceId) => {
      reads.push(deviceId);
      return read(deviceId);
    };
    const { items, skipped } = await quality.addCampaignCalibration(MANAGER, 'c1', end());
    expect(items.map((c) => [c.deviceId, c.version, c.formula.kind])).toEqual([['d1', 2, 'none']]);
    expect(skipped).toEqual([{ deviceId: 'd2', reason: 'has no calibration of pm2_5 in force then' }]);
    // One read of each profile serves the check and the change, and the device left out gets no record.
    expect(reads).toEqual(['d1', 'd2']);
    expect([...calibrations.values()].map((r) => r.deviceId)).toEqual(['d1', 'd1']);
    const none = (await rejection(quality.addCampaignCalibration(MANAGER, 'c1', end()))) as BadRequest;
    expect(none.issues?.map((i) => i.path)).toEqual(['body.effectiveFrom']);
  });
});

describe('exclusions', () => {
  it('adds one, lists it active, removes it (reversible), and keeps the record with who removed it', async () => {
    const { quality, profiles } = setup();
    const range = { from: NOW - DAY, to: NOW - DAY + 60_000, reason: 'Sensor serviced' };
    const added = await quality.addExclusion(OWNER, 'd1', range);
    expect(added).toMatchObject({ status: 'active', createdBy: 'owner' });
    expect(profiles.get('d1')!.exc).toEqual([{ id: added.id, from: range.from, to: range.to }]);
    await quality.removeExclusion(STAFF, 'd1', added.id);
    expect(profiles.get('d1')!.exc).toEqual([]);
    expect(profiles.get('d1')!.pending?.map((p) => p.kind)).toEqual(['exclusion', 'exclusion']);
    const [listed] = (await quality.listExclusions(OWNER, 'd1')).items;
    expect(listed).toMatchObject({ id: added.id, status: 'removed', removedBy: 'staff', removedAt: NOW });
    // Removing it again changes nothing; an unknown one is a 404, for those who may curate.
    await quality.removeExclusion(OWNER, 'd1', added.id);
    expect(profiles.get('d1')!.version).toBe(2);
    expect(await rejection(quality.removeExclusion(OWNER, 'd1', 'exc_999999999999'))).toBeInstanceOf(NotFound);
    expect(await rejection(quality.removeExclusion(STRANGER, 'd1', 'exc_999999999999'))).toBeInstanceOf(Forbidden);
  });

  it('excludes a campaign’s devices at once under one id, within the window, and removes them together', async () => {
    const { quality, profiles } = setup();
    const body = { from: NOW - DAY, to: NOW - DAY + 1, reason: 'Calibration day' };
    const { id, items } = await quality.addCampaignExclusion(MANAGER, 'c1', body);
    expect(items.map((e) => [e.deviceId, e.id])).toEqual([
      ['d1', id],
      ['d2', id],
    ]);
    expect(
      await rejection(quality.addCampaignExclusion(MANAGER, 'c1', { ...body, from: NOW - 30 * DAY })),
    ).toBeInstanceOf(BadRequest);
    await quality.removeCampaignExclusion(MANAGER, 'c1', id);
    expect([profiles.get('d1')!.exc, profiles.get('d2')!.exc]).toEqual([[], []]);
    expect((await quality.listCampaignExclusions(MANAGER, 'c1')).items.map((e) => e.status)).toEqual([
      'removed',
      'removed',
    ]);
  });

  it('answers a device’s reprocessing: running with its pending changes, idle once none is left', async () => {
    const { quality, jobs, profiles } = setup();
    expect(await quality.reprocessing(OWNER, 'd1')).toEqual({
      deviceId: 'd1',
      status: 'idle',
      progress: 100,
      pending: 0,
    });
    await quality.addExclusion(OWNER, 'd1', { from: NOW - DAY, to: NOW - DAY + 1, reason: 'x' });
    expect(await quality.reprocessing(OWNER, 'd1')).toMatchObject({ status: 'running', progress: 0, pending: 1 });
    jobs.set('d1', {
      deviceId: 'd1',
      status: 'running',
      through: 1,
      ranges: [{ from: 0, to: 99 }],
      cursor: 50,
      done: 50,
      total: 100,
      started: NOW,
      updated: NOW,
    });
    expect(await quality.reprocessing(OWNER, 'd1')).toMatchObject({
      progress: 50,
      doneMs: 50,
      totalMs: 100,
      from: 0,
      to: 99,
    });
    profiles.get('d1')!.pending = [];
    jobs.get('d1')!.status = 'done';
    expect((await quality.reprocessing(OWNER, 'd1')).status).toBe('idle');
  });
});
