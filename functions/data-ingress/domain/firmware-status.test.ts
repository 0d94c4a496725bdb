import { rejectionOf } from '../../../test/support/rejection';
import { rolloutWorld } from '../../../test/support/rollout-world';
import type { StoredRollout, StoredTarget } from '../../_shared/code-releases/rollout-item';
import { createFirmwareStatus } from './firmware-status';

const NOW = Date.UTC(2025, 5, 1, 12, 30);

const setUp = ({ currentStage = 0 } = {}) => {
  const fake = rolloutWorld({ now: () => NOW });
  const rollout = {
    id: 'r1',
    status: 'active',
    currentStage,
    stages: [
      { name: 'Canary', percent: 10, soakSeconds: 0, devices: 10 },
      { name: 'Everyone', percent: 100, soakSeconds: 0, devices: 90 },
    ],
    stageCounts: {
      '0': {
        pending: 9,
        offered: 1,
        downloading: 0,
        installing: 0,
        succeeded: 0,
        failed: 0,
        rejected: 0,
        timed_out: 0,
        superseded: 0,
      },
      '1': {
        pending: 90,
        offered: 0,
        downloading: 0,
        installing: 0,
        succeeded: 0,
        failed: 0,
        rejected: 0,
        timed_out: 0,
        superseded: 0,
      },
    },
    counts: { targeted: 100, adopted: 0, superseded: 0 },
  } as unknown as StoredRollout;
  fake.rollouts.set('r1', rollout);
  const target = (deviceId: string, stage: number, state: StoredTarget['state'] = 'offered'): StoredTarget => ({
    rolloutId: 'r1',
    deviceId,
    releaseId: 'sd1-1.4.2',
    version: '1.4.2',
    stage,
    state,
    assigned: NOW - 3_600_000,
    ...(state === 'offered' ? { offered: NOW - 60_000 } : {}),
  });
  fake.targets.set('r1/dev-1', target('dev-1', 0));
  fake.targets.set('r1/dev-9', target('dev-9', 1, 'pending'));
  const versions: { version: string; at: number }[] = [];
  const status = createFirmwareStatus({
    records: { target: fake.targetStore.get, rollout: async (id) => fake.rollouts.get(id) },
    updates: fake.updates,
    adoption: fake.targetStore,
    devices: {
      reportFirmware: async (_deviceId, version, at) => {
        versions.push({ version, at });
        return true;
      },
    },
    now: () => NOW,
  });
  const report = (
    deviceId: string,
    state: 'downloading' | 'installing' | 'succeeded' | 'failed',
    at: number,
    extra = {},
  ) => status.report(deviceId, { rolloutId: 'r1', releaseId: 'sd1-1.4.2', state, at, ...extra });
  return { ...fake, report, versions };
};

describe('a device’s report of its firmware update', () => {
  it('ends in the same state whatever order the reports came in, and repeated ones change nothing', async () => {
    const orders = [
      ['downloading', 'installing', 'succeeded'],
      ['succeeded', 'installing', 'downloading'],
      ['installing', 'succeeded', 'downloading', 'succeeded'],
    ] as const;
    const at = { downloading: NOW - 50_000, installing: NOW - 40_000, succeeded: NOW - 30_000 };
    for (const order of orders) {
      const w = setUp();
      const answers = [];
      for (const state of order) answers.push(await w.report('dev-1', state, at[state]));
      expect(w.target('r1', 'dev-1')).toMatchObject({ state: 'succeeded', stateAt: at.succeeded, running: true });
      expect(w.rollouts.get('r1')!.stageCounts!['0']).toMatchObject({ offered: 0, succeeded: 1, pending: 9 });
      expect(answers.at(-1)!.state).toBe('succeeded');
      expect(w.rollouts.get('r1')!.counts.adopted).toBe(1);
      expect(w.versions).toContainEqual({ version: '1.4.2', at: at.succeeded });
    }
  });

  it('keeps why it failed, answers a repeated report as not recorded, and refuses a time from the future', async () => {
    const w = setUp();
    expect(await w.report('dev-1', 'failed', NOW - 1_000, { reason: 'checksum mismatch' })).toEqual({
      rolloutId: 'r1',
      state: 'failed',
      recorded: true,
    });
    expect(await w.report('dev-1', 'failed', NOW - 1_000, { reason: 'checksum mismatch' })).toEqual({
      rolloutId: 'r1',
      state: 'failed',
      recorded: false,
    });
    expect(w.target('r1', 'dev-1')).toMatchObject({ state: 'failed', reason: 'checksum mismatch' });
    expect((await rejectionOf(w.report('dev-1', 'installing', NOW + 10 * 60_000))).status).toBe(400);
  });

  it('refuses a rollout the device is not in, another release, a device taken over, and a stage not started', async () => {
    const w = setUp();
    const notIn = await rejectionOf(w.report('dev-2', 'downloading', NOW));
    expect([notIn.status, notIn.message]).toEqual([
      404,
      'Device dev-2 is not in rollout r1: report the rollout its firmware offer named',
    ]);
    const other = await rejectionOf(w.report('dev-1', 'downloading', NOW, { releaseId: 'sd1-9.9.9' }));
    expect([other.status, other.message]).toEqual([400, 'Rollout r1 rolls out sd1-1.4.2, not sd1-9.9.9']);
    const early = await rejectionOf(w.report('dev-9', 'downloading', NOW));
    expect([early.status, early.message]).toEqual([
      409,
      'Device dev-9 was not offered this update yet: its stage of the rollout has not started',
    ]);
    w.targets.set('r1/dev-1', { ...w.target('r1', 'dev-1')!, state: 'superseded', superseded: NOW });
    expect((await rejectionOf(w.report('dev-1', 'downloading', NOW))).status).toBe(409);
  });

  it('refuses a report to a rollout still preparing, even from its first stage (decision 114)', async () => {
    const w = setUp();
    w.rollouts.get('r1')!.status = 'preparing';
    w.targets.set('r1/dev-1', { ...w.target('r1', 'dev-1')!, state: 'pending' });
    const early = await rejectionOf(w.report('dev-1', 'downloading', NOW));
    expect([early.status, early.message]).toEqual([
      409,
      'Device dev-1 was not offered this update yet: its stage of the rollout has not started',
    ]);
    expect(w.rollouts.get('r1')!.stageCounts!['0']).toMatchObject({ pending: 9, downloading: 0 });
  });
});
