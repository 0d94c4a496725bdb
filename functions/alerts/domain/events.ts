import { isStaff } from '../../../shared/auth/groups';
import type { Caller } from '../../../shared/auth/verify-token';
import type { Alert, AlertState } from '../../../shared/contracts/alerts';
import { MESSAGES } from '../../../shared/messages';
import type { Access } from '../../_shared/access/access';
import type { Effects } from '../../_shared/alerts/alert-effects';
import type { AlertRecord } from '../../_shared/alerts/alert-model';
import { type AlertFilter, publicAlert } from '../../_shared/alerts/alert-table';
import { acknowledgeIn } from '../../_shared/alerts/evaluation';
import { isAtRest } from '../../_shared/alerts/rest-marks';
import { type AuditNote, NO_AUDIT } from '../../_shared/audit/audit-note';
import { decodeCursor, encodeCursor } from '../../_shared/cursor';
import { BadRequest, Conflict, Forbidden, NotFound } from '../../_shared/errors';
import { inLanes } from '../../_shared/in-lanes';
import type { Log } from '../../_shared/logger';
import { cursorPage } from '../../_shared/paging';
import type { AlertStore, RuleStore, StateStore, TargetReader } from './ports';

export interface EventDeps {
  alerts: AlertStore;
  rules: Pick<RuleStore, 'get'>;
  states: Pick<StateStore, 'get' | 'write'>;
  effects: Pick<Effects, 'deliver'>;
  targets: Pick<TargetReader, 'devicesOfPerson'>;
  access: Pick<Access, 'forCaller'>;
  log: Log;
  now: () => number;
}

export interface EventQuery {
  limit: number;
  cursor?: string;
  deviceId?: string;
  ruleId?: string;
  state?: AlertState;
  from?: number;
  to?: number;
  scope: 'mine' | 'all';
}

/** A person's devices whose alerts "mine" gathers: their relations' devices, at most this many. */
export const MINE_DEVICES = 200;
/** Reads of one device's alerts for one page of "mine", before its part is cut at where it stopped. */
const ROUNDS = 5;
const WRITE_TRIES = 5;

const newestFirst = (a: AlertRecord, b: AlertRecord) => b.startedAt - a.startedAt || (a.id < b.id ? 1 : -1);

/**
 * Alerts (docs/alerts.md, "Alerts"): a device's or a rule's for whoever may see the device or the rule's target, every
 * device's for staff, and a person's own devices' merged newest first; and a person acknowledging one.
 */
export const createEvents = ({ alerts, rules, states, effects, targets, access, log, now }: EventDeps) => {
  const filterOf = (query: EventQuery): AlertFilter => ({
    ...(query.state ? { state: query.state } : {}),
    ...(query.from === undefined ? {} : { from: query.from }),
    ...(query.to === undefined ? {} : { to: query.to }),
  });

  const view = (page: { items: AlertRecord[]; nextCursor?: string }) => ({
    ...page,
    items: page.items.map(publicAlert),
  });

  /**
   * The alerts of many devices, newest first, as one page: each device read until it has more than a page (or
   * ROUNDS reads), merged; where a device stopped early its part ends, and the page stops there too, so no alert
   * is passed over. The cursor is the last alert shown.
   */
  const merged = async (deviceIds: readonly string[], query: EventQuery) => {
    const at = decodeCursor(query.cursor);
    if (at && (typeof at.b !== 'number' || typeof at.i !== 'string')) throw new BadRequest(MESSAGES.invalidCursor);
    const before = at ? (at.b as number) : undefined;
    const filter = filterOf(query);
    const shownBefore = (alert: AlertRecord) =>
      before === undefined || alert.startedAt < before || (alert.startedAt === before && alert.id < (at!.i as string));
    const parts = await inLanes(deviceIds, 16, async (deviceId) => {
      const items: AlertRecord[] = [];
      let startKey: Record<string, unknown> | undefined;
      let rounds = 0;
      do {
        const page = await alerts.byDevice(
          deviceId,
          { ...filter, ...(before === undefined ? {} : { to: Math.min(filter.to ?? before, before) }) },
          { limit: 100, startKey },
        );
        items.push(...page.items.filter(shownBefore));
        startKey = page.lastKey;
        rounds += 1;
      } while (startKey && items.length <= query.limit && rounds < ROUNDS);
      return { items, floor: startKey ? Number(startKey.startedAt) : Number.NEGATIVE_INFINITY };
    });
    const floor = Math.max(...parts.map((part) => part.floor), Number.NEGATIVE_INFINITY);
    const visible = parts
      .flatMap((part) => part.items)
      .filter((alert) => alert.startedAt >= floor)
      .sort(newestFirst);
    const shown = visible.slice(0, query.limit);
    const more = visible.length > query.limit || floor > Number.NEGATIVE_INFINITY;
    const last = shown.at(-1);
    const nextCursor = !more ? undefined : last ? { b: last.startedAt, i: last.id } : { b: floor + 1, i: '' };
    return { items: shown.map(publicAlert), ...(nextCursor ? { nextCursor: encodeCursor(nextCursor)! } : {}) };
  };

  return {
    list: async (caller: Caller, query: EventQuery) => {
      const filter = filterOf(query);
      const page = { limit: query.limit, cursor: query.cursor };
      if (query.deviceId !== undefined) {
        const deviceId = query.deviceId;
        await access.forCaller(caller).require('device', deviceId);
        return view(
          await cursorPage((startKey, limit) => alerts.byDevice(deviceId, filter, { limit, startKey }), page),
        );
      }
      if (query.ruleId !== undefined) {
        const ruleId = query.ruleId;
        const rule = await rules.get(ruleId);
        if (!rule) throw new NotFound(MESSAGES.alertRuleNotFound(ruleId));
        await access.forCaller(caller).require(rule.target.kind, rule.target.id);
        return view(await cursorPage((startKey, limit) => alerts.byRule(ruleId, filter, { limit, startKey }), page));
      }
      if (query.scope === 'all') {
        if (!isStaff(caller.groups)) throw new Forbidden(MESSAGES.alertScopeAll);
        return view(await cursorPage((startKey, limit) => alerts.all(filter, { limit, startKey }), page));
      }
      return merged(await targets.devicesOfPerson(caller.sub, MINE_DEVICES), query);
    },

    /**
     * A person who may see the device acknowledges an alert: who and when are kept (the first to acknowledge), its
     * reminders stop. An open alert is acknowledged in the device's state (so the sweep reminds no more) and its
     * record projected from there; a resolved one on its record.
     */
    acknowledge: async (caller: Caller, id: string, audit: AuditNote = NO_AUDIT): Promise<Alert> => {
      const record = await alerts.get(id);
      if (!record) throw new NotFound(MESSAGES.alertNotFound(id));
      await access.forCaller(caller).require('device', record.deviceId);
      audit.label(record.ruleName);
      audit.before(publicAlert(record));
      const rule = record.state === 'resolved' ? undefined : await rules.get(record.ruleId);
      if (rule) {
        for (let attempt = 0; attempt < WRITE_TRIES; attempt += 1) {
          const state = await states.get(record.deviceId, true);
          const change = acknowledgeIn(state, rule, id, caller.sub, { now: now(), newId: () => id });
          if (!change) break;
          if (await states.write(change.state, state.version, isAtRest(state))) {
            await effects.deliver(record.deviceId, change.effects).catch((error: unknown) =>
              log('warn', 'Acknowledgement left for the sweep', {
                id,
                error: error instanceof Error ? error.message : String(error),
              }),
            );
            const projected = change.effects.find((effect) => effect.alertId === id)?.record;
            if (projected) return publicAlert(projected);
          }
          if (attempt === WRITE_TRIES - 1) throw new Conflict(MESSAGES.alertChanged);
        }
      }
      const acknowledged = await alerts.acknowledge(id, caller.sub, now());
      if (!acknowledged) throw new NotFound(MESSAGES.alertNotFound(id));
      return publicAlert(acknowledged);
    },
  };
};

export type Events = ReturnType<typeof createEvents>;
