import type { AlertCondition } from '../../../shared/contracts/alerts';
import { type DeviceAlertState, type DeviceRule, emptyState, PRESENCE_WATCH, type StoredRule } from './alert-model';
import {
  acknowledgeIn,
  type Change,
  evaluateBatch,
  LATE_LIMIT_MS,
  OUTBOX_RETRY_MS,
  PRESENCE_RECHECK_MS,
  planVerdict,
  SILENCE_RECHECK_MS,
  sweepDevice,
} from './evaluation';

const T0 = Date.UTC(2026, 2, 12, 10, 0);
const MIN = 60_000;

const rule = (condition: AlertCondition, extra: Partial<StoredRule> = {}): StoredRule => ({
  id: 'r1',
  name: 'PM2.5 high',
  target: { kind: 'device', id: 'd1' },
  condition,
  recipients: [],
  enabled: true,
  createdBy: 'u1',
  created: T0,
  updated: T0,
  ...extra,
});

const pm = (above: number, extra: Partial<Extract<AlertCondition, { kind: 'threshold' }>> = {}): AlertCondition => ({
  kind: 'threshold',
  measurement: 'pm2_5',
  above,
  forSeconds: 0,
  ...extra,
});

let ids = 0;
const ctx = (now: number) => ({ now, newId: () => `a${++ids}` });

/** Feeds batches of pm2_5 values one reading a minute from `start`, each arriving a second after its time. */
const world = (rules: DeviceRule[]) => {
  let state: DeviceAlertState = emptyState('d1');
  let lastSeen: number | undefined;
  const changes: Change[] = [];
  const apply = (change: Change | undefined) => {
    if (!change) return;
    expect(change.state.version).toBe(state.version + 1);
    state = change.state;
    state.outbox = {};
    changes.push(change);
  };
  return {
    get state() {
      return state;
    },
    changes,
    notices: () => changes.flatMap((c) => c.effects.flatMap((e) => (e.notice ? [e.notice.change] : []))),
    batch: (readings: { t: number; v: number }[], receivedAt = Math.max(...readings.map((r) => r.t)) + 1_000) => {
      const change = evaluateBatch(
        state,
        rules,
        {
          readings: readings.map(({ t, v }) => ({ timestamp: t, values: { pm2_5: v } })),
          receivedAt,
          ...(lastSeen === undefined ? {} : { previousLastSeen: lastSeen }),
        },
        ctx(receivedAt),
      );
      lastSeen = Math.max(lastSeen ?? -Infinity, ...readings.map((r) => r.t));
      apply(change);
      return change;
    },
    sweep: (now: number, facts: Parameters<typeof sweepDevice>[2] = {}) => {
      const change = sweepDevice(state, rules, facts, ctx(now));
      apply(change);
      return change;
    },
  };
};

const series = (values: number[], start = T0) => values.map((v, i) => ({ t: start + i * MIN, v }));

describe('threshold', () => {
  it('fires once at the first reading past the limit and clears only back below the clear level (hysteresis)', () => {
    const w = world([rule(pm(35))]);
    for (const reading of series([20, 36, 33, 40, 34, 32, 31.4, 30])) w.batch([reading]);
    expect(w.notices()).toEqual(['fired', 'resolved']);
    const fired = w.changes.flatMap((c) => c.effects).find((e) => e.notice?.change === 'fired')!;
    expect(fired.record).toMatchObject({ state: 'firing', value: 36, limit: 35, clearLevel: 31.5, firedAt: T0 + MIN });
    const resolved = w.changes.flatMap((c) => c.effects).find((e) => e.notice?.change === 'resolved')!;
    expect(resolved.record).toMatchObject({ state: 'resolved', resolvedAt: T0 + 6 * MIN, resolvedValue: 31.4 });
    expect(w.state.tracks.r1).toMatchObject({ phase: 'ok' });
  });

  it('writes nothing for readings that change nothing (no phase moved)', () => {
    const w = world([rule(pm(35))]);
    expect(w.batch(series([10, 12, 14]))).toBeUndefined();
    expect(w.state.version).toBe(0);
  });

  it('a below rule mirrors it: clears above 10 % over the limit', () => {
    const w = world([rule({ kind: 'threshold', measurement: 'pm2_5', below: 10, forSeconds: 0 })]);
    for (const reading of series([12, 9, 10.5, 8, 11.2])) w.batch([reading]);
    expect(w.notices()).toEqual(['fired', 'resolved']);
  });

  it('forSeconds: pending until the value has been past the limit that long; a dip before withdraws it', () => {
    const w = world([rule(pm(35, { forSeconds: 180 }))]);
    for (const reading of series([40, 41, 30])) w.batch([reading]);
    const effects = w.changes.flatMap((c) => c.effects);
    expect(effects.map((e) => e.id.split('#')[1])).toEqual(['pending', 'withdrawn']);
    expect(effects[1]!.remove).toBe(true);
    expect(w.notices()).toEqual([]);
    for (const reading of series([40, 41, 42, 43], T0 + 10 * MIN)) w.batch([reading]);
    expect(w.notices()).toEqual(['fired']);
    const fired = w.changes.at(-1)!.effects[0]!;
    // The episode started at its first reading past the limit, and fired three minutes later.
    expect(fired.record).toMatchObject({ startedAt: T0 + 10 * MIN, firedAt: T0 + 13 * MIN, state: 'firing' });
  });

  it('clearForSeconds: the value must stay back that long (default forSeconds); a return past it keeps firing', () => {
    const w = world([rule(pm(35, { forSeconds: 0, clearForSeconds: 120 }))]);
    for (const reading of series([40, 20, 20, 36, 20, 20, 20])) w.batch([reading]);
    expect(w.notices()).toEqual(['fired', 'resolved']);
    const resolved = w.changes.flatMap((c) => c.effects).find((e) => e.notice?.change === 'resolved')!;
    expect(resolved.record!.resolvedAt).toBe(T0 + 6 * MIN);
  });

  it('a batch holding the whole episode fires and resolves: both notices, one record (the last)', () => {
    const w = world([rule(pm(35))]);
    w.batch(series([40, 41, 20]));
    const effects = w.changes[0]!.effects;
    expect(effects.map((e) => e.notice?.change)).toEqual(['fired', 'resolved']);
    expect(effects.map((e) => e.record?.state)).toEqual([undefined, 'resolved']);
  });

  it('late and resent readings never fire: older than what the device sent before, or older than the late limit', () => {
    const w = world([rule(pm(35))]);
    w.batch([{ t: T0 + 10 * MIN, v: 10 }]);
    // Out of order: a reading before the device's last one.
    expect(w.batch([{ t: T0 + 5 * MIN, v: 99 }], T0 + 11 * MIN)).toBeUndefined();
    // A backfill arriving long after its time (newer than anything sent, but history).
    const late = T0 + 11 * MIN;
    expect(w.batch([{ t: late, v: 99 }], late + LATE_LIMIT_MS + 1)).toBeUndefined();
    expect(w.notices()).toEqual([]);
  });

  it('the same crossing batch twice fires once (the second is at or before lastSeen)', () => {
    const w = world([rule(pm(35))]);
    const batch = series([20, 50]);
    w.batch(batch);
    w.batch(batch);
    expect(w.notices()).toEqual(['fired']);
  });

  it('200 crossings of the limit in an hour with the default hysteresis: one fire and one resolve', () => {
    const w = world([rule(pm(35))]);
    const noisy = Array.from({ length: 400 }, (_, i) => ({ t: T0 + i * 9_000, v: i % 2 === 0 ? 33 : 37 }));
    for (const reading of noisy) w.batch([reading]);
    w.batch([{ t: T0 + 401 * 9_000, v: 25 }]);
    expect(w.notices()).toEqual(['fired', 'resolved']);
  });
});

describe('silence', () => {
  const silence = (afterSeconds?: number) =>
    rule({ kind: 'silence', ...(afterSeconds === undefined ? {} : { afterSeconds }) }, { id: 's1', name: 'Silent' });

  it('a reading sets up the track; the sweep fires once past the deadline, not before; a newer reading resolves', () => {
    const w = world([silence(600)]);
    w.batch([{ t: T0, v: 10 }]);
    expect(w.state).toMatchObject({ seen: T0, dueAt: T0 + 10 * MIN + 1 });
    expect(w.sweep(T0 + 9 * MIN, { lastSeen: T0 })).toBeUndefined();
    w.sweep(T0 + 10 * MIN + 5_000, { lastSeen: T0 });
    w.sweep(T0 + 11 * MIN, { lastSeen: T0 });
    expect(w.notices()).toEqual(['fired']);
    const fired = w.changes.flatMap((c) => c.effects).find((e) => e.notice)!;
    expect(fired.record).toMatchObject({ startedAt: T0 + 10 * MIN, firedAt: T0 + 10 * MIN + 5_000, afterSeconds: 600 });
    // Firing, the device's next look comes a minute on: it resolves once the record shows a newer reading.
    expect(w.state.dueAt).toBe(T0 + 11 * MIN + SILENCE_RECHECK_MS);
    w.sweep(T0 + 12 * MIN, { lastSeen: T0 + 11.5 * MIN });
    expect(w.notices()).toEqual(['fired', 'resolved']);
    expect(w.changes.at(-1)!.effects[0]!.record).toMatchObject({ state: 'resolved', resolvedAt: T0 + 11.5 * MIN });
  });

  it('without afterSeconds: twice the learned interval, never under 5 minutes', () => {
    const w = world([silence()]);
    w.batch([{ t: T0, v: 1 }]);
    w.sweep(T0 + MIN, { lastSeen: T0, learned: { intervalMs: 10 * MIN } });
    expect(w.state.tracks.s1!.afterMs).toBe(20 * MIN);
    w.sweep(T0 + 2 * MIN, { learned: { intervalMs: MIN } });
    expect(w.state.tracks.s1!.afterMs).toBe(5 * MIN);
  });

  it('ingest resolves a firing silence at once when it reads the state for a threshold anyway', () => {
    const w = world([silence(60), rule(pm(35), { id: 't1' })]);
    w.batch([{ t: T0, v: 10 }]);
    w.sweep(T0 + 5 * MIN, { lastSeen: T0 });
    w.batch([{ t: T0 + 6 * MIN, v: 10 }]);
    expect(w.notices()).toEqual(['fired', 'resolved']);
  });
});

describe("presence (the webhooks' device.online / device.offline, decision 105)", () => {
  const WINDOW = 10 * MIN;
  const presenceOf = (change: Change | undefined) => change?.effects.flatMap((e) => (e.presence ? [e] : [])) ?? [];

  it('ingest sets the track up online and tells nobody; the sweep sends device.offline once past the window, not before', () => {
    const w = world([PRESENCE_WATCH]);
    const first = w.batch([{ t: T0, v: 10 }]);
    expect(presenceOf(first)).toEqual([]);
    expect(w.state).toMatchObject({ seen: T0, dueAt: T0 + WINDOW + 1, tracks: { presence: { phase: 'ok' } } });
    expect(presenceOf(w.sweep(T0 + WINDOW, { lastSeen: T0 }))).toEqual([]);
    const went = presenceOf(w.sweep(T0 + WINDOW + 5_000, { lastSeen: T0 }));
    expect(went).toHaveLength(1);
    expect(went[0]!.presence).toEqual({ online: false, lastSeen: T0, at: T0 + WINDOW + 5_000 });
    // Offline: no alert record, no notice for a person, and a look again only after the window (ingest ends it).
    expect(went[0]!.record).toBeUndefined();
    expect(went[0]!.notice).toBeUndefined();
    expect(w.state.dueAt).toBe(T0 + WINDOW + 5_000 + OUTBOX_RETRY_MS);
    // The sweep again (its outbox done), with nothing new: nothing more, and the next look a window on.
    const later = T0 + WINDOW + 5_000 + OUTBOX_RETRY_MS;
    expect(presenceOf(w.sweep(later, { lastSeen: T0 }))).toEqual([]);
    expect(w.state.dueAt).toBe(later + PRESENCE_RECHECK_MS);
    expect(presenceOf(w.sweep(later + PRESENCE_RECHECK_MS, { lastSeen: T0 }))).toEqual([]);
    expect(w.notices()).toEqual([]);
  });

  it('the first reading after it went offline brings device.online at ingest, under an effect id of its own', () => {
    const w = world([PRESENCE_WATCH]);
    w.batch([{ t: T0, v: 10 }]);
    const offline = presenceOf(w.sweep(T0 + 15 * MIN, { lastSeen: T0 }))[0]!;
    const online = presenceOf(w.batch([{ t: T0 + 20 * MIN, v: 10 }]));
    expect(online).toHaveLength(1);
    expect(online[0]!.presence).toEqual({ online: true, lastSeen: T0 + 20 * MIN, at: T0 + 20 * MIN + 1_000 });
    expect(online[0]!.id).not.toBe(offline.id);
    expect(w.state).toMatchObject({ seen: T0 + 20 * MIN, tracks: { presence: { phase: 'ok' } } });
    // Online again: the next reading changes nothing; the sweep's next look is a window after the newest reading.
    expect(w.batch([{ t: T0 + 21 * MIN, v: 10 }])).toBeUndefined();
    w.sweep(T0 + 22 * MIN, { lastSeen: T0 + 21 * MIN });
    expect(w.state.dueAt).toBe(T0 + 21 * MIN + WINDOW + 1);
  });

  it('a batch evaluated late, no newer than the reading it went offline after, leaves it offline and tells nobody', () => {
    const w = world([PRESENCE_WATCH]);
    // The sweep set the track up from the device's record: offline since its reading at T0.
    w.sweep(T0 + 15 * MIN, { lastSeen: T0 });
    expect(w.state.tracks.presence).toMatchObject({ phase: 'firing', alert: { lastSeen: T0 } });
    // That reading's own batch is evaluated only now (retried behind the sweep's write).
    expect(presenceOf(w.batch([{ t: T0, v: 10 }], T0 + 16 * MIN))).toEqual([]);
    expect(w.state.tracks.presence).toMatchObject({ phase: 'firing', alert: { lastSeen: T0 } });
    // A newer one brings it back.
    expect(presenceOf(w.batch([{ t: T0 + 17 * MIN, v: 10 }])).map((e) => e.presence!.lastSeen)).toEqual([
      T0 + 17 * MIN,
    ]);
  });

  it('the sweep brings it online when ingest missed the reading (the record shows a newer one)', () => {
    const w = world([PRESENCE_WATCH]);
    w.batch([{ t: T0, v: 10 }]);
    w.sweep(T0 + 15 * MIN, { lastSeen: T0 });
    const online = presenceOf(w.sweep(T0 + 26 * MIN, { lastSeen: T0 + 24 * MIN }));
    expect(online.map((e) => e.presence)).toEqual([{ online: true, lastSeen: T0 + 24 * MIN, at: T0 + 26 * MIN }]);
  });

  it('a track the sweep sets up starts as the device is, silently: offline (or never seen), then online at its reading', () => {
    const w = world([PRESENCE_WATCH]);
    expect(presenceOf(w.sweep(T0, { lastSeen: T0 - 30 * MIN }))).toEqual([]);
    expect(w.state.tracks.presence).toMatchObject({ phase: 'firing', alert: { lastSeen: T0 - 30 * MIN } });
    expect(presenceOf(w.batch([{ t: T0 + MIN, v: 1 }])).map((e) => e.presence!.online)).toEqual([true]);
    const never = world([PRESENCE_WATCH]);
    expect(presenceOf(never.sweep(T0))).toEqual([]);
    expect(never.state.tracks.presence).toMatchObject({ phase: 'firing' });
  });

  it('the watch gone (no webhook takes presence): the sweep takes the track away and tells nobody', () => {
    const w = world([PRESENCE_WATCH]);
    w.batch([{ t: T0, v: 10 }]);
    w.sweep(T0 + 15 * MIN, { lastSeen: T0 });
    const gone = sweepDevice(w.state, [], {}, ctx(T0 + 16 * MIN))!;
    expect(gone.effects).toEqual([]);
    expect(gone.state.tracks).toEqual({});
    expect(gone.state.dueAt).toBeUndefined();
  });

  it('beside a silence rule: each keeps its own deadline, and the silence still fires as before', () => {
    const silence = rule({ kind: 'silence', afterSeconds: 300 }, { id: 's1', name: 'Silent' });
    const w = world([silence, PRESENCE_WATCH]);
    w.batch([{ t: T0, v: 10 }]);
    expect(w.state.dueAt).toBe(T0 + 5 * MIN + 1);
    w.sweep(T0 + 6 * MIN, { lastSeen: T0 });
    expect(w.notices()).toEqual(['fired']);
    expect(presenceOf(w.changes.at(-1))).toEqual([]);
    w.sweep(T0 + 11 * MIN, { lastSeen: T0 });
    expect(presenceOf(w.changes.at(-1)).map((e) => e.presence!.online)).toEqual([false]);
    w.batch([{ t: T0 + 12 * MIN, v: 10 }]);
    expect(w.notices()).toEqual(['fired', 'resolved']);
    expect(presenceOf(w.changes.at(-1)).map((e) => e.presence!.online)).toEqual([true]);
  });
});

describe('reminders and acknowledgement', () => {
  it('repeats while firing and unacknowledged; an acknowledgement stops them', () => {
    const r = rule(pm(35), { remindEverySeconds: 600 });
    const w = world([r]);
    w.batch([{ t: T0, v: 50 }]);
    const firing = w.state.tracks.r1!.alert!;
    expect(firing.remindAt).toBe(T0 + 1_000 + 10 * MIN);
    // The fired alert's outbox is done: the next look moves to the reminder, telling nobody.
    expect(w.sweep(T0 + 5 * MIN)?.effects).toEqual([]);
    expect(w.state.dueAt).toBe(firing.remindAt);
    expect(w.sweep(T0 + 6 * MIN)).toBeUndefined();
    w.sweep(T0 + 11 * MIN);
    expect(w.notices()).toEqual(['fired', 'reminder']);
    expect(w.changes.at(-1)!.effects[0]!.id).toBe(`${firing.id}#reminder#1`);
    const acked = acknowledgeIn(w.state, r, firing.id, 'u2', ctx(T0 + 12 * MIN))!;
    expect(acked.effects[0]!.record).toMatchObject({ acknowledgedBy: 'u2', acknowledgedAt: T0 + 12 * MIN });
    // No reminder is due any more: only the acknowledgement's own outbox, should it not be done at once.
    expect(acked.state.tracks.r1!.alert!.remindAt).toBeUndefined();
    expect(acked.state.dueAt).toBe(T0 + 12 * MIN + OUTBOX_RETRY_MS);
    // Acknowledged twice: nothing more changes.
    expect(acknowledgeIn(acked.state, r, firing.id, 'u3', ctx(T0 + 13 * MIN))).toBeUndefined();
  });
});

describe('subscription', () => {
  const plan = rule({ kind: 'subscription', daysBefore: 3 }, { id: 'p1' });
  const DAY = 86_400_000;

  it('fires when the trial ends within the days, resolves once the plan renews', () => {
    const w = world([plan]);
    w.sweep(T0, { plan: { status: 'trialing', trialEnd: T0 + 10 * DAY, currentPeriodEnd: T0 + 10 * DAY } });
    expect(w.notices()).toEqual([]);
    // The next look is when the window opens (before the hourly one would be, it is not: an hour).
    expect(w.state.tracks.p1!.checkAt).toBe(T0 + 60 * MIN);
    w.sweep(T0 + 8 * DAY, { plan: { status: 'trialing', trialEnd: T0 + 10 * DAY, currentPeriodEnd: T0 + 10 * DAY } });
    expect(w.notices()).toEqual(['fired']);
    expect(w.changes.at(-1)!.effects[0]!.record).toMatchObject({ endsAt: T0 + 10 * DAY, daysBefore: 3 });
    w.sweep(T0 + 11 * DAY, { plan: { status: 'active', currentPeriodEnd: T0 + 40 * DAY } });
    expect(w.notices()).toEqual(['fired', 'resolved']);
  });

  it('says what lapses: cancelled at period end, a failing payment, a lapsed plan; nothing for no plan', () => {
    expect(planVerdict({ status: 'active', cancelAtPeriodEnd: true, currentPeriodEnd: T0 + 2 * DAY }, 3, T0)).toEqual({
      fires: true,
      reason: 'lapse',
      endsAt: T0 + 2 * DAY,
    });
    expect(planVerdict({ status: 'past_due', currentPeriodEnd: T0 + 1 * DAY }, 3, T0).fires).toBe(true);
    expect(planVerdict({ status: 'active', currentPeriodEnd: T0 + 1 * DAY }, 3, T0).fires).toBe(false);
    expect(planVerdict({ status: 'canceled', currentPeriodEnd: T0 - DAY }, 3, T0).fires).toBe(true);
    expect(planVerdict(null, 3, T0).fires).toBe(false);
  });
});

describe('the sweep closes the tracks of rules that went', () => {
  it('a firing alert of a deleted rule is closed without a notice; a pending one is taken back', () => {
    const w = world([rule(pm(35)), rule(pm(35, { forSeconds: 600 }), { id: 'r2' })]);
    w.batch([{ t: T0, v: 50 }]);
    const gone = sweepDevice(w.state, [], {}, ctx(T0 + MIN))!;
    expect(gone.effects.map((e) => [e.id.split('#')[1], e.close !== undefined, e.remove === true])).toEqual([
      ['closed', true, false],
      ['closed', false, true],
    ]);
    expect(gone.effects.some((e) => e.notice)).toBe(false);
    expect(gone.state.tracks).toEqual({});
  });
});
