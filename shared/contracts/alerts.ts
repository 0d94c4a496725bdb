import * as z from 'zod';
import {
  MAX_DAYS_BEFORE,
  MAX_DURATION_SECONDS,
  MAX_RECIPIENTS,
  MIN_REMIND_SECONDS,
  MIN_SILENCE_SECONDS,
} from '../alerts/alert-rules';
import { MeasurementName } from '../sensor-data/measurements';
import { SafeText } from '../text/sanitize';
import { EpochMillis, PageQuery, page } from './common';
import { defineArea, defineRoute, signedIn } from './define-route';
import { ObjectId, UserId } from './shapes';

/**
 * The alerts area (docs/alerts.md): rules that watch a device, a campaign's devices or an organization's, and the
 * alerts they raise. A rule's JSON is the one issue 37 gives; its names are public API.
 */

const Seconds = (label: string, { min = 0, max = MAX_DURATION_SECONDS } = {}) =>
  z
    .number({ error: `${label} must be a number of seconds` })
    .int(`${label} must be whole seconds`)
    .min(min, min === 0 ? `${label} cannot be negative` : `${label} is at least ${min} seconds`)
    .max(max, `${label} is at most ${max} seconds`);

const Level = (label: string) => z.number({ error: `${label} must be a number` });

export const TargetKind = z.enum(['device', 'campaign', 'organization'], {
  error: () => 'Target kind must be device, campaign or organization',
});
export type TargetKind = z.infer<typeof TargetKind>;

/** What a rule watches: one device, or every device of a campaign or of an organization. */
export const AlertTarget = z.object({ kind: TargetKind, id: ObjectId }).strict();
export type AlertTarget = z.infer<typeof AlertTarget>;

const ThresholdCondition = z
  .object({
    kind: z.literal('threshold'),
    measurement: MeasurementName,
    above: Level('The limit (above)').optional(),
    below: Level('The limit (below)').optional(),
    /** How long the value must stay past the limit before the alert fires; 0 fires at once. */
    forSeconds: Seconds('forSeconds').default(0),
    /** The value it must fall back below to clear (`above` rules); default 10 % of the limit back from it. */
    clearBelow: Level('clearBelow').optional(),
    /** The value it must rise back above to clear (`below` rules); default 10 % of the limit back from it. */
    clearAbove: Level('clearAbove').optional(),
    /** How long the value must stay cleared; default `forSeconds`. */
    clearForSeconds: Seconds('clearForSeconds').optional(),
  })
  .strict()
  .superRefine((c, ctx) => {
    if ((c.above === undefined) === (c.below === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['above'], message: 'Give exactly one limit: above or below' });
      return;
    }
    if (c.above !== undefined) {
      if (c.clearAbove !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['clearAbove'], message: 'An "above" rule clears below: use clearBelow' });
      }
      if (c.clearBelow !== undefined && c.clearBelow > c.above) {
        ctx.addIssue({ code: 'custom', path: ['clearBelow'], message: 'clearBelow cannot be above the limit' });
      }
    }
    if (c.below !== undefined) {
      if (c.clearBelow !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['clearBelow'], message: 'A "below" rule clears above: use clearAbove' });
      }
      if (c.clearAbove !== undefined && c.clearAbove < c.below) {
        ctx.addIssue({ code: 'custom', path: ['clearAbove'], message: 'clearAbove cannot be below the limit' });
      }
    }
  });

const SilenceCondition = z
  .object({
    kind: z.literal('silence'),
    /** No reading for longer than this; absent: twice the device's usual interval, never under 5 minutes. */
    afterSeconds: Seconds('afterSeconds', { min: MIN_SILENCE_SECONDS }).optional(),
  })
  .strict();

const SubscriptionCondition = z
  .object({
    kind: z.literal('subscription'),
    /** Fires when the device's subscription lapses, or its trial ends, within this many days. */
    daysBefore: z
      .number({ error: 'daysBefore must be a number of days' })
      .int('daysBefore must be whole days')
      .min(0, 'daysBefore cannot be negative')
      .max(MAX_DAYS_BEFORE, `daysBefore is at most ${MAX_DAYS_BEFORE}`)
      .default(7),
  })
  .strict();

export const AlertCondition = z.discriminatedUnion(
  'kind',
  [ThresholdCondition, SilenceCondition, SubscriptionCondition],
  {
    error: () => 'Condition kind must be threshold, silence or subscription',
  },
);
export type AlertCondition = z.infer<typeof AlertCondition>;
export type ConditionKind = AlertCondition['kind'];

/**
 * Who hears of the rule's alerts: people with access to its target (picked from the people who have it), and the
 * target's people by role, resolved when the alert fires: `device-owners` and `device-administrators` of the device
 * that fired, `managers` of the campaign or organization.
 */
export const RecipientRole = z.enum(['device-owners', 'device-administrators', 'managers'], {
  error: () => 'Role must be device-owners, device-administrators or managers',
});
export type RecipientRole = z.infer<typeof RecipientRole>;

export const Recipient = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('person'), userId: UserId }).strict(),
    z.object({ kind: z.literal('role'), role: RecipientRole }).strict(),
  ],
  { error: () => 'A recipient is a person (userId) or a role' },
);
export type Recipient = z.infer<typeof Recipient>;

const ruleFields = {
  name: SafeText('Name', 100),
  target: AlertTarget,
  condition: AlertCondition,
  recipients: z.array(Recipient).max(MAX_RECIPIENTS, `At most ${MAX_RECIPIENTS} recipients`).optional(),
  /** Repeats the notification while the alert fires and nobody has acknowledged it. */
  remindEverySeconds: Seconds('remindEverySeconds', { min: MIN_REMIND_SECONDS }).optional(),
  enabled: z.boolean({ error: 'enabled must be true or false' }).default(true),
};

export const AlertRuleInput = z.object(ruleFields).strict();
export type AlertRuleInput = z.infer<typeof AlertRuleInput>;

/** The defaults a rule left out, as evaluation applies them. */
export const EffectiveCondition = z.object({
  clearBelow: z.number().optional(),
  clearAbove: z.number().optional(),
  clearForSeconds: z.number().optional(),
  /** Silence: the rule's own, or null when learned per device (twice its interval, at least 5 minutes). */
  afterSeconds: z.number().nullable().optional(),
});

export const AlertRule = z.object({
  id: z.string(),
  name: z.string(),
  target: AlertTarget,
  condition: AlertCondition,
  /** As given; empty means the defaults (the device's owners and administrators, or the target's managers). */
  recipients: z.array(Recipient),
  remindEverySeconds: z.number().optional(),
  enabled: z.boolean(),
  effective: EffectiveCondition,
  createdBy: z.string(),
  created: EpochMillis,
  updated: EpochMillis,
});
export type AlertRule = z.infer<typeof AlertRule>;

export const AlertState = z.enum(['pending', 'firing', 'resolved'], {
  error: () => 'State must be pending, firing or resolved',
});
export type AlertState = z.infer<typeof AlertState>;

/**
 * An alert: one episode of a rule's condition on one device, a state rather than a stream of messages. `startedAt`
 * is when the condition became true, `firedAt` when the alert fired (after `forSeconds`; a silence when it was seen),
 * `resolvedAt` when it cleared.
 */
export const Alert = z.object({
  id: z.string(),
  ruleId: z.string(),
  ruleName: z.string(),
  deviceId: z.string(),
  condition: z.enum(['threshold', 'silence', 'subscription']),
  state: AlertState,
  startedAt: EpochMillis,
  firedAt: EpochMillis.optional(),
  resolvedAt: EpochMillis.optional(),
  measurement: z.string().optional(),
  direction: z.enum(['above', 'below']).optional(),
  limit: z.number().optional(),
  clearLevel: z.number().optional(),
  /** The value that fired it (threshold). */
  value: z.number().optional(),
  /** The value that cleared it (threshold). */
  resolvedValue: z.number().optional(),
  afterSeconds: z.number().optional(),
  daysBefore: z.number().optional(),
  /** Subscription: when the tier lapses or the trial ends (ms). */
  endsAt: EpochMillis.optional(),
  acknowledgedBy: z.string().optional(),
  acknowledgedAt: EpochMillis.optional(),
  reminders: z.number().int(),
  updated: EpochMillis,
});
export type Alert = z.infer<typeof Alert>;

const RangeBound = (label: string) => EpochMillis.describe(`${label} (ms)`);

const PreviewInput = AlertRuleInput.extend({
  name: SafeText('Name', 100).optional(),
  /** Start of the backtest (ms); default 7 days before `to`. */
  from: RangeBound('from').optional(),
  /** End of the backtest (ms); default now. */
  to: RangeBound('to').optional(),
  /** The device whose data a campaign's or organization's rule is tried on. */
  deviceId: ObjectId.optional(),
}).superRefine((body, ctx) => {
  if (body.from !== undefined && body.to !== undefined && body.from >= body.to) {
    ctx.addIssue({ code: 'custom', path: ['from'], message: 'from must be before to' });
  }
});

/** One period in which the rule would have fired, and when it would have cleared (absent: still firing at `to`). */
export const PreviewPeriod = z.object({
  firedAt: EpochMillis,
  clearedAt: EpochMillis.optional(),
  /** The value that would have fired it (threshold). */
  value: z.number().optional(),
  /** The furthest value past the limit while it fired (threshold). */
  peak: z.number().optional(),
});
export type PreviewPeriod = z.infer<typeof PreviewPeriod>;

export const AlertPreview = z.object({
  deviceId: z.string(),
  from: EpochMillis,
  to: EpochMillis,
  /** Readings the backtest went through (at most 20,000: `truncated` says it stopped there). */
  readings: z.number().int(),
  truncated: z.boolean(),
  periods: z.array(PreviewPeriod),
  limit: z.number().optional(),
  clearLevel: z.number().optional(),
  afterSeconds: z.number().optional(),
});
export type AlertPreview = z.infer<typeof AlertPreview>;

const RuleListQuery = PageQuery.extend({
  deviceId: ObjectId.optional(),
  campaignId: ObjectId.optional(),
  organizationId: ObjectId.optional(),
});

const EventListQuery = PageQuery.extend({
  deviceId: ObjectId.optional(),
  ruleId: z.string().min(1).max(128).optional(),
  state: AlertState.optional(),
  from: z.coerce.number().int().nonnegative().optional(),
  to: z.coerce.number().int().nonnegative().optional(),
  /** Without deviceId or ruleId: `mine` (the caller's devices), or `all` (staff). */
  scope: z.enum(['mine', 'all']).default('mine'),
}).superRefine((query, ctx) => {
  if (query.from !== undefined && query.to !== undefined && query.from > query.to) {
    ctx.addIssue({ code: 'custom', path: ['from'], message: 'from must not be after to' });
  }
});

const RuleId = z.object({ id: z.string().min(1).max(128) });
const AlertId = z.object({ id: z.string().min(1).max(128) });

export const alerts = defineArea('alerts', {
  createRule: defineRoute({
    method: 'POST',
    path: '/alerts/rules',
    access: signedIn,
    summary:
      "Create an alert rule on a device, a campaign's devices or an organization's; needs manage on the target (docs/alerts.md).",
    body: AlertRuleInput,
    response: AlertRule,
    status: 201,
  }),
  listRules: defineRoute({
    method: 'GET',
    path: '/alerts/rules',
    access: signedIn,
    summary:
      'Alert rules, paged: of a device (its own, its campaigns’ and its organization’s), a campaign or an organization the caller may see; without a filter the caller’s own (staff: all).',
    query: RuleListQuery,
    response: page(AlertRule),
  }),
  previewRule: defineRoute({
    method: 'POST',
    path: '/alerts/rules/preview',
    access: signedIn,
    summary:
      'Backtest a rule (the same body plus from and to, default the last 7 days): the periods in which it would have fired and cleared over the device’s data.',
    body: PreviewInput,
    response: AlertPreview,
  }),
  getRule: defineRoute({
    method: 'GET',
    path: '/alerts/rules/{id}',
    access: signedIn,
    summary: 'One alert rule; needs view on its target.',
    params: RuleId,
    response: AlertRule,
  }),
  updateRule: defineRoute({
    method: 'PUT',
    path: '/alerts/rules/{id}',
    access: signedIn,
    summary: 'Replace an alert rule (the whole body, as at creation); needs manage on its target.',
    params: RuleId,
    body: AlertRuleInput,
    response: AlertRule,
  }),
  deleteRule: defineRoute({
    method: 'DELETE',
    path: '/alerts/rules/{id}',
    access: signedIn,
    summary: 'Delete an alert rule; its open alerts close. Needs manage on its target.',
    params: RuleId,
    response: z.void(),
  }),
  listEvents: defineRoute({
    method: 'GET',
    path: '/alerts/events',
    access: signedIn,
    summary:
      'Alerts, newest first, paged: by device, rule, state and time; without a device or rule the caller’s devices’ (staff: scope=all for every device).',
    query: EventListQuery,
    response: page(Alert),
  }),
  acknowledgeEvent: defineRoute({
    method: 'POST',
    path: '/alerts/events/{id}/acknowledge',
    access: signedIn,
    summary: 'Acknowledge an alert (who and when are kept; reminders stop); needs view on its device.',
    params: AlertId,
    response: Alert,
  }),
});
