import type { DomainEvent } from '../../../shared/contracts/events';
import { tallyOf } from './delivery';
import { finalStatus, type NotificationRecord } from './notification-record';
import { notificationFor, notificationIdOf } from './triggers';

const at = 1_790_000_000_000;
const relationEvent = (type: string, referrerId: string, referentId: string, actorId: string): DomainEvent =>
  ({
    kind: 'relation.changed',
    eventId: `e-${type}-${referentId}-${actorId}`,
    change: 'added',
    relation: {
      id: `${type}#${referrerId}#${referentId}`,
      type,
      referrerId,
      referentId,
      created: at,
      createdBy: actorId,
    },
    actorId,
    at,
  }) as DomainEvent;
const names = (id: string) => ({ u1: 'Ann <Admin>', u2: 'Bo' })[id] ?? id;

describe('triggers (spec §6)', () => {
  it('tells every administrator of a staff role change, naming both people (escaped) and requiring interaction', () => {
    const made = notificationFor(
      { kind: 'role.changed', eventId: 'r1', change: 'added', userId: 'u2', group: 'Employees', actorId: 'u1', at },
      names,
    )!;
    expect(made.input.audience).toEqual(['role:roleName=Administrators']);
    expect(made.input.title).toBe('Bo was granted the Employees role');
    expect(made.input.body).toContain('<a href="/dashboard/people/u1">Ann &lt;Admin&gt;</a>');
    expect(made.input).toMatchObject({ topic: 'roles', requireInteraction: true, methods: ['banner', 'email'] });
    expect(made.initiatorId).toBe('u1');
  });

  it('tells the person who gains a device role, unless they made the change themselves', () => {
    expect(notificationFor(relationEvent('device-owner', 'd1', 'u2', 'u1'), names)!.input.audience).toEqual([
      'user:userId=u2',
    ]);
    expect(notificationFor(relationEvent('device-administrator', 'd1', 'u2', 'u2'), names)).toBeUndefined();
  });

  it("tells an organization's managers of its devices, and nobody of other relation types", () => {
    expect(notificationFor(relationEvent('organization-device', 'o1', 'd1', 'u1'), names)!.input.audience).toEqual([
      'relation:relation-type=organization-manager:referrerId=o1',
    ]);
    expect(notificationFor(relationEvent('device-user', 'd1', 'u2', 'u1'), names)).toBeUndefined();
    expect(notificationFor(relationEvent('organization-user', 'o1', 'u2', 'u1'), names)).toBeUndefined();
  });

  it('tells the release’s staff and each organization’s managers of a halted rollout, with the failures each may see', () => {
    const halted = (audience: Extract<DomainEvent, { kind: 'rollout.halted' }>['audience']): DomainEvent => ({
      kind: 'rollout.halted',
      eventId: `rollout-halted#r1#${at}#${audience.kind}`,
      rolloutId: 'r1',
      releaseId: 'sd1-1.4.2',
      productLine: 'sd1',
      version: '1.4.2',
      stageName: 'Canary',
      reason: 'Halted automatically: in stage Canary, 3 of 3 finished devices failed or timed out',
      automatic: true,
      audience,
      failures: [
        { deviceId: 'dev-1', state: 'failed', reason: 'flash <write> error' },
        { deviceId: 'dev-2', state: 'timed_out' },
      ],
      failureCount: 3,
      actorId: 'u1',
      at,
    });
    const staff = notificationFor(halted({ kind: 'staff', userIds: ['u1', 'u2'] }), names)!;
    expect(staff.input).toMatchObject({
      topic: 'firmware',
      icon: 'warning',
      audience: ['user:userId=u1', 'user:userId=u2'],
      title: 'Firmware update sd1 1.4.2 halted automatically',
      requireInteraction: true,
    });
    expect(staff.input.body).toContain('dev-1</a>: failed: flash &lt;write&gt; error');
    expect(staff.input.body).toContain('dev-2</a>: timed out (no report in time)');
    expect(staff.input.body).toContain('and 1 more.');
    expect(staff.input.body).toContain('href="/admin/rollouts/r1"');
    const managers = notificationFor(halted({ kind: 'organization', organizationId: 'o1' }), names)!;
    expect(managers.input.audience).toEqual(['relation:relation-type=organization-manager:referrerId=o1']);
    expect(managers.input.body).toContain('3 devices of yours failed or timed out');
    expect(managers.input.body).not.toContain('/admin/rollouts');
    expect(managers.id).not.toBe(staff.id);
  });

  it("tells a webhook's maker and its target's managers that it was turned off, why, and links its log and target", () => {
    const failing = notificationFor(
      {
        kind: 'webhook.disabled',
        eventId: `wh_1#${at}`,
        webhookId: 'wh_1',
        url: 'https://example.com/hooks?a=<b>',
        reason: 'failing',
        targetKind: 'campaign',
        targetId: 'c1',
        failingSince: Date.UTC(2026, 0, 2, 3, 4),
        actorId: 'u2',
        at,
      },
      names,
    )!;
    expect(failing.input).toMatchObject({
      topic: 'integrations',
      audience: ['user:userId=u2', 'relation:relation-type=campaign-manager:referrerId=c1'],
      methods: ['banner', 'email'],
      requireInteraction: true,
      title: 'Webhook turned off: https://example.com/hooks?a=<b>',
    });
    expect(failing.input.body).toContain('<a href="/dashboard/webhooks/wh_1">its delivery log</a>');
    expect(failing.input.body).toContain('<a href="/dashboard/campaigns/c1">campaign c1</a>');
    expect(failing.input.body).toContain('<code>https://example.com/hooks?a=&lt;b&gt;</code>');
    expect(failing.input.body).toContain('since 2026-01-02 03:04 UTC');
    const gone = notificationFor(
      {
        kind: 'webhook.disabled',
        eventId: `wh_1#${at + 1}`,
        webhookId: 'wh_1',
        url: 'https://example.com/hooks',
        reason: 'gone',
        targetKind: 'device',
        targetId: 'd1',
        actorId: 'u2',
        at,
      },
      names,
    )!;
    expect(gone.input.audience).toEqual([
      'user:userId=u2',
      'relation:relation-type=device-owner:referrerId=d1',
      'relation:relation-type=device-administrator:referrerId=d1',
    ]);
    expect(gone.input.body).toContain('410 Gone');
    expect(gone.input.body).toContain('no longer kept');
  });

  it('makes the same id from the same event, and another from another', () => {
    expect(notificationIdOf('e1')).toBe(notificationIdOf('e1'));
    expect(notificationIdOf('e1')).not.toBe(notificationIdOf('e2'));
    expect(notificationIdOf('e1')).toMatch(/^ev-[0-9a-f]{32}$/);
  });

  it("tells an alert's recipients once as it fires and once as it resolves, under Alerts; the firing one stays", () => {
    const alert = (change: 'fired' | 'resolved', value: number): DomainEvent => ({
      kind: 'alert.changed',
      eventId: `a1#${change}`,
      change,
      alertId: 'a1',
      ruleId: 'r1',
      ruleName: 'PM <high>',
      deviceId: 'd1',
      deviceName: 'Rooftop',
      condition: 'threshold',
      measurement: 'pm2_5',
      unit: 'µg/m³',
      direction: 'above',
      limit: 35,
      clearLevel: 31.5,
      value,
      at: at + (change === 'fired' ? 0 : 60_000),
      firedAt: at,
      audience: ['user:userId=u2'],
      actorId: 'u1',
    });
    const fired = notificationFor(alert('fired', 80), names)!;
    expect(fired.input).toMatchObject({
      topic: 'alerts',
      audience: ['user:userId=u2'],
      title: 'PM <high>: firing',
      icon: 'warning',
      requireInteraction: true,
    });
    expect(fired.input.body).toContain(`<a href="/dashboard/devices/d1?at=${at}">Rooftop</a>`);
    expect(fired.input.body).toContain('was <strong>80 µg/m³</strong>');
    expect(fired.input.body).toContain('above the limit of 35 µg/m³; it clears below 31.5 µg/m³');
    const resolved = notificationFor(alert('resolved', 20), names)!;
    expect(resolved.input).toMatchObject({ title: 'PM <high>: resolved', icon: 'success', requireInteraction: false });
    expect(resolved.input.body).toContain('is back below 31.5 µg/m³: <strong>20 µg/m³</strong>');
  });
});

describe('delivery counts and the end of sending', () => {
  it("counts only the deliveries its own chunk made, recipients by the first method's", () => {
    const items = [
      { method: 'banner', status: 'delivered', chunk: 'c1' },
      { method: 'email', status: 'sent', chunk: 'c1' },
      { method: 'banner', status: 'delivered', chunk: 'c0' },
      { method: 'email', status: 'skipped', chunk: 'c0' },
      { method: 'email', status: 'failed', chunk: 'c1' },
      { method: 'email', status: 'sending', chunk: 'c1' },
    ];
    expect(tallyOf(items, 'c1', 'banner')).toEqual({
      recipients: 1,
      banners: 1,
      emailsSent: 1,
      emailsSkipped: 0,
      emailsFailed: 1,
    });
  });

  const record = (over: Partial<NotificationRecord>): NotificationRecord =>
    ({
      status: 'sending',
      resolved: true,
      chunksPlanned: ['a', 'b'],
      chunksDone: ['a', 'b'],
      recipients: 2,
      banners: 2,
      emailsSent: 0,
      emailsSkipped: 0,
      emailsFailed: 0,
      ...over,
    }) as NotificationRecord;

  it('ends only when resolved and every planned chunk is done: sent, partly-failed or failed', () => {
    expect(finalStatus(record({}))).toBe('sent');
    expect(finalStatus(record({ resolved: false }))).toBeUndefined();
    expect(finalStatus(record({ chunksDone: ['a'] }))).toBeUndefined();
    expect(finalStatus(record({ emailsFailed: 1 }))).toBe('partly-failed');
    expect(finalStatus(record({ banners: 0, recipients: 0, emailsFailed: 2 }))).toBe('failed');
    expect(finalStatus(record({ banners: 0, recipients: 0, chunksPlanned: [], chunksDone: [] }))).toBe('failed');
    expect(finalStatus(record({ status: 'sent' }))).toBeUndefined();
  });
});
