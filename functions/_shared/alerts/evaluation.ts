import {
  DAY_MS,
  MINUTE_MS,
  SECOND_MS,
  silenceAfterMs,
  type ThresholdLevels,
  thresholdLevels,
} from '../../../shared/alerts/alert-rules';
import type { AlertState } from '../../../shared/contracts/alerts';
import { ONLINE_WINDOW_MS } from '../../../shared/devices/presence';
import type {
  AlertEffect,
  AlertNotice,
  AlertRecord,
  DeviceAlertState,
  DeviceRule,
  OpenAlert,
  PresenceChange,
  StoredRule,
  Track,
} from './alert-model';
import { isFiring, isPresence, PRESENCE_ID } from './alert-model';
import { stepThreshold } from './threshold-machine';

/**
 * The alert state machine as pure functions over one device's state (docs/alerts.md): a stored batch at ingest,
 * the sweep's look, an acknowledgement. Each answers the next state (version + 1, its outbox and next due time) and
 * the effects the change must have, or undefined when nothing changed; the caller writes it on the version it read,
 * so of two evaluations at once only one changes anything, and the other evaluates again on what that one wrote.
 */

/**
 * A reading that arrives more than this after its time is history (a device's backfill after an outage): it is
 * stored and charted, and never fires an alert for a time already past.
 */
export const LATE_LIMIT_MS = 60 * MINUTE_MS;
/** An effect still in the outbox this long after its change is done again by the sweep. */
export const OUTBOX_RETRY_MS = 30 * SECOND_MS;
/** How often the sweep looks at a device's plan for a subscription rule. */
export const SUBSCRIPTION_CHECK_MS = 60 * MINUTE_MS;
/**
 * A firing silence is looked at again this often by the sweep, which resolves it once the device's record shows a
 * newer reading (ingest resolves it at once when it reads the device's state for a threshold anyway).
 */
export const SILENCE_RECHECK_MS = 60 * SECOND_MS;
/**
 * An offline device's presence is looked at again this often by the sweep: ingest ends it at the device's first
 * reading (its record is marked busy while it is offline), so this only catches a reading whose evaluation failed.
 */
export const PRESENCE_RECHECK_MS = ONLINE_WINDOW_MS;
/** A learned interval is learned again after a day (every 10 minutes while it is unknown). */
export const RELEARN_MS = DAY_MS;
export const RELEARN_UNKNOWN_MS = 10 * MINUTE_MS;

export interface Change {
  state: DeviceAlertState;
  /** The effects this change added to the outbox, in order. */
  effects: AlertEffect[];
}

export interface Context {
  now: number;
  newId: () => string;
}

/** A stored batch as the ingest hook hands it over. */
export interface BatchFacts {
  readings: readonly { timestamp: number; values: Record<string, number> }[];
  receivedAt: number;
  /** The device's last reading before this batch: what is at or before it was sent again, or arrives late. */
  previousLastSeen?: number;
}

/** A device's plan as the sweep reads it for subscription rules (null: no plan at all). */
export interface PlanFacts {
  status: string;
  trialEnd?: number;
  currentPeriodEnd?: number;
  cancelAtPeriodEnd?: boolean;
}

/** What the sweep read about the device before it looked. */
export interface SweepFacts {
  /** The device's last reading (its record's lastSeen). */
  lastSeen?: number;
  /** Set when the sweep learned the device's interval again (ms, undefined: still unknown). */
  learned?: { intervalMs?: number };
  /** Set when the sweep read the device's plan (a subscription rule was due): null, no plan. */
  plan?: PlanFacts | null;
}

/** Whether the sweep needs the device's last reading: a silence rule or the presence track waits on it. */
export const needsLastSeen = (rules: readonly DeviceRule[]): boolean =>
  rules.some((rule) => rule.condition.kind === 'silence' || isPresence(rule));

/** The sweep learns a device's interval when a silence rule waits on it and the last learning is old. */
export const needsLearning = (state: DeviceAlertState, rules: readonly DeviceRule[], now: number): boolean =>
  rules.some((rule) => rule.condition.kind === 'silence' && rule.condition.afterSeconds === undefined) &&
  (state.learnedAt === undefined ||
    now - state.learnedAt >= (state.interval === undefined ? RELEARN_UNKNOWN_MS : RELEARN_MS));

/** The sweep reads the device's plan when a subscription rule's look is due. */
export const needsPlan = (state: DeviceAlertState, rules: readonly DeviceRule[], now: number): boolean =>
  rules.some((rule) => {
    if (rule.condition.kind !== 'subscription') return false;
    const checkAt = state.tracks[rule.id]?.checkAt;
    return checkAt === undefined || checkAt <= now;
  });

const levelsOf = (rule: StoredRule): ThresholdLevels | undefined =>
  rule.condition.kind === 'threshold' ? thresholdLevels(rule.condition) : undefined;

/** An alert's record as a change leaves it: the rule's words beside the alert's times and values. */
const recordOf = (
  rule: StoredRule,
  deviceId: string,
  track: Track,
  alert: OpenAlert,
  state: AlertState,
  version: number,
  updated: number,
  resolved?: { at: number; value?: number },
): AlertRecord => {
  const levels = levelsOf(rule);
  return {
    id: alert.id,
    ruleId: rule.id,
    ruleName: rule.name,
    deviceId,
    target: rule.target,
    condition: rule.condition.kind,
    state,
    startedAt: alert.startedAt,
    ...(alert.firedAt === undefined ? {} : { firedAt: alert.firedAt }),
    ...(resolved ? { resolvedAt: resolved.at } : {}),
    ...(levels
      ? {
          measurement: levels.measurement,
          direction: levels.direction,
          limit: levels.limit,
          clearLevel: levels.clear,
          ...(alert.value === undefined ? {} : { value: alert.value }),
          ...(resolved?.value === undefined ? {} : { resolvedValue: resolved.value }),
        }
      : {}),
    ...(rule.condition.kind === 'silence' && track.afterMs !== undefined
      ? { afterSeconds: Math.round(track.afterMs / SECOND_MS) }
      : {}),
    ...(rule.condition.kind === 'subscription' ? { daysBefore: rule.condition.daysBefore } : {}),
    ...(alert.endsAt === undefined ? {} : { endsAt: alert.endsAt }),
    ...(alert.acknowledgedBy === undefined
      ? {}
      : { acknowledgedBy: alert.acknowledgedBy, acknowledgedAt: alert.acknowledgedAt }),
    reminders: alert.reminders,
    updated,
    version,
  };
};

const noticeOf = (rule: StoredRule, change: AlertNotice['change'], eventId: string, at: number): AlertNotice => ({
  change,
  eventId,
  at,
  recipients: rule.recipients,
  target: rule.target,
  createdBy: rule.createdBy,
});

/**
 * When the sweep must look at the device next: a silence's deadline (or, firing, its next look for a reading), a
 * reminder, a plan's look, an unfinished outbox.
 */
export const nextDue = (
  state: Pick<DeviceAlertState, 'tracks' | 'seen' | 'outbox'>,
  now: number,
): number | undefined => {
  const times: number[] = [];
  for (const track of Object.values(state.tracks)) {
    if (track.kind === 'silence' && track.phase === 'ok' && state.seen !== undefined && track.afterMs !== undefined) {
      times.push(state.seen + track.afterMs + 1);
    }
    if (track.kind === 'silence' && isFiring(track)) times.push(now + SILENCE_RECHECK_MS);
    if (track.alert?.remindAt !== undefined && track.alert.acknowledgedAt === undefined)
      times.push(track.alert.remindAt);
    if (track.kind === 'subscription' && track.checkAt !== undefined) times.push(track.checkAt);
    if (track.kind === 'presence' && track.phase === 'ok' && state.seen !== undefined) {
      times.push(state.seen + ONLINE_WINDOW_MS + 1);
    }
    if (track.kind === 'presence' && track.phase === 'firing') times.push(now + PRESENCE_RECHECK_MS);
  }
  if (Object.keys(state.outbox).length > 0) times.push(now + OUTBOX_RETRY_MS);
  return times.length ? Math.min(...times) : undefined;
};

/**
 * A change in the making: a copy of the state the steps below change, and the effects they queue. `finish` keeps
 * the record on each alert's last effect only (one projection per alert and change) and stamps the new version.
 */
const draftOf = (state: DeviceAlertState, ctx: Context) => {
  const next: DeviceAlertState = structuredClone(state);
  const version = state.version + 1;
  const effects: AlertEffect[] = [];
  let dirty = false;

  const effect = (alertId: string, suffix: string, parts: Omit<AlertEffect, 'id' | 'alertId' | 'order'>) =>
    effects.push({ id: `${alertId}#${suffix}`, alertId, order: version * 1_000 + effects.length, ...parts });

  return {
    next,
    version,
    touch: () => {
      dirty = true;
    },
    /** An alert of `rule` changed to `state`: its record, and the notice when it fired, resolved or reminds. */
    project: (
      rule: StoredRule,
      track: Track,
      alert: OpenAlert,
      alertState: AlertState,
      suffix: string,
      notice?: { change: AlertNotice['change']; at: number },
      resolved?: { at: number; value?: number },
    ) => {
      dirty = true;
      effect(alert.id, suffix, {
        record: recordOf(rule, state.deviceId, track, alert, alertState, version, ctx.now, resolved),
        ...(notice ? { notice: noticeOf(rule, notice.change, `${alert.id}#${suffix}`, notice.at) } : {}),
      });
    },
    /** A pending alert that never fired goes without a trace. */
    withdraw: (alertId: string) => {
      dirty = true;
      effect(alertId, 'withdrawn', { remove: true });
    },
    /** The alert of a rule that was deleted or switched off: closed, nobody told (they changed the rule). */
    close: (alert: OpenAlert, fired: boolean) => {
      dirty = true;
      effect(alert.id, 'closed', fired ? { close: ctx.now } : { remove: true });
    },
    /** The device went offline or came online: its webhooks' event, under the effect's id. */
    presence: (alertId: string, change: PresenceChange) => {
      dirty = true;
      effect(alertId, change.online ? 'online' : 'offline', { presence: change });
    },
    isDirty: () => dirty,
    /**
     * The change, or undefined when nothing changed; `dueAlone`: a new due time is a change by itself (the sweep's
     * look pushes a silence's deadline along even when nothing fired).
     */
    finish: (due: (next: DeviceAlertState) => number | undefined, dueAlone: boolean): Change | undefined => {
      const lastOf = new Map(effects.map((e, i) => [e.alertId, i]));
      const kept = effects.map((e, i) => (lastOf.get(e.alertId) === i || !e.record ? e : { ...e, record: undefined }));
      for (const e of kept) next.outbox[e.id] = e;
      const dueAt = due(next);
      if (!dirty && (!dueAlone || dueAt === state.dueAt)) return undefined;
      next.version = version;
      if (dueAt === undefined) delete next.dueAt;
      else next.dueAt = dueAt;
      return { state: next, effects: kept };
    },
  };
};

type Draft = ReturnType<typeof draftOf>;

const remindAtOf = (rule: StoredRule, now: number) =>
  rule.remindEverySeconds === undefined ? undefined : now + rule.remindEverySeconds * SECOND_MS;

/** A threshold rule over the batch's new readings of its measurement. */
const thresholdBatch = (draft: Draft, rule: StoredRule, batch: BatchFacts, ctx: Context) => {
  const levels = levelsOf(rule)!;
  const track: Track = draft.next.tracks[rule.id] ?? { kind: 'threshold', phase: 'ok' };
  const floor = Math.max(batch.previousLastSeen ?? -Infinity, track.lastAt ?? -Infinity);
  const fresh = batch.readings
    .filter(
      (r) =>
        r.timestamp > floor &&
        r.timestamp >= batch.receivedAt - LATE_LIMIT_MS &&
        typeof r.values[levels.measurement] === 'number',
    )
    .sort((a, b) => a.timestamp - b.timestamp);
  let changed = false;
  for (const reading of fresh) {
    const value = reading.values[levels.measurement]!;
    const step = stepThreshold(levels, track, { timestamp: reading.timestamp, value });
    if (step.phase === track.phase && step.since === track.since) continue;
    changed = true;
    track.phase = step.phase;
    if (step.since === undefined) delete track.since;
    else track.since = step.since;
    const change = step.change;
    if (!change) continue;
    if (change.kind === 'pending') {
      track.alert = { id: ctx.newId(), startedAt: change.at, value: change.value, reminders: 0 };
      draft.project(rule, track, track.alert, 'pending', 'pending');
    } else if (change.kind === 'fired') {
      const alert: OpenAlert = track.alert ?? { id: ctx.newId(), startedAt: change.at, reminders: 0 };
      alert.firedAt = change.at;
      alert.value = change.value;
      const remindAt = remindAtOf(rule, ctx.now);
      if (remindAt !== undefined) alert.remindAt = remindAt;
      track.alert = alert;
      draft.project(rule, track, alert, 'firing', 'fired', { change: 'fired', at: change.at });
    } else if (change.kind === 'withdrawn') {
      if (track.alert) draft.withdraw(track.alert.id);
      delete track.alert;
    } else if (track.alert) {
      const alert = track.alert;
      delete alert.remindAt;
      draft.project(rule, track, alert, 'resolved', 'resolved', { change: 'resolved', at: change.at }, change);
      delete track.alert;
    }
  }
  if (changed) {
    track.lastAt = fresh.at(-1)!.timestamp;
    draft.next.tracks[rule.id] = track;
    draft.touch();
  }
};

/** Silence at ingest: a new reading resolves a firing silence; a rule the device has no track of yet starts one. */
const silenceBatch = (draft: Draft, rule: StoredRule, newest: number) => {
  const track = draft.next.tracks[rule.id];
  const afterSeconds = rule.condition.kind === 'silence' ? rule.condition.afterSeconds : undefined;
  if (track && isFiring(track) && track.alert) {
    const alert = track.alert;
    delete alert.remindAt;
    const at = Math.max(newest, alert.firedAt ?? newest);
    draft.project(rule, track, alert, 'resolved', 'resolved', { change: 'resolved', at }, { at });
    draft.next.tracks[rule.id] = { kind: 'silence', phase: 'ok', ...(track.afterMs ? { afterMs: track.afterMs } : {}) };
  } else if (!track || draft.next.seen === undefined) {
    draft.next.tracks[rule.id] = {
      kind: 'silence',
      phase: 'ok',
      afterMs: silenceAfterMs(afterSeconds, draft.next.interval),
    };
    draft.touch();
  }
};

/**
 * Presence at ingest: a new reading of an offline device brings it online at once (device.online); a device with no
 * presence track yet starts one, online, and tells nobody (a webhook hears of changes, not of the state it began in).
 */
const presenceBatch = (draft: Draft, newest: number, ctx: Context) => {
  const track = draft.next.tracks[PRESENCE_ID];
  if (track && track.phase === 'ok') return;
  backOnline(draft, track, newest, ctx.now);
};

/**
 * An offline (or untracked) device's presence at a reading `seen`: online, with device.online when it was offline.
 * Only a reading newer than the one it went offline after brings it back, at ingest as in the sweep: the evaluation
 * of an older batch that came late (retried behind the sweep's write) sent a device.online with the old time.
 */
const backOnline = (draft: Draft, track: Track | undefined, seen: number, at: number) => {
  if (seen <= (track?.alert?.lastSeen ?? Number.NEGATIVE_INFINITY)) return;
  if (track?.alert) draft.presence(track.alert.id, { online: true, lastSeen: seen, at });
  draft.next.tracks[PRESENCE_ID] = { kind: 'presence', phase: 'ok', afterMs: ONLINE_WINDOW_MS };
  draft.touch();
};

/**
 * A batch the ingest stored (the hook after it): each threshold rule over the readings newer than anything the device
 * sent before and younger than LATE_LIMIT_MS; each silence rule resolved by a new reading. `rules`: the device's
 * enabled rules. Tracks of rules not among them are left for the sweep, which reads the rules fresh.
 */
export const evaluateBatch = (
  state: DeviceAlertState,
  rules: readonly DeviceRule[],
  batch: BatchFacts,
  ctx: Context,
): Change | undefined => {
  const draft = draftOf(state, ctx);
  const newestSent = batch.readings.reduce((max, r) => Math.max(max, r.timestamp), -Infinity);
  const newest = Math.min(newestSent, batch.receivedAt);
  const isNew = batch.readings.length > 0 && (batch.previousLastSeen === undefined || newest > batch.previousLastSeen);
  for (const rule of rules) {
    const track = draft.next.tracks[rule.id];
    if (track && track.kind !== rule.condition.kind) continue;
    if (isPresence(rule)) {
      if (isNew) presenceBatch(draft, newest, ctx);
    } else if (rule.condition.kind === 'threshold') thresholdBatch(draft, rule, batch, ctx);
    else if (rule.condition.kind === 'silence' && isNew) silenceBatch(draft, rule, newest);
    else if (rule.condition.kind === 'subscription' && !track) {
      draft.next.tracks[rule.id] = { kind: 'subscription', phase: 'ok', checkAt: ctx.now };
      draft.touch();
    }
  }
  // A change at ingest: the device's newest reading moves the silences' and presence's deadlines along for free.
  if (draft.isDirty() && isNew && needsLastSeen(rules)) {
    draft.next.seen = Math.max(draft.next.seen ?? -Infinity, newest);
  }
  // A device touched for the sweep (a rule changed) stays due: this write must not hide it.
  const touched = state.dueAt !== undefined && state.dueAt <= ctx.now ? state.dueAt : Infinity;
  return draft.finish((next) => {
    const due = Math.min(nextDue(next, ctx.now) ?? Infinity, touched);
    return due === Infinity ? undefined : due;
  }, false);
};

/**
 * Whether a plan ends within the window: a trial ending, a plan that will not renew (cancelled at period end, or a
 * payment failing), or one that has lapsed already. `endsAt`: when.
 */
export const planVerdict = (
  plan: PlanFacts | null,
  daysBefore: number,
  now: number,
): { fires: false } | { fires: true; reason: 'trial' | 'lapse'; endsAt?: number } => {
  if (!plan) return { fires: false };
  const window = daysBefore * DAY_MS;
  if (plan.status === 'trialing' && plan.trialEnd !== undefined && plan.trialEnd - now <= window) {
    return { fires: true, reason: 'trial', endsAt: plan.trialEnd };
  }
  const notRenewing = plan.cancelAtPeriodEnd === true || ['past_due', 'unpaid', 'incomplete'].includes(plan.status);
  if (notRenewing && plan.currentPeriodEnd !== undefined && plan.currentPeriodEnd - now <= window) {
    return { fires: true, reason: 'lapse', endsAt: plan.currentPeriodEnd };
  }
  const granting = ['active', 'trialing', 'past_due'].includes(plan.status);
  if (!granting || (plan.currentPeriodEnd !== undefined && plan.currentPeriodEnd <= now)) {
    return {
      fires: true,
      reason: 'lapse',
      ...(plan.currentPeriodEnd === undefined ? {} : { endsAt: plan.currentPeriodEnd }),
    };
  }
  return { fires: false };
};

/**
 * The sweep's look at one due device (the rules read fresh): the tracks of rules gone or switched off close; a
 * silence past its deadline fires (and one the device ended resolves); a subscription rule looks at the plan;
 * unacknowledged firing alerts remind. The next due time is written whether or not anything else changed.
 */
export const sweepDevice = (
  state: DeviceAlertState,
  rules: readonly DeviceRule[],
  facts: SweepFacts,
  ctx: Context,
): Change | undefined => {
  const { now } = ctx;
  const draft = draftOf(state, ctx);
  const next = draft.next;
  const byId = new Map(rules.map((rule) => [rule.id, rule]));

  for (const [ruleId, track] of Object.entries(next.tracks)) {
    const rule = byId.get(ruleId);
    if (rule && rule.condition.kind === track.kind) continue;
    // Presence has no alert record to close: no webhook watches it any more, so nobody is told.
    if (track.alert && track.kind !== 'presence') draft.close(track.alert, isFiring(track));
    delete next.tracks[ruleId];
    draft.touch();
  }

  if (facts.learned) {
    if (facts.learned.intervalMs === undefined) delete next.interval;
    else next.interval = facts.learned.intervalMs;
    next.learnedAt = now;
    draft.touch();
  }
  if (facts.lastSeen !== undefined && facts.lastSeen > (next.seen ?? -Infinity)) {
    next.seen = facts.lastSeen;
    draft.touch();
  }

  for (const rule of rules) {
    if (isPresence(rule)) {
      presenceSweep(draft, now, ctx);
      continue;
    }
    const condition = rule.condition;
    if (condition.kind === 'silence') {
      const track: Track = next.tracks[rule.id] ?? { kind: 'silence', phase: 'ok' };
      const afterMs = silenceAfterMs(condition.afterSeconds, next.interval);
      if (track.afterMs !== afterMs) {
        track.afterMs = afterMs;
        draft.touch();
      }
      next.tracks[rule.id] = track;
      const seen = next.seen;
      if (track.phase === 'ok' && seen !== undefined && now - seen > afterMs) {
        const remindAt = remindAtOf(rule, now);
        track.phase = 'firing';
        track.alert = {
          id: ctx.newId(),
          startedAt: seen + afterMs,
          firedAt: now,
          lastSeen: seen,
          reminders: 0,
          ...(remindAt === undefined ? {} : { remindAt }),
        };
        draft.project(rule, track, track.alert, 'firing', 'fired', { change: 'fired', at: now });
      } else if (isFiring(track) && track.alert && seen !== undefined && seen > (track.alert.lastSeen ?? Infinity)) {
        const alert = track.alert;
        delete alert.remindAt;
        const at = Math.max(seen, alert.firedAt ?? seen);
        draft.project(rule, track, alert, 'resolved', 'resolved', { change: 'resolved', at }, { at });
        next.tracks[rule.id] = { kind: 'silence', phase: 'ok', afterMs };
      }
    } else if (condition.kind === 'subscription') {
      const track: Track = next.tracks[rule.id] ?? { kind: 'subscription', phase: 'ok', checkAt: now };
      next.tracks[rule.id] = track;
      if ((track.checkAt ?? now) > now || facts.plan === undefined) continue;
      const verdict = planVerdict(facts.plan, condition.daysBefore, now);
      if (verdict.fires && track.phase === 'ok') {
        const remindAt = remindAtOf(rule, now);
        track.phase = 'firing';
        track.alert = {
          id: ctx.newId(),
          startedAt: now,
          firedAt: now,
          reason: verdict.reason,
          reminders: 0,
          ...(verdict.endsAt === undefined ? {} : { endsAt: verdict.endsAt }),
          ...(remindAt === undefined ? {} : { remindAt }),
        };
        draft.project(rule, track, track.alert, 'firing', 'fired', { change: 'fired', at: now });
      } else if (!verdict.fires && isFiring(track) && track.alert) {
        const alert = track.alert;
        delete alert.remindAt;
        draft.project(rule, track, alert, 'resolved', 'resolved', { change: 'resolved', at: now }, { at: now });
        delete track.alert;
        track.phase = 'ok';
      }
      // The next look: in an hour, or sooner when the window opens before then.
      const opens = verdict.fires ? undefined : windowOpens(facts.plan, condition.daysBefore, now);
      track.checkAt = Math.min(now + SUBSCRIPTION_CHECK_MS, opens ?? Infinity);
      draft.touch();
    }
  }

  for (const [ruleId, track] of Object.entries(next.tracks)) {
    const rule = byId.get(ruleId);
    const alert = track.alert;
    if (!rule || isPresence(rule) || !alert || !isFiring(track) || alert.acknowledgedAt !== undefined) continue;
    if (alert.remindAt === undefined || alert.remindAt > now) continue;
    alert.reminders += 1;
    const remindAt = remindAtOf(rule, now);
    if (remindAt === undefined) delete alert.remindAt;
    else alert.remindAt = remindAt;
    draft.project(rule, track, alert, 'firing', `reminder#${alert.reminders}`, { change: 'reminder', at: now });
  }

  return draft.finish((after) => nextDue(after, now), true);
};

/**
 * The sweep's look at the device's presence: online past ONLINE_WINDOW_MS without a reading goes offline
 * (device.offline); offline with a newer reading than when it went comes online (what ingest missed). A track set up
 * here starts as the device is, and tells nobody.
 */
const presenceSweep = (draft: Draft, now: number, ctx: Context) => {
  const next = draft.next;
  const seen = next.seen;
  const online = seen !== undefined && now - seen <= ONLINE_WINDOW_MS;
  const track = next.tracks[PRESENCE_ID];
  const offline = (): Track => ({
    kind: 'presence',
    phase: 'firing',
    afterMs: ONLINE_WINDOW_MS,
    alert: { id: ctx.newId(), startedAt: now, ...(seen === undefined ? {} : { lastSeen: seen }), reminders: 0 },
  });
  if (!track) {
    next.tracks[PRESENCE_ID] = online ? { kind: 'presence', phase: 'ok', afterMs: ONLINE_WINDOW_MS } : offline();
    draft.touch();
  } else if (track.phase === 'ok' && !online && seen !== undefined) {
    const went = offline();
    next.tracks[PRESENCE_ID] = went;
    draft.presence(went.alert!.id, { online: false, lastSeen: seen, at: now });
  } else if (track.phase !== 'ok' && seen !== undefined) {
    backOnline(draft, track, seen, now);
  }
};

/** When a plan's window opens (its end minus `daysBefore` days), if that is still ahead. */
const windowOpens = (plan: PlanFacts | null | undefined, daysBefore: number, now: number): number | undefined => {
  if (!plan) return undefined;
  const ends = [plan.status === 'trialing' ? plan.trialEnd : undefined, plan.currentPeriodEnd].filter(
    (t): t is number => t !== undefined,
  );
  const opens = ends.map((t) => t - daysBefore * DAY_MS + 1).filter((t) => t > now);
  return opens.length ? Math.min(...opens) : undefined;
};

/**
 * A person acknowledges an open alert: who and when are kept, its reminders stop. Undefined when the state holds no
 * open alert of that id (resolved already: the caller marks the record itself), or it is acknowledged already.
 */
export const acknowledgeIn = (
  state: DeviceAlertState,
  rule: StoredRule,
  alertId: string,
  userId: string,
  ctx: Context,
): Change | undefined => {
  const draft = draftOf(state, ctx);
  const track = draft.next.tracks[rule.id];
  const alert = track?.alert;
  if (!track || !alert || alert.id !== alertId || alert.acknowledgedAt !== undefined) return undefined;
  alert.acknowledgedBy = userId;
  alert.acknowledgedAt = ctx.now;
  delete alert.remindAt;
  draft.project(rule, track, alert, isFiring(track) ? 'firing' : 'pending', `ack#${ctx.now}`);
  return draft.finish((after) => nextDue(after, ctx.now), false);
};
