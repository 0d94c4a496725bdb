import { silentLog } from '../../../test/support/log';
import { createAlertEvaluator } from './alert-evaluator';
import { type AlertEffect, type DeviceAlertState, emptyState, type StoredRule } from './alert-model';

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
const world = (rules: StoredRule[]) => {
  let stored: DeviceAlertState = emptyState('d1');
  const delivered: AlertEffect[] = [];
  const reads = { states: 0, writes: 0, lost: 0 };
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
  return { evaluator, delivered, reads, stored: () => stored };
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

  it('a device without a rule reads no state; a batch sent again reads none either', async () => {
    const w = world([threshold]);
    await w.evaluator.afterStored(crossing('d2'));
    expect(w.reads.states).toBe(0);
    await w.evaluator.afterStored(crossing('d1', T0));
    expect(w.reads.states).toBe(0);
  });
});
