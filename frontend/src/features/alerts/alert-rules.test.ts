import type { Alert, AlertRule } from '../../../../shared/contracts/alerts';
import {
  conditionText,
  fieldsOf,
  lastFiredFirst,
  NEW_RULE,
  overlaysOf,
  previewSummary,
  ruleInputOf,
  ruleStatus,
} from './alert-rules';

const rule = (extra: Partial<AlertRule> = {}): AlertRule => ({
  id: 'r1',
  name: 'PM high',
  target: { kind: 'device', id: 'd1' },
  condition: { kind: 'threshold', measurement: 'pm2_5', above: 35, forSeconds: 120 },
  recipients: [],
  enabled: true,
  effective: { clearBelow: 31.5, clearForSeconds: 120 },
  createdBy: 'u1',
  created: 1,
  updated: 1,
  ...extra,
});

const alert = (extra: Partial<Alert> = {}): Alert => ({
  id: 'a1',
  ruleId: 'r1',
  ruleName: 'PM high',
  deviceId: 'd1',
  condition: 'threshold',
  state: 'firing',
  startedAt: 1_000,
  firedAt: 2_000,
  measurement: 'pm2_5',
  reminders: 0,
  updated: 2_000,
  ...extra,
});

describe('alert rules in words', () => {
  it('says the condition with its defaults', () => {
    expect(conditionText(rule())).toBe('PM2.5 above 35 µg/m³ for 2 min; clears below 31.5 µg/m³');
    expect(conditionText(rule({ condition: { kind: 'silence' }, effective: { afterSeconds: null } }))).toBe(
      'No reading for twice its usual interval (at least 5 min)',
    );
    expect(conditionText(rule({ condition: { kind: 'subscription', daysBefore: 1 }, effective: {} }))).toBe(
      'Its plan lapses or its trial ends within 1 day',
    );
  });

  it("gives a rule its open alert's state, quiet without one, off when switched off", () => {
    expect(ruleStatus(rule(), [alert()])).toBe('firing');
    expect(ruleStatus(rule(), [alert({ state: 'resolved' })])).toBe('ok');
    expect(ruleStatus(rule({ enabled: false }), [alert()])).toBe('off');
  });

  it('draws each limit on its measurement, each firing period as a band (a silence on every chart)', () => {
    const overlays = overlaysOf(
      [rule()],
      [alert({ resolvedAt: 5_000 }), alert({ id: 'a2', condition: 'silence', measurement: undefined, firedAt: 9_000 })],
    );
    expect(overlays.pm2_5).toEqual({
      lines: [{ value: 35, label: 'PM high: above 35', tone: 'limit' }],
      bands: [{ from: 2_000, to: 5_000, label: 'PM high firing', tone: 'firing' }],
    });
    expect(overlays['*']!.bands).toEqual([{ from: 9_000, label: 'PM high firing', tone: 'firing' }]);
  });

  it('lists what fires now by when it fired, the last first, whenever it started', () => {
    const held = alert({ id: 'held', startedAt: 1_000, firedAt: 9_000 });
    const atOnce = alert({ id: 'at-once', startedAt: 5_000, firedAt: 5_000 });
    const older = alert({ id: 'older', startedAt: 500, firedAt: 600 });
    expect(lastFiredFirst([older, atOnce, held]).map((a) => a.id)).toEqual(['held', 'at-once', 'older']);
  });

  it('counts a preview’s periods in words', () => {
    const base = { deviceId: 'd1', from: 0, to: 7 * 86_400_000, readings: 10, truncated: false };
    expect(previewSummary({ ...base, periods: [] })).toBe('Would not have fired in these 7 days (10 readings).');
    expect(previewSummary({ ...base, periods: [{ firedAt: 1 }, { firedAt: 2 }] })).toBe(
      'Would have fired 2 times in these 7 days (10 readings).',
    );
  });
});

describe('the rule form’s fields', () => {
  it('become the rule’s JSON in seconds, and come back from it', () => {
    const checked = ruleInputOf(
      { ...NEW_RULE, name: 'PM high', limit: '35', forMinutes: '2', roles: ['device-owners'], remindMinutes: '10' },
      'd1',
    );
    expect(checked).toEqual({
      ok: true,
      value: {
        name: 'PM high',
        target: { kind: 'device', id: 'd1' },
        condition: { kind: 'threshold', measurement: 'pm2_5', above: 35, forSeconds: 120 },
        recipients: [{ kind: 'role', role: 'device-owners' }],
        remindEverySeconds: 600,
        enabled: true,
      },
    });
    expect(fieldsOf(rule({ remindEverySeconds: 600 }))).toMatchObject({
      limit: '35',
      forMinutes: '2',
      remindMinutes: '10',
    });
  });

  it('name the field a bad number is in, with the contract’s words', () => {
    const negative = ruleInputOf({ ...NEW_RULE, name: 'x', limit: '35', forMinutes: '-1' }, 'd1');
    expect(negative.ok ? {} : negative.fields).toMatchObject({ forMinutes: 'forSeconds cannot be negative' });
    const notNumber = ruleInputOf({ ...NEW_RULE, name: 'x', limit: 'high' }, 'd1');
    expect(notNumber.ok ? {} : notNumber.fields).toMatchObject({ limit: 'The limit (above) must be a number' });
    const none = ruleInputOf({ ...NEW_RULE, name: 'x' }, 'd1');
    expect(none.ok ? {} : none.fields).toEqual({ limit: 'Give the limit: a number' });
  });
});
