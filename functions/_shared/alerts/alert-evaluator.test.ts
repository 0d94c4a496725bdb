import { silentLog } from '../../../test/support/log';
import { createAlertEvaluator } from './alert-evaluator';
import {
  type AlertEffect,
  type DeviceAlertState,
  type DeviceRule,
  emptyState,
  PRESENCE_WATCH,
  type StoredRule,
} from './alert-model';

const T0 = Date.UTC(2026, 2, 12, 10, 0);

const threshold: StoredRule = {
  id: 'r1',
  name: 'PM2.5 high',
  target: { kind: 'device', id: 'd1' },
  condition: { kind: 'threshold', measurement: 'pm2_5', above: 35, forSeconds: 0 },
  recipients: [],
  enabled: true,
  createdBy: 'u1',
  created: T0,
  updated: T0,
};

/** A state table that answers reads with what it held when asked, and writes on the version only (as DynamoDB). */
const world = (rules: DeviceRule[]) => {
  let stored: DeviceAlertState = emptyState('d1');
  const delivered: AlertEffect[] = [];
  const reads = { states: 0, writes: 0, lost: 0 };
  const marked: number[] = [];
  let n = 0;
  const evaluator = createAlertEvaluator({
    rules: { rulesOf: async (deviceId) => (deviceId === 'd1' ? rules : []) },
    states: {
      get: async () => {
        reads.states += 1;
        const copy = structuredClone(stored);
        await new Promise((resolve) => setImmediate(resolve));
        return copy;
      },
      write: async (state, expected) => {
        reads.writes += 1;
        if (stored.version !== expected) {
          reads.lost += 1;
          return false;
        }
        stored = structuredClone(state);
        return true;
      },
      markAtRest: async (_deviceId, version) => {
        marked.push(version);
        return true;
      },
    },
    effects: {
      deliver: async (_deviceId, effects) => {
        delivered.push(...effects);
      },
    },
    now: () => T0 + 1_000,
    newId: () => `a${++n}`,
    log: silentLog,
  });
  return {
    evaluator,
    delivered,
    reads,
    marked,
    stored: () => stored,
    /** The state as the sweep left it (written on its own). */
    put: (state: DeviceAlertState) => {
      stored = structuredClone(state);
    },
  };
};

const crossing = (deviceId = 'd1', previousLastSeen?: number) => ({
  deviceId,
  readings: [
    { timestamp: T0 - 60_000, values: { pm2_5: 20 } },
    { timestamp: T0, values: { pm2_5: 50 } },
  ],
  receivedAt: T0 + 1_000,
  ...(previousLastSeen === undefined ? {} : { previousLastSeen }),
});

describe('the alerts evaluator after a stored batch', () => {
  it('two evaluations of the same crossing at once fire once: the loser reads again and finds it fired', async () => {
    const w = world([threshold]);
    await Promise.all([w.evaluator.afterStored(crossing()), w.evaluator.afterStored(crossing())]);
    expect(w.delivered.filter((e) => e.notice?.change === 'fired')).toHaveLength(1);
    expect(w.reads.lost).toBe(1);
    expect(w.stored().tracks.r1).toMatchObject({ phase: 'firing' });
  });

  it('a device whose record says it is at rest reads no state for a batch that crosses no limit', async () => {
    const higher: StoredRule = {
      ...threshold,
      id: 'r2',
      condition: { kind: 'threshold', measurement: 'pm2_5', above: 55, forSeconds: 0 },
    };
    const w = world([threshold, higher]);
    const calm = (t: number, atRest: boolean) => ({
      deviceId: 'd1',
      readings: [{ timestamp: t, values: { pm2_5: 20 } }],
      receivedAt: t + 1_000,
      previousLastSeen: t - 60_000,
      alertsAtRest: atRest,
    });
    // Not said at rest yet: the state is read, found at rest, and the record marked so at its version.
    await w.evaluator.afterStored(calm(T0 - 120_000, false));
    expect(w.reads.states).toBe(1);
    expect(w.marked).toEqual([0]);
    await w.evaluator.afterStored(calm(T0 - 60_000, true));
    expect(w.reads.states).toBe(1);
    // A reading past a limit reads the state and fires, at rest or not.
    await w.evaluator.afterStored({ ...calm(T0, true), readings: [{ timestamp: T0, values: { pm2_5: 40 } }] });
    expect(w.reads.states).toBe(2);
    expect(w.delivered.filter((e) => e.notice?.change === 'fired')).toHaveLength(1);
    expect(w.marked).toEqual([0]);
  });

  it('a state read at rest whose mark the record refuses is not marked again at that version', async () => {
    const tries: number[] = [];
    let version = 4;
    const evaluator = createAlertEvaluator({
      rules: { rulesOf: async () => [threshold] },
      states: {
        get: async () => ({ ...emptyState('d1'), version }),
        write: async () => true,
        markAtRest: async (_deviceId, at) => {
          tries.push(at);
          return false;
        },
      },
      effects: { deliver: async () => undefined },
      now: () => T0 + 1_000,
      newId: () => 'x',
      log: silentLog,
    });
    const calm = (t: number) => ({
      deviceId: 'd1',
      readings: [{ timestamp: t, values: { pm2_5: 20 } }],
      receivedAt: t + 1_000,
      previousLastSeen: t - 60_000,
    });
    await evaluator.afterStored(calm(T0 - 180_000));
    await evaluator.afterStored(calm(T0 - 120_000));
    expect(tries).toEqual([4]);
    version = 5;
    await evaluator.afterStored(calm(T0 - 60_000));
    expect(tries).toEqual([4, 5]);
  });

  it('a device without a rule reads no state; a batch sent again reads none either', async () => {
    const w = world([threshold]);
    await w.evaluator.afterStored(crossing('d2'));
    expect(w.reads.states).toBe(0);
    await w.evaluator.afterStored(crossing('d1', T0));
    expect(w.reads.states).toBe(0);
  });

  it('presence: a device at rest reads nothing; an offline one (never at rest) is brought online at its first reading', async () => {
    const w = world([PRESENCE_WATCH]);
    const batch = (t: number, atRest: boolean) => ({
      deviceId: 'd1',
      readings: [{ timestamp: t, values: { pm2_5: 20 } }],
      receivedAt: t + 1_000,
      previousLastSeen: t - 60_000,
      alertsAtRest: atRest,
    });
    // The first batch sets the track up, online, telling nobody.
    await w.evaluator.afterStored(batch(T0 - 30 * 60_000, false));
    expect(w.stored().tracks.presence).toMatchObject({ phase: 'ok' });
    expect(w.delivered).toEqual([]);
    const reads = w.reads.states;
    await w.evaluator.afterStored(batch(T0 - 29 * 60_000, true));
    expect(w.reads.states).toBe(reads);
    // The sweep found it offline: the record is busy, so the next batch reads the state and sends device.online.
    w.put({
      ...w.stored(),
      version: w.stored().version + 1,
      tracks: {
        presence: {
          kind: 'presence',
          phase: 'firing',
          alert: { id: 'p1', startedAt: T0, lastSeen: T0 - 29 * 60_000, reminders: 0 },
        },
      },
    });
    await w.evaluator.afterStored(batch(T0, false));
    expect(w.delivered.map((effect) => effect.presence)).toEqual([{ online: true, lastSeen: T0, at: T0 + 1_000 }]);
    expect(w.delivered[0]!.id).toBe('p1#online');
    // The same batch again changes nothing: one device.online.
    await w.evaluator.afterStored({ ...batch(T0, false), previousLastSeen: T0 });
    expect(w.delivered).toHaveLength(1);
  });
});
