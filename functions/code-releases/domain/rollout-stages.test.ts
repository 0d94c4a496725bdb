import type { Caller } from '../../../shared/auth/verify-token';
import { reportKey } from '../../../shared/code-releases/rollout-rules';
import { silentLog } from '../../../test/support/log';
import { type FakeDevice, rolloutStagesOf, rolloutWorld } from '../../../test/support/rollout-world';
import type { StoredRelease } from './records';
import { createRollouts } from './rollouts';

const admin = { sub: 'admin-1', groups: ['Administrators'] } as Caller;
const HOUR = 3_600_000;
const release: StoredRelease = {
  id: 'sd1-1.4.2',
  productLine: 'sd1',
  version: '1.4.2',
  versionKey: 'k',
  notes: '',
  status: 'published',
  created: 1,
  createdBy: 'maker-1',
  updated: 1,
  artifact: { key: 'a', fileName: 'fw.bin', size: 10, sha256: 'ab'.repeat(32), uploaded: 1, uploadedBy: 'uploader-1' },
};

const setUp = (n: number, organizations: Record<string, string[]> = {}) => {
  const devices: Record<string, FakeDevice> = Object.fromEntries(
    Array.from({ length: n }, (_, i) => {
      const id = `d${String(i).padStart(3, '0')}`;
      return [id, { productLine: 'sd1', firmwareVersion: '1.4.1', organizations: organizations[id] ?? [] }];
    }),
  );
  const fake = rolloutWorld({ devices, releases: [release] });
  const service = createRollouts({
    log: silentLog,
    releases: fake.releaseStore,
    testRuns: { results: async () => [{ id: 'r', status: 'Pass', finished: 1 }] },
    rollouts: fake.rolloutStore,
    targets: fake.targetStore,
    fleet: fake.fleet,
    people: { emailOf: async () => undefined },
    work: fake.work,
    now: () => 0,
    newId: () => 'rollout-1',
  });
  const stages = rolloutStagesOf(fake);
  const inStage = (stage: number) =>
    [...fake.targets.values()]
      .filter((t) => t.stage === stage)
      .map((t) => t.deviceId)
      .sort();
  const report = (deviceId: string, state: 'succeeded' | 'failed' | 'downloading', at: number) =>
    fake.updates.move(fake.target('rollout-1', deviceId)!, { state, at, key: reportKey(state, at) });
  const offer = (deviceId: string, at: number) =>
    fake.updates.move(fake.target('rollout-1', deviceId)!, {
      state: 'offered',
      at,
      key: reportKey('offered', 0),
      offered: at,
      from: ['pending'],
    });
  return { ...fake, service, stages, inStage, report, offer };
};

const twoStages = {
  stages: [
    { name: 'Canary', percent: 10, soakSeconds: 3_600 },
    { percent: 100, soakSeconds: 3_600 },
  ],
};

describe('the stage job', () => {
  it('advances a stage only once it has soaked, with enough devices finished under the threshold, and once for two runs at once', async () => {
    const w = setUp(30);
    await w.service.create(admin, release.id, {
      target: { kind: 'devices', deviceIds: Object.keys(w.devices) },
      ...twoStages,
    });
    const canary = w.inStage(0);
    expect(canary).toHaveLength(3);
    for (const id of canary.slice(0, 2)) await w.report(id, 'succeeded', HOUR / 2);
    // Soaked, but two of three finished: it waits for evidence.
    expect((await w.stages.run(2 * HOUR)).advanced).toEqual([]);
    await w.report(canary[2]!, 'succeeded', HOUR);
    // Before its soak is over: it waits.
    expect((await w.stages.run(HOUR - 1)).advanced).toEqual([]);
    const [one, two] = await Promise.all([w.stages.run(2 * HOUR), w.stages.run(2 * HOUR)]);
    expect([...one.advanced, ...two.advanced]).toEqual([{ rolloutId: 'rollout-1', stage: 1 }]);
    expect(w.rollouts.get('rollout-1')).toMatchObject({ currentStage: 1, soakFrom: 2 * HOUR });
    // The last stage completes once it has soaked likewise: then the job leaves it.
    // The last stage holds 27: it is judged once N (5) of them finished.
    for (const id of w.inStage(1).slice(0, 4)) await w.report(id, 'succeeded', 2.5 * HOUR);
    expect((await w.stages.run(3 * HOUR)).completed).toEqual([]);
    await w.report(w.inStage(1)[4]!, 'succeeded', 2.5 * HOUR);
    expect((await w.stages.run(3 * HOUR - 1)).completed).toEqual([]);
    expect((await w.stages.run(3 * HOUR)).completed).toEqual(['rollout-1']);
    expect(w.rollouts.get('rollout-1')!.live).toBeUndefined();
    expect((await w.stages.run(4 * HOUR)).rollouts).toBe(0);
  });

  it('times out devices offered longer ago than the timeout, halts on the failures, and announces the halt to staff and organizations', async () => {
    const w = setUp(40, { d000: ['org-a'], d001: ['org-a', 'org-b'] });
    await w.service.create(admin, release.id, {
      target: { kind: 'devices', deviceIds: Object.keys(w.devices) },
      stages: [
        { percent: 10, deviceIds: ['d000', 'd001', 'd002', 'd003'], soakSeconds: 86_400 },
        { percent: 100, soakSeconds: 86_400 },
      ],
      abort: { failureThresholdPercent: 25, minFinished: 3, timeoutSeconds: 3_600 },
    });
    await w.offer('d000', 0);
    await w.offer('d001', 0);
    await w.offer('d002', 30 * 60_000);
    await w.report('d002', 'downloading', 31 * 60_000);
    await w.report('d003', 'succeeded', 10 * 60_000);
    // One hour after the first two offers: only those two have timed out (the third was offered later).
    const run = await w.stages.run(HOUR + 1);
    expect(run.timedOut).toBe(2);
    expect(w.target('rollout-1', 'd002')!.state).toBe('downloading');
    // Two timed out of three finished make a failure rate of at least 25 % 90 % sure (its Wilson bound is 32 %), so
    // the second timeout halted it there and then.
    expect(w.rollouts.get('rollout-1')).toMatchObject({ status: 'halted', haltedBy: 'automatic' });
    expect(run.announced).toEqual(['rollout-1']);
    const staff = w.published.find((e) => e.audience.kind === 'staff')!;
    expect(staff).toMatchObject({
      eventId: 'rollout-halted#rollout-1#1000#staff',
      automatic: true,
      stageName: 'Canary',
      actorId: 'admin-1',
      failureCount: 2,
      audience: { kind: 'staff', userIds: ['maker-1', 'uploader-1', 'admin-1'] },
    });
    expect(staff.failures.map((f) => [f.deviceId, f.state]).sort()).toEqual([
      ['d000', 'timed_out'],
      ['d001', 'timed_out'],
    ]);
    const byOrganization = Object.fromEntries(
      w.published
        .filter((e) => e.audience.kind === 'organization')
        .map((e) => [
          e.audience.kind === 'organization' ? e.audience.organizationId : '',
          e.failures.map((f) => f.deviceId),
        ]),
    );
    expect(byOrganization).toEqual({ 'org-a': ['d000', 'd001'], 'org-b': ['d001'] });
    // Announced once: the next run finds nothing to do and the rollout leaves the job's index.
    expect((await w.stages.run(HOUR + 2)).announced).toEqual([]);
    expect(w.published).toHaveLength(3);
    expect(w.rollouts.get('rollout-1')!.live).toBeUndefined();
  });

  it('never times out a device that finished, and a late success replaces its timeout', async () => {
    const w = setUp(10);
    await w.service.create(admin, release.id, {
      target: { kind: 'devices', deviceIds: Object.keys(w.devices) },
      stages: [{ percent: 100, soakSeconds: 0 }],
      abort: { failureThresholdPercent: 90, minFinished: 5, timeoutSeconds: 60 },
    });
    await w.offer('d000', 0);
    await w.offer('d001', 0);
    await w.report('d001', 'succeeded', 30_000);
    await w.stages.run(61_000);
    expect([w.target('rollout-1', 'd000')!.state, w.target('rollout-1', 'd001')!.state]).toEqual([
      'timed_out',
      'succeeded',
    ]);
    // The device finished in time after all; its report came late.
    await w.report('d000', 'succeeded', 50_000);
    expect(w.target('rollout-1', 'd000')!.state).toBe('succeeded');
    expect(w.rollouts.get('rollout-1')!.stageCounts!['0']).toMatchObject({ succeeded: 2, timed_out: 0, offered: 0 });
  });
});
