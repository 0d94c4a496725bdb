import { ServiceUnavailable } from '../errors';
import type { Log } from '../logger';
import type { Effects } from './alert-effects';
import { type DeviceAlertState, type DeviceRule, emptyState, isPresence } from './alert-model';
import { type BatchFacts, evaluateBatch, LATE_LIMIT_MS } from './evaluation';
import { isAtRest } from './rest-marks';

/** Tries of a change before the batch fails (and is sent again): each retry lost to another evaluation's write. */
const WRITE_TRIES = 5;

export const ALERT_MESSAGES = {
  busy: "The device's alerts could not be evaluated just now; please send the readings again",
};

/** A batch ingest has stored, as the alerts evaluator takes it (data-ingress's hook after a stored batch). */
export interface EvaluatedBatch extends BatchFacts {
  deviceId: string;
  /**
   * The device record said, in the update ingest made before this batch was evaluated, that every alert track of the
   * device was at rest (its rest marks, decision 097).
   */
  alertsAtRest?: boolean;
}

export interface AlertEvaluatorDeps {
  rules: { rulesOf: (deviceId: string) => Promise<DeviceRule[]> };
  states: {
    get: (deviceId: string, consistent?: boolean) => Promise<DeviceAlertState>;
    write: (state: DeviceAlertState, expectedVersion: number, restBefore?: boolean) => Promise<boolean>;
    /** Marks the device record at rest as of this version of its state. @returns false when refused */
    markAtRest: (deviceId: string, version: number) => Promise<boolean>;
  };
  effects: Pick<Effects, 'deliver'>;
  now: () => number;
  newId: () => string;
  log: Log;
}

/** Devices whose silence and subscription tracks were seen set up for the rules the cache answered (by identity). */
const SETTLED_LIMIT = 20_000;

/**
 * Whether any rule could change on this batch, before reading the device's state: a threshold needs a reading newer
 * than what the device sent before and not late. Silences and plans are the sweep's (it resolves a silence once the
 * device's record shows a newer reading); ingest only sees their tracks set up, once per device and rules. Presence
 * ends an offline track at the first new reading (device.online at once): an offline device is never at rest on its
 * record, so a device at rest reads nothing for it.
 * A batch sent again, or a backfill of the past, costs no read.
 */
const mayChange = (rules: readonly DeviceRule[], batch: EvaluatedBatch, settled: boolean): boolean => {
  const floor = batch.previousLastSeen ?? Number.NEGATIVE_INFINITY;
  const fresh = batch.readings.some((r) => r.timestamp > floor && r.timestamp >= batch.receivedAt - LATE_LIMIT_MS);
  const isNew = batch.readings.some((r) => r.timestamp > floor);
  return rules.some((rule) => {
    if (isPresence(rule)) return !settled || (isNew && !batch.alertsAtRest);
    return rule.condition.kind === 'threshold' ? fresh : !settled;
  });
};

/**
 * Whether the batch changes nothing on a device whose tracks are all at rest, known without its state: each threshold
 * rule over the batch from rest (no reading crosses a limit), and the other rules' tracks seen set up by this instance
 * (`settledHere`; at rest, a silence only moves at the sweep, and a subscription's track only at the sweep).
 */
const changesNothingAtRest = (
  deviceRules: readonly DeviceRule[],
  batch: EvaluatedBatch,
  settledHere: boolean,
  ctx: { now: number; newId: () => string },
): boolean => {
  const thresholds = deviceRules.filter((rule) => rule.condition.kind === 'threshold');
  if (thresholds.length < deviceRules.length && !settledHere) return false;
  return evaluateBatch(emptyState(batch.deviceId), thresholds, batch, ctx) === undefined;
};

/**
 * The alerts evaluator ingest calls after a batch is stored (docs/alerts.md, "Evaluation"): the device's rules from
 * the per-instance cache (none: nothing more), its state, the state machine, and a write on the version read. A write
 * lost to another evaluation reads again (consistently) and evaluates again on what that one wrote, so two evaluations
 * at once fire once. The effects are done after the write; if that fails the sweep does them (they stay in the outbox).
 * A device whose record says its tracks are all at rest, with a batch that crosses no limit, reads no state
 * (decision 097); a state read at rest with nothing to change marks the record so, once per version and instance.
 */
export const createAlertEvaluator = ({ rules, states, effects, now, newId, log }: AlertEvaluatorDeps) => {
  const settled = new Map<string, readonly DeviceRule[]>();
  const settle = (deviceId: string, deviceRules: readonly DeviceRule[]) => {
    if (settled.size >= SETTLED_LIMIT) settled.clear();
    settled.set(deviceId, deviceRules);
  };
  /** The state version whose rest mark the record refused, per device: not asked again for that version. */
  const refused = new Map<string, number>();
  const markAtRest = async (state: DeviceAlertState) => {
    if (refused.get(state.deviceId) === state.version) return;
    if (await states.markAtRest(state.deviceId, state.version)) return;
    if (refused.size >= SETTLED_LIMIT) refused.clear();
    refused.set(state.deviceId, state.version);
  };
  return {
    afterStored: async (batch: EvaluatedBatch): Promise<void> => {
      const deviceRules = await rules.rulesOf(batch.deviceId);
      const settledHere = settled.get(batch.deviceId) === deviceRules;
      if (deviceRules.length === 0 || !mayChange(deviceRules, batch, settledHere)) return;
      if (batch.alertsAtRest && changesNothingAtRest(deviceRules, batch, settledHere, { now: now(), newId })) return;
      let state = await states.get(batch.deviceId);
      for (let attempt = 0; attempt < WRITE_TRIES; attempt += 1) {
        const change = evaluateBatch(state, deviceRules, batch, { now: now(), newId });
        if (!change) {
          settle(batch.deviceId, deviceRules);
          if (!batch.alertsAtRest && isAtRest(state)) {
            // Only a shortcut for later batches: its failure costs them the read they make today.
            await markAtRest(state).catch((error: unknown) =>
              log('warn', 'Alert rest mark not written', {
                deviceId: batch.deviceId,
                error: error instanceof Error ? error.message : String(error),
              }),
            );
          }
          return;
        }
        if (await states.write(change.state, state.version, isAtRest(state))) {
          settle(batch.deviceId, deviceRules);
          await effects.deliver(batch.deviceId, change.effects).catch((error: unknown) =>
            log('warn', 'Alert effects left for the sweep', {
              deviceId: batch.deviceId,
              error: error instanceof Error ? error.message : String(error),
            }),
          );
          return;
        }
        state = await states.get(batch.deviceId, true);
      }
      throw new ServiceUnavailable(ALERT_MESSAGES.busy);
    },
  };
};

export type AlertEvaluator = ReturnType<typeof createAlertEvaluator>;
