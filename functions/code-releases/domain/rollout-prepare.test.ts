import { RELEASE_MESSAGES } from '../../../shared/code-releases/messages';
import { ROLLOUT_INLINE_DEVICES } from '../../../shared/contracts/code-releases';
import { silentLog } from '../../../test/support/log';
import { rejectionOf } from '../../../test/support/rejection';
import {
  staffAdmin as admin,
  type FakeDevice,
  publishedRelease as releaseOf,
  rolloutStagesOf,
  rolloutWorld,
} from '../../../test/support/rollout-world';
import { MAX_RECEIVES } from '../../_shared/queue/max-receives';
import { createRolloutPrepare, PREPARE_STEP_DEVICES } from './rollout-prepare';
import { createRollouts } from './rollouts';

const older = releaseOf('1.4.1', 'k141');
const release = releaseOf('1.4.2', 'k142');
/** More devices than a request assigns: the rollout is prepared by the queue job, in three steps. */
const FLEET = ROLLOUT_INLINE_DEVICES + 2 * PREPARE_STEP_DEVICES - 1;
const idOf = (i: number) => `d${String(i).padStart(5, '0')}`;
const fleetOf = (n: number): Record<string, FakeDevice> =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [idOf(i), { productLine: 'sd1', firmwareVersion: '1.4.0' }]));

const world = (devices = fleetOf(FLEET)) => {
  let clock = 1_000;
  const fake = rolloutWorld({ devices, releases: [older, release], now: () => clock });
  let ids = 0;
  const service = createRollouts({
    log: silentLog,
    releases: fake.releaseStore,
    testRuns: { results: async () => [{ id: 'run-1', status: 'Pass' as const, finished: 10 }] },
    rollouts: fake.rolloutStore,
    targets: fake.targetStore,
    fleet: fake.fleet,
    people: { emailOf: async () => undefined },
    work: fake.work,
    now: () => clock,
    newId: () => {
      ids += 1;
      return `rollout-${ids}`;
    },
  });
  const prepare = createRolloutPrepare({
    log: silentLog,
    rollouts: fake.rolloutStore,
    targets: fake.targetStore,
    fleet: fake.fleet,
    work: fake.work,
    now: () => clock,
  });
  const stages = rolloutStagesOf(fake);
  /** Works the queue's messages as the worker does, until none is left. */
  const drain = async () => {
    const runs = [];
    while (fake.queued.length > 0) runs.push(await prepare.run(fake.queued.shift()!.rolloutId));
    return runs;
  };
  return { ...fake, service, prepare, stages, drain, setClock: (at: number) => (clock = at) };
};

const everyone = { target: { kind: 'devices' as const, deviceIds: Object.keys(fleetOf(FLEET)) } };

describe('a rollout too large for its request (decision 114)', () => {
  it('is answered preparing with nothing pointed at it, then assigned step by step and made active', async () => {
    const w = world();
    const started = await w.service.create(admin, release.id, everyone);
    expect(started).toMatchObject({ status: 'preparing', preparing: { assigned: 0, of: FLEET } });
    expect(started.stages[0]!.started).toBeUndefined();
    // Its stages are chosen, and sized, at the request.
    expect(started.stages.map((stage) => stage.devices)).toEqual([20, 80, 400, 1_499]);
    expect(Object.values(w.devices).filter((d) => d.firmwareTarget)).toHaveLength(0);
    expect(w.targets.size).toBe(FLEET);
    expect(w.queued).toEqual([{ kind: 'prepare', rolloutId: started.id }]);

    w.setClock(5_000);
    const first = await w.prepare.run(w.queued.shift()!.rolloutId);
    expect(first).toEqual({ rolloutId: started.id, assigned: PREPARE_STEP_DEVICES, refused: 0, next: 'step' });
    const between = await w.service.get(started.id);
    expect(between).toMatchObject({ status: 'preparing', preparing: { assigned: PREPARE_STEP_DEVICES, of: FLEET } });
    expect(between.counts.targeted).toBe(PREPARE_STEP_DEVICES);
    const runs = await w.drain();
    expect(runs.map((run) => ('next' in run ? run.next : run.done))).toEqual(['step', 'step', 'active']);
    const rollout = await w.service.get(started.id);
    expect(rollout.status).toBe('active');
    expect(rollout.preparing).toBeUndefined();
    expect(rollout.counts).toEqual({ targeted: FLEET, adopted: 0, superseded: 0 });
    // The stages hold what their shares say (1, 5, 25, 100 % of 1,999), chosen at the request and kept.
    expect(rollout.stages.map((stage) => stage.devices)).toEqual([20, 80, 400, 1_499]);
    expect(rollout.stages.map((stage) => stage.counts.pending)).toEqual([20, 80, 400, 1_499]);
    expect(rollout.stages[0]!.started).toBe(5_000);
    for (const device of Object.values(w.devices)) expect(device.firmwareHistory).toEqual([started.id]);
  });

  it('refuses a person’s advance and roll back while it prepares, and offers nothing to resume', async () => {
    const w = world();
    const { id } = await w.service.create(admin, release.id, everyone);
    expect((await rejectionOf(w.service.advance(admin, id))).message).toBe(
      RELEASE_MESSAGES.rolloutNotActive('preparing'),
    );
    expect((await rejectionOf(w.service.rollback(admin, id, 'back'))).message).toBe(RELEASE_MESSAGES.rolloutPreparing);
    expect((await rejectionOf(w.service.resume(admin, id))).message).toBe(
      RELEASE_MESSAGES.rolloutNotHalted('preparing'),
    );
  });

  it('halted while it prepares, takes no further step; resumed, it goes on from its last step and turns active', async () => {
    const w = world();
    const { id } = await w.service.create(admin, release.id, everyone);
    await w.prepare.run(w.queued.shift()!.rolloutId);
    w.setClock(7_000);
    const halted = await w.service.halt(admin, id, 'wrong fleet');
    expect(halted).toMatchObject({
      status: 'halted',
      halted: 7_000,
      haltReason: 'wrong fleet',
      preparing: { assigned: PREPARE_STEP_DEVICES, of: FLEET },
    });
    expect(halted.stages[0]!.started).toBeUndefined();
    expect((await rejectionOf(w.service.halt(admin, id, 'again'))).message).toBe(RELEASE_MESSAGES.rolloutHalted);
    // The step queued before the halt finds it halted and does nothing.
    const before = structuredClone(w.rollouts.get(id));
    expect(await w.drain()).toEqual([{ rolloutId: id, done: 'not preparing' }]);
    expect(w.rollouts.get(id)).toEqual(before);
    expect(Object.values(w.devices).filter((d) => d.firmwareTarget?.rolloutId === id)).toHaveLength(
      PREPARE_STEP_DEVICES,
    );
    // The stage job tells the release's staff, and no organization: none of their devices was offered it.
    expect((await w.stages.run(8_000)).announced).toEqual([id]);
    expect(w.published.map((notice) => notice.audience.kind)).toEqual(['staff']);
    expect(w.rollouts.get(id)!.live).toBeUndefined();
    // Nothing was offered, so nothing can be rolled back.
    expect((await rejectionOf(w.service.rollback(admin, id, 'back'))).message).toBe(
      RELEASE_MESSAGES.rolloutNothingInstalled,
    );

    w.setClock(9_000);
    const resumed = await w.service.resume(admin, id);
    expect(resumed).toMatchObject({ status: 'preparing', preparing: { assigned: PREPARE_STEP_DEVICES, of: FLEET } });
    expect(w.queued).toEqual([{ kind: 'prepare', rolloutId: id }]);
    const runs = await w.drain();
    expect(runs.map((run) => ('next' in run ? run.next : run.done))).toEqual(['step', 'step', 'active']);
    const rollout = await w.service.get(id);
    expect(rollout.status).toBe('active');
    expect(rollout.counts).toEqual({ targeted: FLEET, adopted: 0, superseded: 0 });
    expect(rollout.stages[0]!.started).toBe(9_000);
    for (const device of Object.values(w.devices)) expect(device.firmwareHistory).toEqual([id]);
  });

  it('halted in the middle of a step, counts that step once when resumed', async () => {
    const w = world();
    const { id } = await w.service.create(admin, release.id, everyone);
    await w.prepare.run(w.queued.shift()!.rolloutId);
    // The second step points its devices at the rollout; the halt lands before it is recorded.
    const commit = w.rolloutStore.commitStep;
    w.rolloutStore.commitStep = async (rolloutId, step) => {
      await w.service.halt(admin, rolloutId, 'wrong fleet');
      return commit(rolloutId, step);
    };
    expect(await w.prepare.run(w.queued.shift()!.rolloutId)).toEqual({ rolloutId: id, done: 'recorded already' });
    w.rolloutStore.commitStep = commit;
    expect((await w.service.get(id)).preparing).toEqual({ assigned: PREPARE_STEP_DEVICES, of: FLEET });
    await w.service.resume(admin, id);
    await w.drain();
    const rollout = await w.service.get(id);
    expect(rollout.status).toBe('active');
    expect(rollout.counts.targeted).toBe(FLEET);
    expect(rollout.stages.reduce((sum, stage) => sum + stage.counts.pending, 0)).toBe(FLEET);
  });

  it('stays halted when its resumed step cannot be queued, and says the change was undone', async () => {
    const w = world();
    const { id } = await w.service.create(admin, release.id, everyone);
    await w.service.halt(admin, id, 'wrong fleet');
    w.queued.length = 0;
    const send = w.work.send;
    w.work.send = async () => {
      throw new Error('queue down');
    };
    expect((await rejectionOf(w.service.resume(admin, id))).message).toMatch(/undone/);
    expect((await w.service.get(id)).status).toBe('halted');
    w.work.send = send;
    expect((await w.service.resume(admin, id)).status).toBe('preparing');
    await w.drain();
    expect((await w.service.get(id)).status).toBe('active');
  });

  it('halts itself when the queue’s last try of a step fails too, for its staff to hear; resumed, it goes on', async () => {
    const w = world();
    const { id } = await w.service.create(admin, release.id, everyone);
    w.queued.length = 0;
    w.failing.add(idOf(10));
    for (let tries = 1; tries < MAX_RECEIVES.rollouts; tries += 1) {
      await expect(w.prepare.run(id, tries)).rejects.toThrow('throttled');
      expect(w.rollouts.get(id)!.status).toBe('preparing');
    }
    w.setClock(6_000);
    await expect(w.prepare.run(id, MAX_RECEIVES.rollouts)).rejects.toThrow('throttled');
    expect(await w.service.get(id)).toMatchObject({
      status: 'halted',
      halted: 6_000,
      haltedBy: 'automatic',
      haltReason: RELEASE_MESSAGES.rolloutAssignmentStalled(MAX_RECEIVES.rollouts),
      preparing: { assigned: 0, of: FLEET },
    });
    expect((await w.stages.run(7_000)).announced).toEqual([id]);
    expect(w.published).toMatchObject([{ audience: { kind: 'staff' }, automatic: true }]);
    w.failing.clear();
    await w.service.resume(admin, id);
    await w.drain();
    expect(await w.service.get(id)).toMatchObject({
      status: 'active',
      counts: { targeted: FLEET, adopted: 0, superseded: 0 },
    });
  });

  it('works a failed step again without a device counted, written or taken twice', async () => {
    // Half the fleet runs an earlier rollout, so the steps take devices from it.
    const w = world();
    const half = { target: { kind: 'devices' as const, deviceIds: Object.keys(w.devices).slice(0, 900) } };
    const first = await w.service.create(admin, older.id, { ...half, stages: [{ percent: 100, soakSeconds: 0 }] });
    expect(first.counts.targeted).toBe(900);
    const { id } = await w.service.create(admin, release.id, everyone);
    // The second step fails part-way (a throttled write), after some of its devices were pointed at the rollout.
    w.failing.add(idOf(PREPARE_STEP_DEVICES + 300));
    await w.prepare.run(w.queued.shift()!.rolloutId);
    await expect(w.prepare.run(id)).rejects.toThrow('throttled');
    expect(w.devices[idOf(PREPARE_STEP_DEVICES + 10)]!.firmwareTarget?.rolloutId).toBe(id);
    // The queue gives the step again once the write goes through; then the rest.
    w.failing.clear();
    w.queued.push({ kind: 'prepare', rolloutId: id });
    await w.drain();
    const rollout = await w.service.get(id);
    expect(rollout.status).toBe('active');
    expect(rollout.counts.targeted).toBe(FLEET);
    expect(rollout.stages.reduce((sum, stage) => sum + stage.counts.pending, 0)).toBe(FLEET);
    for (const device of Object.values(w.devices).slice(0, 900)) expect(device.firmwareHistory).toEqual([first.id, id]);
    // The earlier rollout counts each device taken from it once.
    const taken = await w.service.get(first.id);
    expect(taken.counts.superseded).toBe(900);
    expect(taken.stages[0]!.counts).toMatchObject({ pending: 0, superseded: 900 });
  });

  it('adds a step’s counts once when it is worked again after they were added elsewhere', async () => {
    const w = world();
    const half = { target: { kind: 'devices' as const, deviceIds: Object.keys(w.devices).slice(0, 700) } };
    const first = await w.service.create(admin, older.id, { ...half, stages: [{ percent: 100, soakSeconds: 0 }] });
    const { id } = await w.service.create(admin, release.id, everyone);
    // The step's write of its own counters fails once: the earlier rollout's counters were added already.
    const commitStep = w.rolloutStore.commitStep;
    let failures = 1;
    w.rolloutStore.commitStep = async (...args) => {
      if (failures-- > 0) throw new Error('throttled');
      return commitStep(...args);
    };
    await expect(w.prepare.run(w.queued.shift()!.rolloutId)).rejects.toThrow('throttled');
    expect((await w.service.get(first.id)).counts.superseded).toBe(PREPARE_STEP_DEVICES);
    w.queued.push({ kind: 'prepare', rolloutId: id });
    await w.drain();
    expect((await w.service.get(first.id)).counts.superseded).toBe(700);
    expect((await w.service.get(id)).counts.targeted).toBe(FLEET);
  });

  it('counts a device retired since the request as skipped and removes its target', async () => {
    const w = world();
    const { id } = await w.service.create(admin, release.id, everyone);
    w.devices[idOf(1_234)]!.state = 'retired';
    await w.drain();
    const rollout = await w.service.get(id);
    expect(rollout.counts.targeted).toBe(FLEET - 1);
    expect(rollout.skipped).toEqual({ otherProductLine: 0, retired: 1, unknown: 0 });
    expect(rollout.stages.reduce((sum, stage) => sum + stage.devices, 0)).toBe(FLEET - 1);
    expect(w.target(id, idOf(1_234))).toBeUndefined();
    expect(w.rollouts.get(id)!.refusedPending).toBeUndefined();
  });

  it('leaves a device that a rollout started meanwhile took to that rollout, and counts it superseded', async () => {
    const w = world();
    const { id } = await w.service.create(admin, release.id, everyone);
    // Before the job's first step, a newer rollout (a fix for two devices) starts and takes them.
    w.setClock(2_000);
    const fix = await w.service.create(admin, older.id, {
      target: { kind: 'devices', deviceIds: [idOf(3), idOf(1_500)] },
      stages: [{ percent: 100, soakSeconds: 0 }],
    });
    w.setClock(5_000);
    await w.drain();
    for (const deviceId of [idOf(3), idOf(1_500)]) {
      expect(w.devices[deviceId]!.firmwareTarget?.rolloutId).toBe(fix.id);
      expect(w.devices[deviceId]!.firmwareHistory).toEqual([fix.id]);
      expect(w.target(id, deviceId)).toMatchObject({ state: 'superseded', supersededBy: fix.id, superseded: 2_000 });
    }
    const rollout = await w.service.get(id);
    expect(rollout.counts).toEqual({ targeted: FLEET, adopted: 0, superseded: 2 });
    expect(rollout.stages.reduce((sum, stage) => sum + stage.counts.superseded, 0)).toBe(2);
    expect(rollout.stages.reduce((sum, stage) => sum + stage.counts.pending, 0)).toBe(FLEET - 2);
    // The fix keeps its devices, untouched.
    expect((await w.service.get(fix.id)).counts).toEqual({ targeted: 2, adopted: 0, superseded: 0 });
  });

  it('halts, for its staff to hear, a rollout that could assign none of its devices', async () => {
    const w = world();
    const { id } = await w.service.create(admin, release.id, everyone);
    for (const device of Object.values(w.devices)) device.state = 'retired';
    w.setClock(5_000);
    await w.drain();
    const rollout = await w.service.get(id);
    expect(rollout).toMatchObject({
      status: 'halted',
      halted: 5_000,
      haltedBy: 'automatic',
      haltReason: RELEASE_MESSAGES.rolloutNothingAssigned,
      counts: { targeted: 0, adopted: 0, superseded: 0 },
      skipped: { otherProductLine: 0, retired: FLEET, unknown: 0 },
    });
    expect(w.targets.size).toBe(0);
  });

  it('does nothing for a rollout no longer preparing', async () => {
    const w = world();
    const { id } = await w.service.create(admin, release.id, everyone);
    await w.drain();
    const before = structuredClone(w.rollouts.get(id));
    expect(await w.prepare.run(id)).toEqual({ rolloutId: id, done: 'not preparing' });
    expect(w.rollouts.get(id)).toEqual(before);
    expect(w.queued).toEqual([]);
  });

  it('takes no step at all when the queue cannot be told, and leaves nothing behind', async () => {
    const w = world();
    w.work.send = async () => {
      throw new Error('queue down');
    };
    expect((await rejectionOf(w.service.create(admin, release.id, everyone))).message).toMatch(/undone/);
    expect(w.rollouts.size).toBe(0);
    expect(w.targets.size).toBe(0);
  });
});
