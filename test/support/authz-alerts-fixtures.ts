import { randomUUID } from 'node:crypto';
import { createAlertTable } from '../../functions/_shared/alerts/alert-table';
import type { AlertRuleInput } from '../../shared/contracts/alerts';
import { deviceOwnedBy } from './authz-devices-fixtures';
import { type CallerName, onOwnedOrForeign, type RouteFixture } from './authz-fixture-types';
import { apiAs, type DemoEmail, documentClient, stack, tokenOf, uniqueId } from './stack';

/**
 * The authorization matrix's fixtures for the alerts area (functions/alerts): each request meets a fresh device claimed
 * by the caller (`owned`) or by another demo account (`foreign`), and a rule or an alert on it.
 */

const emailOf = (caller: CallerName): DemoEmail =>
  (caller === 'guest' ? 'user@example.com' : `${caller}@example.com`) as DemoEmail;

const ownerOf = (caller: CallerName, whose: 'owned' | 'foreign'): DemoEmail => {
  if (whose === 'owned') return emailOf(caller);
  return caller === 'user' ? 'approved@example.com' : 'user@example.com';
};

const ruleBody = (deviceId: string): AlertRuleInput => ({
  name: uniqueId('Matrix rule'),
  target: { kind: 'device', id: deviceId },
  condition: { kind: 'threshold', measurement: 'pm2_5', above: 35, forSeconds: 0 },
  enabled: true,
});

const device = (caller: CallerName, whose: 'owned' | 'foreign') => deviceOwnedBy(ownerOf(caller, whose));

/** The device of each rule the fixtures made: a change keeps the rule on it. */
const deviceOfRule = new Map<string, string>();

/** A rule its device's owner made. */
const rule = async (caller: CallerName, whose: 'owned' | 'foreign') => {
  const owner = ownerOf(caller, whose);
  const deviceId = await deviceOwnedBy(owner);
  const { id } = await apiAs('alerts', await tokenOf(owner)).createRule({ body: ruleBody(deviceId) });
  deviceOfRule.set(id, deviceId);
  return id;
};

/** A resolved alert on a device, written as the evaluation projects one. */
const alert = async (caller: CallerName, whose: 'owned' | 'foreign') => {
  const deviceId = await device(caller, whose);
  const id = randomUUID();
  const at = Date.now() - 60_000;
  await createAlertTable({ db: documentClient(), tableName: stack().tables.alerts! }).project({
    id,
    ruleId: uniqueId('matrix-rule'),
    ruleName: 'Matrix alert',
    deviceId,
    target: { kind: 'device', id: deviceId },
    condition: 'threshold',
    state: 'resolved',
    startedAt: at,
    firedAt: at,
    resolvedAt: at + 1_000,
    reminders: 0,
    updated: at + 1_000,
    version: 1,
  });
  return id;
};

export const ALERTS_FIXTURES: Record<string, RouteFixture> = {
  createRule: onOwnedOrForeign(device, (id) => ({ body: ruleBody(id) })),
  listRules: onOwnedOrForeign(device, (id) => ({ query: { deviceId: id, limit: 5 } })),
  previewRule: onOwnedOrForeign(device, (id) => ({ body: { ...ruleBody(id), from: Date.now() - 3_600_000 } })),
  getRule: onOwnedOrForeign(rule, (id) => ({ params: { id } })),
  updateRule: onOwnedOrForeign(rule, (id) => ({
    params: { id },
    body: { ...ruleBody(deviceOfRule.get(id)!), name: 'Changed by the matrix' },
  })),
  deleteRule: onOwnedOrForeign(rule, (id) => ({ params: { id } })),
  listEvents: onOwnedOrForeign(device, (id) => ({ query: { deviceId: id, limit: 5 } })),
  acknowledgeEvent: onOwnedOrForeign(alert, (id) => ({ params: { id } })),
};
