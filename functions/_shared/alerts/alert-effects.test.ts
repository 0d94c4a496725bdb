import type { AlertChanged } from '../../../shared/contracts/events';
import type { AlertData } from '../../../shared/contracts/webhook-events';
import { silentLog } from '../../../test/support/log';
import { audienceOf, createEffects } from './alert-effects';
import type { AlertEffect, AlertNotice, AlertRecord, PresenceChange } from './alert-model';

const T0 = Date.UTC(2026, 2, 12, 10, 0);
const MIN = 60_000;

const record = (over: Partial<AlertRecord> = {}): AlertRecord => ({
  id: 'al1',
  ruleId: 'r1',
  ruleName: 'PM2.5 high',
  deviceId: 'd1',
  condition: 'threshold',
  state: 'firing',
  startedAt: T0,
  firedAt: T0,
  measurement: 'pm2_5',
  direction: 'above',
  limit: 35,
  clearLevel: 31.5,
  value: 40,
  reminders: 0,
  updated: T0,
  version: 1,
  target: { kind: 'device', id: 'd1' },
  ...over,
});

const notice = (change: AlertNotice['change'], eventId: string, at: number): AlertNotice => ({
  change,
  eventId,
  at,
  recipients: [],
  target: { kind: 'device', id: 'd1' },
  createdBy: 'u1',
});

const world = ({ webhooksFail = false } = {}) => {
  const sent: AlertChanged[] = [];
  const hooked: { change: string; data: AlertData; at: number; eventId: string }[] = [];
  const cleared: string[][] = [];
  const presence: { deviceId: string; change: PresenceChange; eventId: string }[] = [];
  const effects = createEffects({
    alerts: { project: async () => true, remove: async () => undefined, close: async () => undefined },
    states: {
      clearOutbox: async (_deviceId, ids) => {
        cleared.push([...ids]);
      },
    },
    devices: { facts: async (id) => ({ id, name: 'Kitchen', measurementNames: ['pm2_5'], measurementUnits: {} }) },
    mayView: async () => true,
    send: async (events) => {
      sent.push(...events);
    },
    webhooks: {
      alertChanged: async (change, data, at, eventId) => {
        if (webhooksFail) throw new Error('webhooks table down');
        hooked.push({ change, data, at, eventId });
      },
      presenceChanged: async (deviceId, change, eventId) => {
        if (webhooksFail) throw new Error('webhooks table down');
        presence.push({ deviceId, change, eventId });
      },
    },
    log: silentLog,
  });
  return { effects, sent, hooked, cleared, presence };
};

const fired: AlertEffect = {
  id: 'e1',
  alertId: 'al1',
  order: 1,
  record: record(),
  notice: notice('fired', 'ev-f', T0),
};
const resolved: AlertEffect = {
  id: 'e2',
  alertId: 'al1',
  order: 2,
  record: record({ state: 'resolved', resolvedAt: T0 + 4 * MIN, resolvedValue: 30, version: 2 }),
  notice: notice('resolved', 'ev-r', T0 + 4 * MIN),
};

describe('alert effects', () => {
  it("hand fired and resolved alerts to the webhooks in order, under the alert event's id, with AlertData's fields", async () => {
    const w = world();
    await w.effects.deliver('d1', [resolved, fired]);
    expect(w.hooked).toEqual([
      {
        change: 'fired',
        eventId: 'ev-f',
        at: T0,
        data: {
          alertId: 'al1',
          ruleId: 'r1',
          ruleName: 'PM2.5 high',
          deviceId: 'd1',
          condition: 'threshold',
          measurement: 'pm2_5',
          value: 40,
          limit: 35,
          firedAt: T0,
        },
      },
      {
        change: 'resolved',
        eventId: 'ev-r',
        at: T0 + 4 * MIN,
        data: {
          alertId: 'al1',
          ruleId: 'r1',
          ruleName: 'PM2.5 high',
          deviceId: 'd1',
          condition: 'threshold',
          measurement: 'pm2_5',
          value: 30,
          limit: 35,
          firedAt: T0,
          resolvedAt: T0 + 4 * MIN,
        },
      },
    ]);
    // The notification of each change carries the same id.
    expect(w.sent.map((event) => event.eventId)).toEqual(['ev-f', 'ev-r']);
    expect(w.cleared).toEqual([['e1', 'e2']]);
  });

  it('tell the webhooks nothing of a reminder', async () => {
    const w = world();
    await w.effects.deliver('d1', [
      {
        id: 'e3',
        alertId: 'al1',
        order: 3,
        notice: notice('reminder', 'ev-m', T0 + 5 * MIN),
        record: record({ reminders: 1 }),
      },
    ]);
    expect(w.sent.map((event) => event.change)).toEqual(['reminder']);
    expect(w.hooked).toEqual([]);
  });

  it('leave the effects in the outbox when the webhooks cannot be told: the sweep does them again, same ids', async () => {
    const w = world({ webhooksFail: true });
    await expect(w.effects.deliver('d1', [fired])).rejects.toThrow('webhooks table down');
    expect(w.cleared).toEqual([]);
  });

  it("hand a presence change to the webhooks under the effect's id, telling no person and projecting no record", async () => {
    const w = world();
    const offline: AlertEffect = {
      id: 'p1#offline',
      alertId: 'p1',
      order: 1,
      presence: { online: false, lastSeen: T0, at: T0 + 11 * 60_000 },
    };
    await w.effects.deliver('d1', [offline]);
    expect(w.presence).toEqual([{ deviceId: 'd1', change: offline.presence, eventId: 'p1#offline' }]);
    expect(w.sent).toEqual([]);
    expect(w.hooked).toEqual([]);
    expect(w.cleared).toEqual([['p1#offline']]);
    // Failing, it stays in the outbox for the sweep.
    const failing = world({ webhooksFail: true });
    await expect(failing.effects.deliver('d1', [offline])).rejects.toThrow('webhooks table down');
    expect(failing.cleared).toEqual([]);
  });
});

describe("an alert's audience", () => {
  const everyone = async () => true;

  it("with no recipient given: the firing device's owners and administrators, or the campaign's managers", async () => {
    expect(await audienceOf({ recipients: [], target: { kind: 'device', id: 'd1' } }, 'd1', everyone)).toEqual([
      'relation:relation-type=device-owner:referrerId=d1',
      'relation:relation-type=device-administrator:referrerId=d1',
    ]);
    expect(await audienceOf({ recipients: [], target: { kind: 'campaign', id: 'c1' } }, 'd1', everyone)).toEqual([
      'relation:relation-type=campaign-manager:referrerId=c1',
    ]);
    expect(await audienceOf({ recipients: [], target: { kind: 'organization', id: 'o1' } }, 'd1', everyone)).toEqual([
      'relation:relation-type=organization-manager:referrerId=o1',
    ]);
  });

  it('resolves roles against the device that fired (owners, administrators) or the target (managers), and drops a person who lost access', async () => {
    const audience = await audienceOf(
      {
        recipients: [
          { kind: 'role', role: 'device-owners' },
          { kind: 'role', role: 'device-administrators' },
          { kind: 'role', role: 'managers' },
          { kind: 'person', userId: 'u-in' },
          { kind: 'person', userId: 'u-out' },
        ],
        target: { kind: 'campaign', id: 'c1' },
      },
      'd7',
      async (userId) => userId === 'u-in',
    );
    expect(audience).toEqual([
      'relation:relation-type=device-owner:referrerId=d7',
      'relation:relation-type=device-administrator:referrerId=d7',
      'relation:relation-type=campaign-manager:referrerId=c1',
      'user:userId=u-in',
    ]);
    // A device has no managers of its own: the role says nothing there.
    expect(
      await audienceOf(
        { recipients: [{ kind: 'role', role: 'managers' }], target: { kind: 'device', id: 'd1' } },
        'd1',
        everyone,
      ),
    ).toEqual([]);
  });
});
