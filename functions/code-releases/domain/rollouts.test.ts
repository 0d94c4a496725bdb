import type { Caller } from '../../../shared/auth/verify-token';
import type { Rollout } from '../../../shared/contracts/code-releases';
import type { FirmwareTarget } from '../../../shared/contracts/devices';
import { silentLog } from '../../../test/support/log';
import { rejectionOf } from '../../../test/support/rejection';
import type { CountChange, TargetState } from '../../_shared/code-releases/adoption';
import type { StoredTarget } from '../../_shared/code-releases/rollout-targets';
import type { AssignRefusal } from './ports';
import { createRollouts } from './rollouts';

const admin = { sub: 'admin-1', email: 'admin@example.com', groups: ['Administrators'] } as Caller;
const release = {
  id: 'sd1-1.4.2',
  productLine: 'sd1' as const,
  version: '1.4.2',
  versionKey: 'k',
  notes: '',
  status: 'published' as const,
  created: 1,
  createdBy: 'x',
  updated: 1,
};

interface FakeDevice {
  productLine: string;
  state?: string;
  firmwareVersion?: string;
  firmwareTarget?: FirmwareTarget;
}

/** In-memory stand-ins for the stores, with the conditions the real writes carry. */
const world = ({
  devices = {} as Record<string, FakeDevice>,
  results = [{ id: 'run-1', status: 'Pass' as const, finished: 10 }],
  failOn,
}: {
  devices?: Record<string, FakeDevice>;
  results?: { id: string; status: 'Pass' | 'Fail' | 'InProgress'; finished?: number }[];
  failOn?: string;
} = {}) => {
  const rollouts = new Map<string, Rollout>();
  const targets = new Map<string, StoredTarget>();
  const counts: { rolloutId: string; change: CountChange }[] = [];
  let ids = 0;
  const service = createRollouts({
    log: silentLog,
    releases: { get: async (id) => (id === release.id ? release : undefined) },
    testRuns: { results: async () => results },
    rollouts: {
      create: async (rollout) => {
        rollouts.set(rollout.id, rollout);
        return true;
      },
      remove: async (id) => rollouts.delete(id),
      get: async (id) => rollouts.get(id),
      page: async () => ({ items: [...rollouts.values()], lastKey: undefined }),
      halt: async (id, halt) => {
        const found = rollouts.get(id);
        if (found?.status !== 'active') return undefined;
        const halted = { ...found, status: 'halted' as const, ...halt };
        rollouts.set(id, halted);
        return halted;
      },
      setSkipped: async (id, skipped) => {
        rollouts.set(id, { ...rollouts.get(id)!, skipped });
      },
    },
    targets: {
      put: async (target) => {
        targets.set(`${target.rolloutId}/${target.deviceId}`, target);
      },
      page: async () => ({ items: [...targets.values()] }),
      supersede: async (rolloutId, deviceId) => {
        const found = targets.get(`${rolloutId}/${deviceId}`);
        if (!found || found.state === 'superseded') return undefined;
        targets.set(`${rolloutId}/${deviceId}`, { ...found, state: 'superseded' });
        return found.state as TargetState;
      },
      addCounts: async (rolloutId, change) => {
        counts.push({ rolloutId, change });
      },
    },
    fleet: {
      nameOf: async () => 'Northside',
      devicesOf: async () => Object.keys(devices),
      assign: async (id, productLine, target) => {
        if (id === failOn) throw new Error('throttled');
        const device = devices[id];
        if (!device) return { refused: 'unknown' as AssignRefusal };
        if (device.state === 'retired') return { refused: 'retired' as AssignRefusal };
        if (device.productLine !== productLine) return { refused: 'otherProductLine' as AssignRefusal };
        const before = { ...device };
        device.firmwareTarget = target;
        return {
          ...(before.firmwareVersion ? { firmwareVersion: before.firmwareVersion } : {}),
          ...(before.firmwareTarget ? { previousTarget: before.firmwareTarget } : {}),
        };
      },
    },
    people: { emailOf: async () => undefined },
    now: () => 1_000,
    newId: () => {
      ids += 1;
      return `rollout-${ids}`;
    },
  });
  return { service, rollouts, targets, counts, devices };
};

const toDevices = (ids: string[]) => ({ target: { kind: 'devices' as const, deviceIds: ids } });

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

  it('assigns only devices of the line, counts those already running it, and skips the rest by why', async () => {
    const w = world({
      devices: {
        d1: { productLine: 'sd1', firmwareVersion: '1.4.1' },
        d2: { productLine: 'sd1', firmwareVersion: '1.4.2' },
        d3: { productLine: 'al30' },
        d4: { productLine: 'sd1', state: 'retired' },
      },
    });
    const rollout = await w.service.create(admin, release.id, toDevices(['d1', 'd2', 'd3', 'd4', 'ghost', 'd1']));
    expect(rollout).toMatchObject({ status: 'active', createdBy: 'admin-1', createdByEmail: 'admin@example.com' });
    expect(w.rollouts.get(rollout.id)!.skipped).toEqual({ otherProductLine: 1, retired: 1, unknown: 1 });
    expect(w.counts).toEqual([{ rolloutId: rollout.id, change: { targeted: 2, adopted: 1 } }]);
    expect([...w.targets.values()].map((t) => [t.deviceId, t.state])).toEqual([
      ['d1', 'pending'],
      ['d2', 'updated'],
    ]);
  });

  it('takes a device over from an earlier rollout, which leaves its counts', async () => {
    const w = world({ devices: { d1: { productLine: 'sd1', firmwareVersion: '1.4.2' } } });
    const first = await w.service.create(admin, release.id, toDevices(['d1']));
    const second = await w.service.create(admin, release.id, {
      target: { kind: 'organization', organizationId: 'org-1' },
    });
    expect(second.targetLabel).toBe('Northside');
    expect(w.targets.get(`${first.id}/d1`)!.state).toBe('superseded');
    expect(w.counts).toContainEqual({ rolloutId: first.id, change: { superseded: 1, adopted: -1 } });
  });

  it('leaves nothing behind when no device can take it, and halts a rollout whose assignment failed', async () => {
    const none = world({ devices: { d3: { productLine: 'al30' } } });
    expect((await rejectionOf(none.service.create(admin, release.id, toDevices(['d3'])))).status).toBe(400);
    expect(none.rollouts.size).toBe(0);

    const failing = world({ devices: { d1: { productLine: 'sd1' }, d2: { productLine: 'sd1' } }, failOn: 'd2' });
    expect((await rejectionOf(failing.service.create(admin, release.id, toDevices(['d1', 'd2'])))).status).toBe(503);
    expect([...failing.rollouts.values()][0]).toMatchObject({ status: 'halted', haltedBy: 'admin-1' });
  });

  it('halts once', async () => {
    const w = world({ devices: { d1: { productLine: 'sd1' } } });
    const rollout = await w.service.create(admin, release.id, toDevices(['d1']));
    expect(await w.service.halt(admin, rollout.id, 'resets')).toMatchObject({ status: 'halted', haltReason: 'resets' });
    expect((await rejectionOf(w.service.halt(admin, rollout.id, 'again'))).status).toBe(409);
    expect((await rejectionOf(w.service.halt(admin, 'nope', 'x'))).status).toBe(404);
  });
});
