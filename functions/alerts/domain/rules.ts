import { thresholdLevels } from '../../../shared/alerts/alert-rules';
import { isStaff } from '../../../shared/auth/groups';
import type { Caller } from '../../../shared/auth/verify-token';
import type { AlertRule, AlertRuleInput, AlertTarget } from '../../../shared/contracts/alerts';
import { MESSAGES } from '../../../shared/messages';
import { MEASUREMENTS } from '../../../shared/sensor-data/measurements';
import type { Access } from '../../_shared/access/access';
import type { StoredRule } from '../../_shared/alerts/alert-model';
import { touchTargets } from '../../_shared/alerts/target-touches';
import { type AuditNote, NO_AUDIT } from '../../_shared/audit/audit-note';
import { BadRequest, Conflict, Forbidden, NotFound } from '../../_shared/errors';
import type { Log } from '../../_shared/logger';
import { cursorPage, pageAcross } from '../../_shared/paging';
import type { RuleStore, StateStore, TargetReader } from './ports';

export interface RuleDeps {
  rules: RuleStore;
  states: Pick<StateStore, 'touch' | 'bumpGeneration'>;
  targets: TargetReader;
  access: Pick<Access, 'forCaller'>;
  /** May this person see the target (a recipient must)? */
  mayView: (userId: string, target: AlertTarget) => Promise<boolean>;
  log: Log;
  now: () => number;
  newId: () => string;
}

interface PageRequest {
  limit: number;
  cursor?: string;
}

/** A refusal in the request's body, named by its field as the contract's own checks name theirs. */
const invalid = (path: string, message: string) =>
  new BadRequest(`Invalid body: ${path}: ${message}`, [{ path: `body.${path}`, message }]);

/** The defaults a rule left out, as evaluation applies them (shown so a person sees what "default" means). */
export const effectiveOf = (rule: Pick<StoredRule, 'condition'>): AlertRule['effective'] => {
  const condition = rule.condition;
  if (condition.kind === 'threshold') {
    const levels = thresholdLevels(condition);
    return {
      ...(levels.direction === 'above' ? { clearBelow: levels.clear } : { clearAbove: levels.clear }),
      clearForSeconds: levels.clearForMs / 1000,
    };
  }
  if (condition.kind === 'silence') return { afterSeconds: condition.afterSeconds ?? null };
  return {};
};

export const ruleView = (rule: StoredRule): AlertRule => ({ ...rule, effective: effectiveOf(rule) });

/**
 * Alert rules (docs/alerts.md, "Rules"): who may set one (manage on its target: a device's owner or administrator, a
 * campaign's or organization's manager, staff), what it may say (a measurement the device sends or the catalogue
 * knows; recipients who may see the target), and what a change sets going: the rule caches forget (the generation
 * moves) and the target's devices become due, so the sweep sets up or closes their tracks.
 */
export const createRules = ({ rules, states, targets, access, mayView, log, now, newId }: RuleDeps) => {
  const mayManage = async (caller: Caller, target: AlertTarget) => {
    const decision = await access.forCaller(caller).check(target.kind, target.id, { need: 'manage' });
    if (!decision.allowed) throw new Forbidden(MESSAGES.alertManageRequired(target.kind));
  };

  const requireView = async (caller: Caller, target: AlertTarget) => {
    await access.forCaller(caller).require(target.kind, target.id);
  };

  /** The body's checks that need the stores: the device, the measurement, the recipients. */
  const check = async (input: AlertRuleInput) => {
    const { target, condition } = input;
    const device = target.kind === 'device' ? await targets.device(target.id) : undefined;
    if (target.kind === 'device' && !device) throw new NotFound(MESSAGES.deviceNotFound(target.id));
    if (condition.kind === 'threshold') {
      const known = condition.measurement in MEASUREMENTS || device?.measurementNames.includes(condition.measurement);
      if (!known) throw invalid('condition.measurement', MESSAGES.alertUnknownMeasurement(condition.measurement));
    }
    const recipients = input.recipients ?? [];
    for (const [i, recipient] of recipients.entries()) {
      if (recipient.kind === 'role' && recipient.role === 'managers' && target.kind === 'device') {
        throw invalid(`recipients.${i}.role`, MESSAGES.alertManagersRole);
      }
      if (recipient.kind === 'person' && !(await mayView(recipient.userId, target))) {
        throw invalid(`recipients.${i}.userId`, MESSAGES.alertRecipientNoAccess(target.kind));
      }
    }
  };

  /** The rule caches forget, and the targets' devices become due: the sweep sets up or closes their tracks. */
  const propagate = async (...changed: AlertTarget[]) => {
    const devices = await touchTargets({ states, devicesOf: (target) => targets.devicesOf(target), now }, changed);
    log('info', 'Alert rule change propagated', { devices });
  };

  const load = async (id: string): Promise<StoredRule> => {
    const rule = await rules.get(id);
    if (!rule) throw new NotFound(MESSAGES.alertRuleNotFound(id));
    return rule;
  };

  const stored = (input: AlertRuleInput, base: Pick<StoredRule, 'id' | 'createdBy' | 'created'>, at: number) => ({
    ...base,
    name: input.name,
    target: input.target,
    condition: input.condition,
    recipients: input.recipients ?? [],
    ...(input.remindEverySeconds === undefined ? {} : { remindEverySeconds: input.remindEverySeconds }),
    enabled: input.enabled,
    updated: at,
  });

  return {
    create: async (caller: Caller, input: AlertRuleInput): Promise<AlertRule> => {
      await mayManage(caller, input.target);
      await check(input);
      const at = now();
      const rule: StoredRule = stored(input, { id: newId(), createdBy: caller.sub, created: at }, at);
      if (!(await rules.create(rule))) throw new Conflict(MESSAGES.alertChanged);
      await propagate(rule.target);
      return ruleView(rule);
    },

    get: async (caller: Caller, id: string): Promise<AlertRule> => {
      const rule = await load(id);
      await requireView(caller, rule.target);
      return ruleView(rule);
    },

    update: async (caller: Caller, id: string, input: AlertRuleInput, audit: AuditNote = NO_AUDIT) => {
      const old = await load(id);
      await mayManage(caller, old.target);
      if (input.target.kind !== old.target.kind || input.target.id !== old.target.id)
        await mayManage(caller, input.target);
      audit.label(old.name);
      audit.before(old);
      await check(input);
      const at = Math.max(now(), old.updated + 1);
      const rule: StoredRule = stored(input, old, at);
      if (!(await rules.replace(rule, old.updated))) throw new Conflict(MESSAGES.alertChanged);
      await propagate(old.target, ...(rule.target.id === old.target.id ? [] : [rule.target]));
      return ruleView(rule);
    },

    remove: async (caller: Caller, id: string, audit: AuditNote = NO_AUDIT): Promise<void> => {
      const rule = await load(id);
      await mayManage(caller, rule.target);
      audit.label(rule.name);
      audit.before(rule);
      await rules.remove(id);
      await propagate(rule.target);
    },

    /**
     * A device's rules (its own, its campaigns' and its organization's), a campaign's or an organization's, each
     * needing view on it; without a filter the caller's own (staff: every rule).
     */
    list: async (
      caller: Caller,
      filter: { deviceId?: string; campaignId?: string; organizationId?: string },
      request: PageRequest,
    ) => {
      const page = async (sources: Parameters<typeof pageAcross<StoredRule>>[0]) => {
        const result = await pageAcross(sources, request);
        return { ...result, items: result.items.map(ruleView) };
      };
      const ofTarget = (target: AlertTarget) => (startKey: Record<string, unknown> | undefined, limit: number) =>
        rules.byTarget(target, { limit, startKey });
      if (filter.deviceId !== undefined) {
        const device: AlertTarget = { kind: 'device', id: filter.deviceId };
        await requireView(caller, device);
        const held = await targets.holdersOf(filter.deviceId);
        return page([device, ...held].map(ofTarget));
      }
      const target: AlertTarget | undefined =
        filter.campaignId !== undefined
          ? { kind: 'campaign', id: filter.campaignId }
          : filter.organizationId !== undefined
            ? { kind: 'organization', id: filter.organizationId }
            : undefined;
      if (target) {
        await requireView(caller, target);
        return page([ofTarget(target)]);
      }
      const staff = isStaff(caller.groups);
      const result = await cursorPage(
        (startKey, limit) =>
          staff ? rules.listAll({ limit, startKey }) : rules.byCreator(caller.sub, { limit, startKey }),
        request,
      );
      return { ...result, items: result.items.map(ruleView) };
    },
  };
};

export type Rules = ReturnType<typeof createRules>;
