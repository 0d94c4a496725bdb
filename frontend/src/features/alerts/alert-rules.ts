import type * as z from 'zod';
import { type Direction, defaultClearLevel, durationWords, SECOND_MS } from '../../../../shared/alerts/alert-rules';
import {
  type Alert,
  type AlertPreview,
  type AlertRule,
  type Recipient,
  type RecipientRole,
  AlertRuleInput as RuleSchema,
} from '../../../../shared/contracts/alerts';
import { labelOf, unitOf } from '../../../../shared/sensor-data/measurements';
import { type Checked, checkWith, problem } from '../../lib/form-check';
import type { ChartOverlay, ChartOverlays } from '../sensor-data/public-overlay-chart';

/**
 * The alerts screens' rules (docs/alerts.md, "Screens"): a rule and an alert in words, what they draw on a device's
 * charts, and the rule form's fields to and from the rule's JSON.
 */

const amount = (value: number, unit: string | undefined) => `${value}${unit ? ` ${unit}` : ''}`;

/** "PM2.5 above 35 µg/m³ for 2 min; clears below 31.5 µg/m³", "No reading for 10 min", "Plan ends within 7 days". */
export const conditionText = (rule: Pick<AlertRule, 'condition' | 'effective'>, units?: Record<string, string>) => {
  const c = rule.condition;
  if (c.kind === 'threshold') {
    const unit = unitOf(c.measurement, units);
    const direction: Direction = c.above !== undefined ? 'above' : 'below';
    const limit = (c.above ?? c.below)!;
    const clear = (direction === 'above' ? rule.effective.clearBelow : rule.effective.clearAbove) ?? limit;
    const held = c.forSeconds ? ` for ${durationWords(c.forSeconds * SECOND_MS)}` : '';
    return `${labelOf(c.measurement)} ${direction} ${amount(limit, unit)}${held}; clears ${direction === 'above' ? 'below' : 'above'} ${amount(clear, unit)}`;
  }
  if (c.kind === 'silence') {
    return c.afterSeconds === undefined
      ? 'No reading for twice its usual interval (at least 5 min)'
      : `No reading for ${durationWords(c.afterSeconds * SECOND_MS)}`;
  }
  return `Its plan lapses or its trial ends within ${c.daysBefore} day${c.daysBefore === 1 ? '' : 's'}`;
};

export type RuleStatus = 'firing' | 'pending' | 'ok' | 'off';

/** A rule's state on the device: its open alert's, else quiet, or off when switched off. */
export const ruleStatus = (rule: Pick<AlertRule, 'id' | 'enabled'>, alerts: readonly Alert[]): RuleStatus => {
  if (!rule.enabled) return 'off';
  const open = alerts.find((a) => a.ruleId === rule.id && a.state !== 'resolved');
  return open ? (open.state === 'firing' ? 'firing' : 'pending') : 'ok';
};

/** How many firing alerts a page of the alerts page's "Firing now" holds. */
export const FIRING_PAGE = 100;

/**
 * What fires now in the order a person reads it: the one that fired last first. The API pages alerts by when they
 * started, which for a rule held for its time (`forSeconds`) or a silence is earlier than when it fired.
 */
export const lastFiredFirst = (alerts: readonly Alert[]): Alert[] =>
  [...alerts].sort((a, b) => (b.firedAt ?? b.startedAt) - (a.firedAt ?? a.startedAt) || b.startedAt - a.startedAt);

export const STATUS_TEXT: Record<RuleStatus | Alert['state'], string> = {
  firing: 'Firing',
  pending: 'Pending',
  resolved: 'Resolved',
  ok: 'Quiet',
  off: 'Off',
};

/**
 * What a device's alerts draw on its charts: each threshold rule's limit as a line on its measurement's chart, each
 * alert's firing period (to its resolution, or now) as a shaded band, a silence's on every chart.
 */
export const overlaysOf = (rules: readonly AlertRule[], alerts: readonly Alert[]): ChartOverlays => {
  const overlays: ChartOverlays = {};
  const of = (key: string): ChartOverlay => {
    overlays[key] ??= { bands: [], lines: [] };
    return overlays[key];
  };
  for (const rule of rules) {
    const c = rule.condition;
    if (!rule.enabled || c.kind !== 'threshold') continue;
    const direction = c.above !== undefined ? 'above' : 'below';
    const limit = (c.above ?? c.below)!;
    of(c.measurement).lines.push({ value: limit, label: `${rule.name}: ${direction} ${limit}`, tone: 'limit' });
  }
  for (const alert of alerts) {
    if (alert.firedAt === undefined) continue;
    const band = {
      from: alert.firedAt,
      ...(alert.resolvedAt === undefined ? {} : { to: alert.resolvedAt }),
      label: `${alert.ruleName} firing`,
      tone: 'firing' as const,
    };
    if (alert.condition === 'threshold' && alert.measurement) of(alert.measurement).bands.push(band);
    else if (alert.condition === 'silence') of('*').bands.push(band);
  }
  return overlays;
};

/** A preview's marks on the measurement's chart: each period it would have fired, its limit and clear level. */
export const previewOverlay = (preview: AlertPreview): ChartOverlay => ({
  bands: preview.periods.map((period) => ({
    from: period.firedAt,
    ...(period.clearedAt === undefined ? {} : { to: period.clearedAt }),
    label: 'Would have fired',
    tone: 'preview' as const,
  })),
  lines: [
    ...(preview.limit === undefined
      ? []
      : [{ value: preview.limit, label: `Limit ${preview.limit}`, tone: 'limit' as const }]),
    ...(preview.clearLevel === undefined || preview.clearLevel === preview.limit
      ? []
      : [{ value: preview.clearLevel, label: `Clears at ${preview.clearLevel}`, tone: 'clear' as const }]),
  ],
});

/** "Would have fired 3 times in these 7 days", "Would not have fired in these 7 days". */
export const previewSummary = (preview: AlertPreview): string => {
  const days = Math.max(1, Math.round((preview.to - preview.from) / 86_400_000));
  const span = days === 1 ? 'this day' : `these ${days} days`;
  const n = preview.periods.length;
  if (n === 0) return `Would not have fired in ${span} (${preview.readings} readings).`;
  return `Would have fired ${n === 1 ? 'once' : `${n} times`} in ${span} (${preview.readings} readings).`;
};

/** A rule's body as sent (its defaults not yet applied). */
export type RuleBody = z.input<typeof RuleSchema>;

/** The rule form's fields, as text where a person types a number. */
export interface RuleFields {
  name: string;
  kind: 'threshold' | 'silence' | 'subscription';
  measurement: string;
  direction: Direction;
  limit: string;
  /** Minutes the value must stay past the limit (0: at once). */
  forMinutes: string;
  /** Empty: the default, 10 % of the limit back from it. */
  clearLevel: string;
  /** Empty: as long as forMinutes. */
  clearForMinutes: string;
  /** Empty: learned (twice the device's usual interval, at least 5 min). */
  afterMinutes: string;
  daysBefore: string;
  /** Empty: no reminders. */
  remindMinutes: string;
  roles: RecipientRole[];
  people: string[];
  enabled: boolean;
}

export const NEW_RULE: RuleFields = {
  name: '',
  kind: 'threshold',
  measurement: 'pm2_5',
  direction: 'above',
  limit: '',
  forMinutes: '0',
  clearLevel: '',
  clearForMinutes: '',
  afterMinutes: '',
  daysBefore: '7',
  remindMinutes: '',
  roles: [],
  people: [],
  enabled: true,
};

const minutesText = (seconds: number | undefined) => (seconds === undefined ? '' : String(seconds / 60));

/** A rule's JSON as the form's fields (editing it). */
export const fieldsOf = (rule: AlertRule): RuleFields => {
  const c = rule.condition;
  const base: RuleFields = {
    ...NEW_RULE,
    name: rule.name,
    kind: c.kind,
    remindMinutes: minutesText(rule.remindEverySeconds),
    roles: rule.recipients.flatMap((r) => (r.kind === 'role' ? [r.role] : [])),
    people: rule.recipients.flatMap((r) => (r.kind === 'person' ? [r.userId] : [])),
    enabled: rule.enabled,
  };
  if (c.kind === 'threshold') {
    return {
      ...base,
      measurement: c.measurement,
      direction: c.above !== undefined ? 'above' : 'below',
      limit: String(c.above ?? c.below),
      forMinutes: minutesText(c.forSeconds),
      clearLevel: String(c.clearBelow ?? c.clearAbove ?? ''),
      clearForMinutes: minutesText(c.clearForSeconds),
    };
  }
  if (c.kind === 'silence') return { ...base, afterMinutes: minutesText(c.afterSeconds) };
  return { ...base, daysBefore: String(c.daysBefore) };
};

/** What the clear level field means when left empty: "31.5 (10 % back from the limit)". */
export const clearHint = (fields: Pick<RuleFields, 'direction' | 'limit'>): string | undefined => {
  const limit = Number(fields.limit);
  if (fields.limit.trim() === '' || !Number.isFinite(limit)) return undefined;
  return `Empty: ${defaultClearLevel(fields.direction, limit)} (10 % of the limit back from it).`;
};

/** A typed number, or the text itself (so the contract's check names it "must be a number"). */
const numberOf = (text: string): number | string => {
  const trimmed = text.trim();
  const value = Number(trimmed);
  return trimmed !== '' && Number.isFinite(value) ? value : trimmed;
};

const seconds = (minutes: string): number | string => {
  const value = numberOf(minutes);
  return typeof value === 'number' ? Math.round(value * 60) : value;
};

/** The fields as the rule's JSON, checked with the contract's own schema (the words the API would answer with). */
export const ruleInputOf = (fields: RuleFields, deviceId: string): Checked<RuleBody> => {
  const recipients: Recipient[] = [
    ...fields.roles.map((role) => ({ kind: 'role' as const, role })),
    ...fields.people.map((userId) => ({ kind: 'person' as const, userId })),
  ];
  const condition =
    fields.kind === 'threshold'
      ? {
          kind: 'threshold' as const,
          measurement: fields.measurement,
          [fields.direction]: numberOf(fields.limit),
          forSeconds: seconds(fields.forMinutes || '0'),
          ...(fields.clearLevel.trim()
            ? { [fields.direction === 'above' ? 'clearBelow' : 'clearAbove']: numberOf(fields.clearLevel) }
            : {}),
          ...(fields.clearForMinutes.trim() ? { clearForSeconds: seconds(fields.clearForMinutes) } : {}),
        }
      : fields.kind === 'silence'
        ? {
            kind: 'silence' as const,
            ...(fields.afterMinutes.trim() ? { afterSeconds: seconds(fields.afterMinutes) } : {}),
          }
        : { kind: 'subscription' as const, daysBefore: numberOf(fields.daysBefore) };
  if (fields.kind === 'threshold' && fields.limit.trim() === '') return problem('limit', 'Give the limit: a number');
  const body = {
    name: fields.name,
    target: { kind: 'device' as const, id: deviceId },
    condition,
    ...(recipients.length ? { recipients } : {}),
    ...(fields.remindMinutes.trim() ? { remindEverySeconds: seconds(fields.remindMinutes) } : {}),
    enabled: fields.enabled,
  } as RuleBody;
  const checked = checkWith(RuleSchema, body);
  if (checked.ok) return checked;
  // The schema names `condition`: the form's field is the number inside it, as the issue's path says.
  return { ...checked, fields: { ...checked.fields, ...conditionFields(body) } };
};

/** Each condition issue under the form field it is about (`condition.above` → `limit`). */
const conditionFields = (body: RuleBody): Record<string, string> => {
  const parsed = RuleSchema.safeParse(body);
  if (parsed.success) return {};
  const fields: Record<string, string> = {};
  const FIELD: Record<string, keyof RuleFields> = {
    above: 'limit',
    below: 'limit',
    forSeconds: 'forMinutes',
    clearBelow: 'clearLevel',
    clearAbove: 'clearLevel',
    clearForSeconds: 'clearForMinutes',
    afterSeconds: 'afterMinutes',
    daysBefore: 'daysBefore',
    measurement: 'measurement',
  };
  for (const issue of parsed.error.issues) {
    if (issue.path[0] === 'condition' && typeof issue.path[1] === 'string' && FIELD[issue.path[1]]) {
      fields[FIELD[issue.path[1]]!] ??= issue.message;
    }
    if (issue.path[0] === 'remindEverySeconds') fields.remindMinutes ??= issue.message;
  }
  return fields;
};
