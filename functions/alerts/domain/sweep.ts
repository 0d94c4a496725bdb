import type { Effects } from '../../_shared/alerts/alert-effects';
import type { DeviceAlertState, DeviceRule } from '../../_shared/alerts/alert-model';
import type { DeviceFacts } from '../../_shared/alerts/device-reader';
import { needsLastSeen, needsLearning, needsPlan, type SweepFacts, sweepDevice } from '../../_shared/alerts/evaluation';
import { isAtRest } from '../../_shared/alerts/rest-marks';
import { DUE_SHARDS } from '../../_shared/alerts/state-table';
import { inLanes } from '../../_shared/in-lanes';
import type { Log } from '../../_shared/logger';
import type { StateStore, SweepSources } from './ports';

export interface SweepDeps {
  states: Pick<StateStore, 'get' | 'write' | 'due'>;
  /**
   * A device's rules, from the per-instance cache made fresh at each run's start (`refresh`): the sweep is what
   * closes the tracks of rules that went, so it must not see one a change before the run took away.
   */
  rules: { rulesOf: (deviceId: string) => Promise<DeviceRule[]>; refresh: () => Promise<void> };
  devices: { facts: (deviceId: string) => Promise<DeviceFacts | undefined> };
  sources: SweepSources;
  effects: Pick<Effects, 'deliver'>;
  log: Log;
  /** The wall clock, for the run's time budget (the run's "now" is the schedule's). */
  clock: () => number;
  newId: () => string;
  /** How long one run may work before it leaves the rest due for the next. @default 45 s (the schedule is a minute) */
  budgetMs?: number;
  /** Devices looked at side by side. @default 8 */
  lanes?: number;
}

export interface SweepResult {
  due: number;
  changed: number;
  fired: number;
  resolved: number;
  reminded: number;
  /** device.offline and device.online sent (the presence of devices a webhook watches). */
  presence: number;
  failed: number;
  /** Devices left due for the next run when the budget ran out. */
  left: number;
}

const PAGE = 200;
const WRITE_TRIES = 5;

/**
 * The scheduled sweep (docs/alerts.md, "The sweep"): every minute (10 s locally) it reads the due index, never the
 * devices: each device whose next-expected time has passed. For each it first finishes an outbox left unfinished,
 * then reads the device's rules and last reading (and, when due, its interval and plan), and writes what changed on
 * the version it read. A device that fails is logged and stays due; two sweeps at once change a device once.
 */
export const createSweep = ({
  states,
  rules: deviceRules,
  devices,
  sources,
  effects,
  log,
  clock,
  newId,
  budgetMs = 45_000,
  lanes = 8,
}: SweepDeps) => {
  const look = async (deviceId: string, now: number, result: SweepResult) => {
    let state: DeviceAlertState = await states.get(deviceId, true);
    if (state.dueAt === undefined || state.dueAt > now) return;
    const leftover = Object.values(state.outbox);
    if (leftover.length) {
      await effects.deliver(deviceId, leftover);
      state = { ...state, outbox: {} };
    }
    const rules = await deviceRules.rulesOf(deviceId);
    const facts: SweepFacts = {};
    if (needsLastSeen(rules)) {
      const device = await devices.facts(deviceId);
      if (device?.lastSeen !== undefined) facts.lastSeen = device.lastSeen;
    }
    if (needsLearning(state, rules, now)) {
      const intervalMs = await sources.batchInterval(deviceId, now);
      facts.learned = intervalMs === undefined ? {} : { intervalMs };
    }
    if (needsPlan(state, rules, now)) facts.plan = await sources.plan(deviceId);
    for (let attempt = 0; attempt < WRITE_TRIES; attempt += 1) {
      const change = sweepDevice(state, rules, facts, { now, newId });
      if (!change) return;
      if (await states.write(change.state, state.version, isAtRest(state))) {
        result.changed += 1;
        for (const effect of change.effects) {
          if (effect.notice?.change === 'fired') result.fired += 1;
          if (effect.notice?.change === 'resolved') result.resolved += 1;
          if (effect.notice?.change === 'reminder') result.reminded += 1;
          if (effect.presence) result.presence += 1;
        }
        await effects.deliver(deviceId, change.effects);
        return;
      }
      state = { ...(await states.get(deviceId, true)), outbox: {} };
      if (state.dueAt === undefined || state.dueAt > now) return;
    }
    throw new Error(`The state of ${deviceId} kept changing under the sweep`);
  };

  return {
    run: async (now: number): Promise<SweepResult> => {
      const started = clock();
      await deviceRules.refresh();
      const result: SweepResult = {
        due: 0,
        changed: 0,
        fired: 0,
        resolved: 0,
        reminded: 0,
        presence: 0,
        failed: 0,
        left: 0,
      };
      await Promise.all(
        Array.from({ length: DUE_SHARDS }, async (_, shard) => {
          let startKey: Record<string, unknown> | undefined;
          do {
            const page = await states.due(String(shard), now, { limit: PAGE, startKey });
            startKey = page.lastKey;
            if (clock() - started > budgetMs) {
              result.left += page.items.length;
              break;
            }
            result.due += page.items.length;
            await inLanes(page.items, lanes, async ({ deviceId }) => {
              try {
                await look(deviceId, now, result);
              } catch (error) {
                result.failed += 1;
                log('error', 'Alert sweep could not look at a device', {
                  deviceId,
                  error: error instanceof Error ? error.message : String(error),
                });
              }
            });
          } while (startKey);
        }),
      );
      return result;
    },
  };
};

export type Sweep = ReturnType<typeof createSweep>;
