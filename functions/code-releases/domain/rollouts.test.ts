import { reportKey } from '../../../shared/code-releases/rollout-rules';
import { silentLog } from '../../../test/support/log';
import { rejectionOf } from '../../../test/support/rejection';
import {
  staffAdmin as admin,
  type FakeDevice,
  publishedRelease as releaseOf,
  rolloutWorld,
} from '../../../test/support/rollout-world';
import type { StoredRelease } from './records';
import { createRollouts } from './rollouts';
import { stageMembership } from './stage-membership';

const release = releaseOf('1.4.2', 'k142');
const previous = releaseOf('1.4.1', 'k141');

const world = ({
  devices = {} as Record<string, FakeDevice>,
  results = [{ id: 'run-1', status: 'Pass' as const, finished: 10 }],
  failOn,
  releases = [release, previous],
}: {
  devices?: Record<string, FakeDevice>;
  results?: { id: string; status: 'Pass' | 'Fail' | 'InProgress'; finished?: number }[];
  failOn?: string;
  releases?: StoredRelease[];
} = {}) => {
  const fake = rolloutWorld({ devices, releases, ...(failOn ? { failOn } : {}) });
  let ids = 0;
  const service = createRollouts({
    log: silentLog,
    releases: fake.releaseStore,
    testRuns: { results: async () => results },
    rollouts: fake.rolloutStore,
    targets: fake.targetStore,
    fleet: fake.fleet,
    people: { emailOf: async () => undefined },
    work: fake.work,
    now: () => 1_000,
    newId: () => {
      ids += 1;
      return `rollout-${ids}`;
    },
  });
  return { ...fake, service };
};

const toDevices = (ids: string[]) => ({ target: { kind: 'devices' as const, deviceIds: ids } });
const fleetOf = (n: number, firmwareVersion = '1.4.1') =>
  Object.fromEntries(
    Array.from({ length: n }, (_, i) => [`d${String(i).padStart(4, '0')}`, { productLine: 'sd1', firmwareVersion }]),
  );
const oneStage = { stages: [{ percent: 100, soakSeconds: 0 }] };

describe('rollouts', () => {
  it('is refused with the gate’s reason while the latest result is a failure', async () => {
    const w = world({
      results: [
        { id: 'a', status: 'Pass', finished: 1 },
        { id: 'b', status: 'Fail', finished: 2 },
      ],
    });
    const refused = await rejectionOf(w.service.create(admin, release.id, toDevices(['d1'])));
    expect(refused.status).toBe(409);
    expect(refused.message).toContain('failed after an earlier pass');
    expect(w.rollouts.size).toBe(0);
  });

  it('assigns only devices of the line, counts those already running it as succeeded, and skips the rest by why', async () => {
    const w = world({
      devices: {
        d1: { productLine: 'sd1', firmwareVersion: '1.4.1' },
        d2: { productLine: 'sd1', firmwareVersion: '1.4.2' },
        d3: { productLine: 'al30' },
        d4: { productLine: 'sd1', state: 'retired' },
      },
    });
    const rollout = await w.service.create(admin, release.id, {
      ...toDevices(['d1', 'd2', 'd3', 'd4', 'ghost', 'd1']),
      ...oneStage,
    });
    expect(rollout).toMatchObject({
      status: 'active',
      createdBy: 'admin-1',
      createdByEmail: 'admin@example.com',
      skipped: { otherProductLine: 1, retired: 1, unknown: 1 },
      counts: { targeted: 2, adopted: 1, superseded: 0 },
      stages: [{ devices: 2, counts: { pending: 1, succeeded: 1 } }],
      artifact: { sha256: release.artifact!.sha256, size: 10 },
    });
    expect([...w.targets.values()].map((t) => [t.deviceId, t.state, t.stage])).toEqual([
      ['d1', 'pending', 0],
      ['d2', 'succeeded', 0],
    ]);
    // The release is fixed from its first rollout on.
    expect(w.rolledOut).toEqual([release.id]);
  });

  it('makes the canary of two devices one of them, the one to update, whichever device the hash puts first', async () => {
    // The CI failure: a target of a, b (runs the release), a device of another line and an unknown id. Each of the four
    // is first in the hash order of some rollout id; every one of those rollouts must make the same stages.
    const target = ['a', 'b', 'other', 'ghost'];
    const w = world({
      devices: {
        a: { productLine: 'sd1', firmwareVersion: '1.4.1' },
        b: { productLine: 'sd1', firmwareVersion: '1.4.2' },
        other: { productLine: 'al30' },
      },
    });
    const firstIn = (rolloutId: string) =>
      [
        ...stageMembership(
          rolloutId,
          target,
          [1, 5, 25, 100].map((percent) => ({ percent })),
        ),
      ].find(([, stage]) => stage === 0)![0];
    const seen = new Set<string>();
    // The world names its rollouts rollout-1, rollout-2, …: go on until each device has been first once.
    for (let n = 1; seen.size < target.length; n += 1) {
      expect(n).toBeLessThan(200);
      seen.add(firstIn(`rollout-${n}`));
      const rollout = await w.service.create(admin, release.id, toDevices(target));
      expect(rollout.id).toBe(`rollout-${n}`);
      expect(rollout.stages.map((s) => s.devices)).toEqual([1, 0, 0, 1]);
      expect(rollout).toMatchObject({
        counts: { targeted: 2, adopted: 1 },
        skipped: { otherProductLine: 1, retired: 0, unknown: 1 },
      });
      expect(w.target(rollout.id, 'a')).toMatchObject({ stage: 0, state: 'pending' });
      expect(w.target(rollout.id, 'b')).toMatchObject({ stage: 3, state: 'succeeded' });
    }
  });

  it('splits the devices into the default stages, chosen once: canary 1 %, then 5 %, 25 %, 100 %, only the canary started', async () => {
    const w = world({ devices: fleetOf(200) });
    const rollout = await w.service.create(admin, release.id, toDevices(Object.keys(fleetOf(200))));
    expect(rollout.stages.map((s) => [s.name, s.percent, s.devices, s.soakSeconds])).toEqual([
      ['Canary', 1, 2, 86_400],
      ['5 %', 5, 8, 86_400],
      ['25 %', 25, 40, 86_400],
      ['Everyone', 100, 150, 86_400],
    ]);
    expect(rollout.stages.map((s) => s.started)).toEqual([1_000, undefined, undefined, undefined]);
    expect(rollout).toMatchObject({
      currentStage: 0,
      abort: { failureThresholdPercent: 10, minFinished: 5, timeoutSeconds: 21_600 },
    });
    // Each device's record and target name its stage: the offer reads it, and it never changes.
    const stageOf = (id: string) => w.target(rollout.id, id)!.stage;
    expect(Object.keys(fleetOf(200)).filter((id) => stageOf(id) === 0)).toHaveLength(2);
    for (const [id, device] of Object.entries(w.devices)) expect(device.firmwareTarget!.stage).toBe(stageOf(id));

    // The same devices in another rollout make other stages: the order is per rollout.
    const again = await w.service.create(admin, release.id, toDevices(Object.keys(fleetOf(200))));
    const canary = (id: string) =>
      Object.keys(fleetOf(200))
        .filter((device) => w.target(id, device)!.stage === 0)
        .sort();
    expect(canary(again.id)).not.toEqual(canary(rollout.id));
  });

  it('puts the devices a person names into the canary, and refuses a named device outside the target', async () => {
    const w = world({ devices: fleetOf(50) });
    const ids = Object.keys(fleetOf(50));
    const rollout = await w.service.create(admin, release.id, {
      ...toDevices(ids),
      stages: [
        { name: 'Lab', percent: 1, deviceIds: ['d0007', 'd0042'], soakSeconds: 3_600 },
        { percent: 100, soakSeconds: 0 },
      ],
      abort: { failureThresholdPercent: 20, minFinished: 2 },
    });
    expect(rollout.stages.map((s) => [s.name, s.devices])).toEqual([
      ['Lab', 2],
      ['100 %', 48],
    ]);
    expect([w.target(rollout.id, 'd0007')!.stage, w.target(rollout.id, 'd0042')!.stage]).toEqual([0, 0]);
    expect(rollout.abort).toEqual({ failureThresholdPercent: 20, minFinished: 2, timeoutSeconds: 21_600 });

    const outside = await rejectionOf(
      w.service.create(admin, release.id, {
        ...toDevices(['d0001']),
        stages: [
          { percent: 1, deviceIds: ['d0002'], soakSeconds: 0 },
          { percent: 100, soakSeconds: 0 },
        ],
      }),
    );
    expect([outside.status, outside.message]).toEqual([
      400,
      "Device d0002, named in stage Canary, is not in the rollout's target",
    ]);
  });

  it('takes a device over from an earlier rollout, which leaves its counts', async () => {
    const w = world({ devices: { d1: { productLine: 'sd1', firmwareVersion: '1.4.1' } } });
    const first = await w.service.create(admin, release.id, { ...toDevices(['d1']), ...oneStage });
    const second = await w.service.create(admin, release.id, {
      target: { kind: 'organization', organizationId: 'org-1' },
    });
    expect(second.targetLabel).toBe('Northside');
    expect(w.target(first.id, 'd1')).toMatchObject({ state: 'superseded', superseded: 1_000, supersededBy: second.id });
    expect(w.counts).toContainEqual({ rolloutId: first.id, change: { superseded: 1 } });
    expect(w.rollouts.get(first.id)!.stageCounts!['0']).toMatchObject({ pending: 0, superseded: 1 });
  });

  it('skips a device retired between the read and its write, leaving no target of it, and follows a version that changed', async () => {
    const w = world({
      devices: {
        d1: { productLine: 'sd1', firmwareVersion: '1.4.1' },
        d2: { productLine: 'sd1', firmwareVersion: '1.4.1' },
        d3: { productLine: 'sd1', firmwareVersion: '1.4.1' },
      },
    });
    // The targets are written from the versions read before the devices are (decision 098): what changes between
    // the two must still end right.
    const read = w.fleet.standing;
    w.fleet.standing = async (ids, productLine) => {
      const found = await read(ids, productLine);
      w.devices.d2!.state = 'retired';
      w.devices.d3!.firmwareVersion = release.version;
      return found;
    };
    const rollout = await w.service.create(admin, release.id, { ...toDevices(['d1', 'd2', 'd3']), ...oneStage });
    expect(rollout).toMatchObject({
      counts: { targeted: 2, adopted: 1 },
      skipped: { otherProductLine: 0, retired: 1, unknown: 0 },
    });
    expect(rollout.stages[0]).toMatchObject({ devices: 2, counts: { pending: 1, succeeded: 1 } });
    expect(w.target(rollout.id, 'd2')).toBeUndefined();
    expect(w.target(rollout.id, 'd3')).toMatchObject({ state: 'succeeded', running: true });
  });

  it('leaves nothing behind when no device can take it, and halts a rollout whose assignment failed', async () => {
    const none = world({ devices: { d3: { productLine: 'al30' } } });
    expect((await rejectionOf(none.service.create(admin, release.id, toDevices(['d3'])))).status).toBe(400);
    expect(none.rollouts.size).toBe(0);

    const failing = world({ devices: { d1: { productLine: 'sd1' }, d2: { productLine: 'sd1' } }, failOn: 'd2' });
    expect((await rejectionOf(failing.service.create(admin, release.id, toDevices(['d1', 'd2'])))).status).toBe(503);
    expect([...failing.rollouts.values()][0]).toMatchObject({ status: 'halted', haltedBy: 'admin-1' });
  });

  it('lists and counts, after a failed assignment, exactly the devices that point at the halted rollout', async () => {
    const fleet = fleetOf(120);
    const ids = Object.keys(fleet);
    // A device early in the order fails: the lanes stop taking more, so some devices are never pointed at it.
    const w = world({ devices: fleet, failOn: ids[30] });
    expect((await rejectionOf(w.service.create(admin, release.id, toDevices(ids)))).status).toBe(503);
    const [stored] = [...w.rollouts.values()];
    const rollout = await w.service.get(stored!.id);
    expect(rollout.status).toBe('halted');

    const pointed = ids.filter((id) => w.devices[id]!.firmwareTarget?.rolloutId === rollout.id);
    const listed = ids.filter((id) => w.target(rollout.id, id) !== undefined);
    expect(listed).toEqual(pointed);
    expect(pointed.length).toBeGreaterThan(0);
    expect(pointed.length).toBeLessThan(ids.length - 1);
    const staged = rollout.stages.reduce((sum, stage) => sum + stage.devices, 0);
    expect({ staged, targeted: rollout.counts.targeted }).toEqual({ staged: pointed.length, targeted: pointed.length });
  });

  it('halts once', async () => {
    const w = world({ devices: { d1: { productLine: 'sd1' } } });
    const rollout = await w.service.create(admin, release.id, toDevices(['d1']));
    expect(await w.service.halt(admin, rollout.id, 'resets')).toMatchObject({ status: 'halted', haltReason: 'resets' });
    expect((await rejectionOf(w.service.halt(admin, rollout.id, 'again'))).status).toBe(409);
    expect((await rejectionOf(w.service.halt(admin, 'nope', 'x'))).status).toBe(404);
  });

  it('advances by hand once from the stage the person saw, never past the last, and not while halted', async () => {
    const w = world({ devices: fleetOf(100) });
    const rollout = await w.service.create(admin, release.id, toDevices(Object.keys(fleetOf(100))));
    const [one, two] = await Promise.allSettled([
      w.service.advance(admin, rollout.id, 0),
      w.service.advance(admin, rollout.id, 0),
    ]);
    expect([one.status, two.status].sort()).toEqual(['fulfilled', 'rejected']);
    const after = await w.service.get(rollout.id);
    expect(after.currentStage).toBe(1);
    expect(after.stages[1]!.started).toBe(1_000);
    await w.service.advance(admin, rollout.id);
    await w.service.advance(admin, rollout.id);
    const last = await rejectionOf(w.service.advance(admin, rollout.id));
    expect([last.status, last.message]).toEqual([
      409,
      'This rollout is at its last stage: there is no stage to advance to',
    ]);
    await w.service.halt(admin, rollout.id, 'stop');
    expect((await rejectionOf(w.service.advance(admin, rollout.id))).message).toBe(
      'This rollout is halted: resume it before advancing it',
    );
  });

  it('resumes a halted rollout, setting aside the failures seen, and refuses to resume one that is not halted', async () => {
    const w = world({ devices: fleetOf(10) });
    const rollout = await w.service.create(admin, release.id, {
      ...toDevices(Object.keys(fleetOf(10))),
      ...oneStage,
    });
    for (const id of ['d0000', 'd0001', 'd0002', 'd0003']) {
      await w.updates.move(w.target(rollout.id, id)!, { state: 'failed', at: 900, key: reportKey('failed', 900) });
    }
    // Four failures, but N (5) have not finished: not judged yet.
    expect((await w.service.get(rollout.id)).status).toBe('active');
    await w.updates.move(w.target(rollout.id, 'd0004')!, { state: 'failed', at: 900, key: reportKey('failed', 900) });
    // The fifth failure met the criteria (5 finished, all failed): the rollout halted itself.
    const halted = await w.service.get(rollout.id);
    expect(halted).toMatchObject({ status: 'halted', haltedBy: 'automatic' });
    expect(halted.haltReason).toBe(
      'Halted automatically: in stage 100 %, 5 of 5 finished devices failed or timed out ' +
        '(100 %: its failure rate is at least the threshold, 10 %, with 90 % confidence)',
    );
    expect((await rejectionOf(w.service.advance(admin, rollout.id))).status).toBe(409);
    const resumed = await w.service.resume(admin, rollout.id);
    expect(resumed).toMatchObject({ status: 'active', resumed: 1_000, resumedBy: 'admin-1' });
    expect(w.rollouts.get(rollout.id)!.baseline).toEqual({ stage: 0, finished: 5, failures: 5 });
    // One more failure alone does not halt it again: what came before the resume is set aside.
    await w.updates.move(w.target(rollout.id, 'd0005')!, { state: 'failed', at: 950, key: reportKey('failed', 950) });
    expect((await w.service.get(rollout.id)).status).toBe('active');
    expect((await rejectionOf(w.service.resume(admin, rollout.id))).status).toBe(409);
  });

  it('rolls back: the previous release offered, as a rollout of its own, only to the devices that installed this one', async () => {
    const w = world({ devices: fleetOf(6) });
    const rollout = await w.service.create(admin, release.id, {
      ...toDevices(Object.keys(fleetOf(6))),
      ...oneStage,
    });
    const installed = ['d0001', 'd0004'];
    for (const id of installed) {
      await w.updates.move(w.target(rollout.id, id)!, {
        state: 'succeeded',
        at: 900,
        key: reportKey('succeeded', 900),
      });
    }
    await w.updates.move(w.target(rollout.id, 'd0002')!, {
      state: 'installing',
      at: 900,
      key: reportKey('installing', 900),
    });
    const rolledBack = await w.service.rollback(admin, rollout.id, 'Battery drain');
    expect(rolledBack).toMatchObject({
      status: 'rolled-back',
      haltReason: 'Rolled back: Battery drain',
      rollback: { releaseId: previous.id, version: '1.4.1', devices: 2, by: 'admin-1', reason: 'Battery drain' },
    });
    const back = w.rollouts.get(rolledBack.rollback!.rolloutId)!;
    expect(back).toMatchObject({ releaseId: previous.id, rollbackOf: rollout.id, status: 'active', currentStage: 0 });
    expect(back.target).toEqual({ kind: 'devices', deviceIds: installed });
    expect(
      Object.entries(w.devices)
        .filter(([, d]) => d.firmwareTarget?.rolloutId === back.id)
        .map(([id]) => id),
    ).toEqual(installed);
    // The original keeps what became of its devices, marked taken over.
    expect(w.target(rollout.id, 'd0001')).toMatchObject({ state: 'succeeded', supersededBy: back.id });
    expect((await rejectionOf(w.service.rollback(admin, rollout.id, 'again'))).status).toBe(409);
  });

  it('refuses a rollback with nothing installed or no earlier release', async () => {
    const w = world({ devices: fleetOf(2), releases: [release] });
    const rollout = await w.service.create(admin, release.id, toDevices(Object.keys(fleetOf(2))));
    const noPrevious = await rejectionOf(w.service.rollback(admin, rollout.id, 'x'));
    expect([noPrevious.status, noPrevious.message]).toEqual([
      409,
      'There is no published sd1 release below 1.4.2 to roll back to',
    ]);
    const v = world({ devices: fleetOf(2) });
    const other = await v.service.create(admin, release.id, toDevices(Object.keys(fleetOf(2))));
    expect((await rejectionOf(v.service.rollback(admin, other.id, 'x'))).message).toBe(
      'No device installed this release, so there is nothing to roll back: halt the rollout instead',
    );
    expect(v.rollouts.get(other.id)!.status).toBe('active');
  });
});
