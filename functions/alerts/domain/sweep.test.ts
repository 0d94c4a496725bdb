import { alertStatesInMemory } from '../../../test/support/alert-states-memory';
import { silentLog } from '../../../test/support/log';
import { createAlertEvaluator } from '../../_shared/alerts/alert-evaluator';
import type { AlertEffect, StoredRule } from '../../_shared/alerts/alert-model';
import { createSweep } from './sweep';

const T0 = Date.UTC(2026, 2, 12, 10, 0);
const MIN = 60_000;

const stateStore = alertStatesInMemory;

const silence: StoredRule = {
  id: 's1',
  name: 'Silent',
  target: { kind: 'organization', id: 'o1' },
  condition: { kind: 'silence' },
  recipients: [],
  enabled: true,
  createdBy: 'u1',
  created: T0,
  updated: T0,
};

describe('the sweep', () => {
  it('sets up a touched device, looks again at its deadline, and fires once when it stops reporting', async () => {
    const { store, items } = stateStore();
    const rules = [silence];
    const reports = new Map<string, number[]>([
      ['d1', [T0 - 3 * MIN, T0 - 2 * MIN, T0 - MIN, T0]],
      ['d2', [T0 - 30 * MIN, T0 - 20 * MIN, T0 - 10 * MIN, T0]],
    ]);
    const fired: string[] = [];
    const effects = {
      deliver: async (deviceId: string, done: readonly AlertEffect[]) => {
        for (const e of done) if (e.notice) fired.push(`${deviceId}:${e.notice.change}`);
        await store.clearOutbox(
          deviceId,
          done.map((e) => e.id),
        );
      },
    };
    let clock = T0;
    const sweep = createSweep({
      states: store,
      rules: { rulesOf: async () => rules, refresh: async () => undefined },
      devices: {
        facts: async (id) => ({ id, lastSeen: reports.get(id)!.at(-1), measurementNames: [], measurementUnits: {} }),
      },
      sources: {
        batchInterval: async (id) => {
          const times = reports.get(id)!;
          return times[1]! - times[0]!;
        },
        plan: async () => null,
      },
      effects,
      log: silentLog,
      clock: () => 0,
      newId: () => `a${fired.length}`,
    });
    const evaluator = createAlertEvaluator({
      rules: { rulesOf: async () => rules },
      states: store,
      effects,
      now: () => clock,
      newId: () => 'x',
      log: silentLog,
    });
    await store.touch('d1', T0);
    await store.touch('d2', T0);
    expect((await sweep.run(T0)).due).toBe(2);
    // Learned: d1 reports every minute (silence after 5 min), d2 every 10 (after 20).
    expect(items.get('d1')).toMatchObject({ interval: MIN, seen: T0, dueAt: T0 + 5 * MIN + 1 });
    expect(items.get('d2')).toMatchObject({ interval: 10 * MIN, dueAt: T0 + 20 * MIN + 1 });
    // d1 goes on reporting; its deadline moves at the sweep's next look, never before it is due.
    for (let m = 1; m <= 6; m += 1) {
      clock = T0 + m * MIN;
      reports.get('d1')!.push(clock);
      await evaluator.afterStored({
        deviceId: 'd1',
        readings: [{ timestamp: clock, values: {} }],
        receivedAt: clock,
        previousLastSeen: clock - MIN,
      });
      const result = await sweep.run(clock + 1_000);
      expect(result.due).toBe(m === 5 ? 1 : 0);
    }
    expect(items.get('d1')!.dueAt).toBe(T0 + 10 * MIN + 1);
    // d1 stopped after minute 6 and d2 after its first: each seen at the first run past its deadline, once.
    await sweep.run(T0 + 11 * MIN);
    expect(fired).toEqual([]);
    await sweep.run(T0 + 11 * MIN + 30_000);
    expect(fired).toEqual(['d1:fired']);
    await sweep.run(T0 + 20 * MIN + 30_000);
    await sweep.run(T0 + 21 * MIN);
    expect(fired).toEqual(['d1:fired', 'd2:fired']);
  });
});
