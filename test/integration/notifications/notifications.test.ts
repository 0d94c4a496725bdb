import { randomUUID } from 'node:crypto';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { CreateQueueCommand, GetQueueAttributesCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { jest } from '@jest/globals';
import { ServiceUnavailable } from '../../../functions/_shared/errors';
import { createEventPublisher } from '../../../functions/_shared/events/event-publisher';
import { createMailer } from '../../../functions/_shared/mail/mailer';
import { createDelivery, STALE_CLAIM_MS } from '../../../functions/notifications/domain/delivery';
import { createAudienceStore } from '../../../functions/notifications/store/audience-store';
import { createPreferenceStore } from '../../../functions/notifications/store/preference-store';
import { MAIL_FROM } from '../../../infra/local/emulators/cognito';
import { LOCAL_CREDENTIALS } from '../../../infra/local/emulators/listen';
import { startSqsPoller } from '../../../infra/local/sqs-poller';
import type { JobsMessage } from '../../../shared/contracts/events';
import { relationId } from '../../../shared/relations/relation-types';
import { mailsTo, mailTo } from '../../support/mail';
import {
  deliveryStore,
  notificationStore,
  sendingNotification,
  waitForBanner,
  waitForSent,
} from '../../support/notifications';
import { type FreshUser, freshUser } from '../../support/people';
import { seedRelation } from '../../support/relations';
import {
  apiAs,
  apiRejection,
  areaUrl,
  documentClient,
  sqsClient,
  stack,
  subOf,
  tokenOf,
  uniqueId,
} from '../../support/stack';
import { useStackEnvironment } from '../../support/stack-env';

const staff = async () => apiAs('notifications', await tokenOf('admin@example.com'));
const as = (person: FreshUser) => apiAs('notifications', person.token);
const bannersOf = async (person: FreshUser) =>
  (await as(person).listUserNotifications({ params: { id: person.id, x: 100 } })).items;

const send = async (audience: string[], methods: ('banner' | 'email')[] = ['banner'], title = uniqueId('Notice')) => {
  const queued = await (await staff()).queueNotification({
    body: {
      title,
      body: '<p>Hello <a href="/dashboard/devices/d1">device</a><script>x()</script></p>',
      methods,
      audience,
    },
  });
  expect(queued.status === 'queued' || queued.status === 'sending').toBe(true);
  return { ...(await waitForSent(queued.id)), title };
};

const holds = async (person: FreshUser, title: string) => (await bannersOf(person)).some((b) => b.title === title);

/** What the sensor-data area sends when a device's API use crosses a threshold of its month (3,000 requests). */
const quotaCrossed = (deviceId: string, threshold: 70 | 90 | 100, actorId: string): JobsMessage => ({
  kind: 'api.quota',
  eventId: `${deviceId}#2026-11#${threshold}`,
  deviceId,
  month: '2026-11',
  threshold,
  used: 30 * threshold,
  limit: 3_000,
  actorId,
  at: Date.now(),
});

const publish = (events: JobsMessage[]) =>
  createEventPublisher({ sqs: sqsClient(), queueUrl: stack().queues.jobs! }).publish(events as never);

describe('notifications: audiences', () => {
  let manager1: FreshUser;
  let manager2: FreshUser;
  let member: FreshUser;
  let outsider: FreshUser;
  let employee: FreshUser;
  const org = uniqueId('notify-org');

  beforeAll(async () => {
    [manager1, manager2, member, outsider, employee] = await Promise.all([
      freshUser({ prefix: 'n-manager' }),
      freshUser({ prefix: 'n-manager' }),
      freshUser({ prefix: 'n-member' }),
      freshUser({ prefix: 'n-outsider' }),
      freshUser({ prefix: 'n-employee', groups: ['Employees'] }),
    ]);
    await seedRelation('organization-manager', org, manager1.id);
    await seedRelation('organization-manager', org, manager2.id);
    await seedRelation('organization-user', org, member.id);
  });

  it('user:userId= reaches exactly that person, with a sanitised body', async () => {
    const sent = await send([`user:userId=${member.id}`]);
    expect(sent.status).toBe('sent');
    expect(sent.delivery).toMatchObject({ recipients: 1, banners: 1 });
    const [banner] = (await bannersOf(member)).filter((b) => b.title === sent.title);
    expect(banner!.body).toBe('<p>Hello <a href="/dashboard/devices/d1">device</a></p>');
    expect(await holds(outsider, sent.title)).toBe(false);
  });

  it("relation:… reaches the relation's referents of that type only", async () => {
    const sent = await send([`relation:relation-type=organization-manager:referrerId=${org}`]);
    expect(sent.delivery).toMatchObject({ recipients: 2, banners: 2 });
    expect(await holds(manager1, sent.title)).toBe(true);
    expect(await holds(manager2, sent.title)).toBe(true);
    expect(await holds(member, sent.title)).toBe(false);
  });

  it('role:roleName= reaches the members of the group, and counts a person in two selectors once', async () => {
    const preview = await (await staff()).previewAudience({ body: { audience: ['role:roleName=Employees'] } });
    const sent = await send(['role:roleName=Employees', `user:userId=${employee.id}`]);
    expect(sent.delivery!.recipients).toBe(preview.recipients);
    expect(await holds(employee, sent.title)).toBe(true);
    expect(await holds(outsider, sent.title)).toBe(false);
    const deliveries = await (await staff()).listDeliveries({ params: { id: sent.id }, query: { limit: 100 } });
    expect(deliveries.items.filter((d) => d.userId === employee.id)).toHaveLength(1);
  });

  it('staff link to /admin in the body they read; a person reads /dashboard', async () => {
    const sent = await send([`user:userId=${member.id}`]);
    expect((await (await staff()).getNotification({ params: { id: sent.id } })).body).toContain(
      'href="/admin/devices/d1"',
    );
    expect((await as(member).getNotification({ params: { id: sent.id } })).body).toContain(
      'href="/dashboard/devices/d1"',
    );
  });

  it('an audience selector the platform cannot resolve is a 400 naming the shapes', async () => {
    const refusal = await apiRejection(
      (await staff()).createNotification({
        body: { title: 't', body: 'b', methods: ['banner'], audience: ['everyone'] },
      }),
    );
    expect(refusal.status).toBe(400);
    expect(refusal.message).toContain('user:userId={id}');
  });
});

describe('notifications: the staff list', () => {
  it('lists newest first, by topic, status, method, initiator and time, page by page', async () => {
    const admin = await staff();
    const adminId = await subOf('admin@example.com');
    const before = Date.now();
    const made = [];
    for (const topic of ['announcements', 'devices', 'announcements'] as const) {
      made.push(
        await admin.createNotification({
          body: {
            title: uniqueId('Listed'),
            body: '<p>x</p>',
            methods: topic === 'devices' ? ['email'] : ['banner'],
            topic,
            audience: ['user:userId=nobody'],
          },
        }),
      );
    }
    const window = { from: before, to: Date.now() + 1 };
    const all = await admin.listNotifications({ body: { ...window, initiator: adminId, limit: 10 } });
    expect(all.items.map((n) => n.id)).toEqual(made.map((n) => n.id).reverse());
    const announcements = await admin.listNotifications({ body: { ...window, topic: 'announcements', limit: 10 } });
    expect(announcements.items.map((n) => n.id)).toEqual([made[2]!.id, made[0]!.id]);
    const byEmail = await admin.listNotifications({
      body: { ...window, method: 'email', status: 'created', limit: 10 },
    });
    expect(byEmail.items.map((n) => n.id)).toEqual([made[1]!.id]);
    const first = await admin.listNotifications({ body: { ...window, limit: 2 } });
    const second = await admin.listNotifications({ body: { ...window, limit: 2, cursor: first.nextCursor } });
    expect([...first.items, ...second.items].map((n) => n.id)).toEqual(made.map((n) => n.id).reverse());
    expect((await admin.listNotifications({ body: { limit: 1 } })).items).toHaveLength(1);
  });
});

describe('notifications: banners are their owner’s', () => {
  it('a person reads, marks and dismisses their own banner, and cannot read or dismiss another’s', async () => {
    const [owner, other] = await Promise.all([freshUser({ prefix: 'n-owner' }), freshUser({ prefix: 'n-other' })]);
    const sent = await send([`user:userId=${owner.id}`]);
    const id = sent.id;
    expect((await as(owner).listUserNotifications({ params: { id: owner.id, x: 10 } })).unread).toBe(1);
    expect((await apiRejection(as(other).getNotification({ params: { id } }))).status).toBe(404);
    expect((await apiRejection(as(other).updateNotification({ params: { id }, body: { read: true } }))).status).toBe(
      404,
    );
    expect((await apiRejection(as(other).deleteNotification({ params: { id } }))).status).toBe(404);
    const othersList = await apiRejection(as(other).listUserNotifications({ params: { id: owner.id, x: 10 } }));
    expect(othersList).toMatchObject({ status: 403, message: 'You may read only your own notifications' });
    expect(
      (await apiRejection(as(owner).updateNotification({ params: { id }, body: { title: 'mine now' } }))).status,
    ).toBe(403);

    const read = await as(owner).updateNotification({ params: { id }, body: { read: true } });
    expect(read.banner?.readAt).toEqual(expect.any(Number));
    expect((await as(owner).listUserNotifications({ params: { id: owner.id, x: 10 } })).unread).toBe(0);
    await as(owner).deleteNotification({ params: { id } });
    const active = await as(owner).listUserNotifications({
      params: { id: owner.id, x: 10 },
      query: { state: 'active' },
    });
    expect(active.items.map((b) => b.notificationId)).not.toContain(id);
    // Dismissed is not deleted: it stays on the person's list, and the record is untouched.
    expect((await bannersOf(owner)).map((b) => b.notificationId)).toContain(id);
    expect((await (await staff()).getNotification({ params: { id } })).status).toBe('sent');
  });

  it('staff edit and delete drafts only', async () => {
    const admin = await staff();
    const draft = await admin.createNotification({
      body: { title: 'Draft', body: '<p>x</p>', methods: ['banner'], audience: ['user:userId=nobody'] },
    });
    expect(draft.status).toBe('created');
    expect((await admin.updateNotification({ params: { id: draft.id }, body: { title: 'Draft 2' } })).title).toBe(
      'Draft 2',
    );
    await admin.deleteNotification({ params: { id: draft.id } });
    expect((await apiRejection(admin.getNotification({ params: { id: draft.id } }))).status).toBe(404);
    const sent = await send(['user:userId=nobody']);
    expect(sent.status).toBe('failed');
    const refusal = await apiRejection(admin.updateNotification({ params: { id: sent.id }, body: { title: 'late' } }));
    expect(refusal).toMatchObject({ status: 409, message: expect.stringContaining('draft') });
  });
});

describe('notifications: triggers (spec §6)', () => {
  it('granting or removing Employees tells every administrator and nobody else', async () => {
    const [person, admin2, bystander] = await Promise.all([
      freshUser({ prefix: 'n-promoted' }),
      freshUser({ prefix: 'n-admin', groups: ['Administrators'] }),
      freshUser({ prefix: 'n-bystander', groups: ['Employees'] }),
    ]);
    const adminToken = await tokenOf('admin@example.com');
    const users = apiAs('users', adminToken);
    const adminId = await subOf('admin@example.com');
    await users.addUserToGroup({ params: { id: person.id, group: 'Employees', actor: adminId } });
    const banner = await waitForBanner(admin2.id, (b) => b.topic === 'roles' && b.body.includes(person.id));
    expect(banner.title).toContain('was granted the Employees role');
    expect(banner.requireInteraction).toBe(true);
    // An administrator reads the person's /admin page link.
    expect(banner.body).toContain(`/admin/people/${person.id}`);
    const sent = await waitForSent(banner.notificationId);
    const preview = await (await staff()).previewAudience({ body: { audience: ['role:roleName=Administrators'] } });
    expect(sent.delivery!.recipients).toBe(preview.recipients);
    expect((await bannersOf(bystander)).some((b) => b.notificationId === banner.notificationId)).toBe(false);
    expect((await bannersOf(person)).some((b) => b.notificationId === banner.notificationId)).toBe(false);
    // The e-mail too, with its link back to the notification.
    const [mail] = await mailsTo(admin2.email, 1, 15_000);
    expect(mail!.subject).toBe(banner.title);
    expect(mail!.body.text).toContain(`/dashboard/notifications/${banner.notificationId}`);
    // Staff roles are a locked topic: no way to unsubscribe from them.
    expect(mail!.headers?.some((h) => h.name === 'List-Unsubscribe') ?? false).toBe(false);
    expect(mail!.body.text).not.toContain('/unsubscribe');

    await users.removeUserFromGroup({ params: { id: person.id, group: 'Employees', actor: adminId } });
    const removed = await waitForBanner(
      admin2.id,
      (b) => b.title.includes('no longer has the Employees role') && b.body.includes(person.id),
    );
    expect(removed.notificationId).not.toBe(banner.notificationId);
  });

  it('a device administrator added through the relations API is told; the owner who added them is not', async () => {
    const [owner, helper] = await Promise.all([
      freshUser({ prefix: 'n-dev-owner' }),
      freshUser({ prefix: 'n-dev-admin' }),
    ]);
    const deviceId = uniqueId('n-device');
    await seedRelation('device-owner', deviceId, owner.id);
    await apiAs('relations', owner.token).create({
      body: { type: 'device-administrator', referrerId: deviceId, referentId: helper.id },
    });
    const { notificationId } = await waitForBanner(helper.id, (b) => b.title.includes(deviceId));
    const banner = (await bannersOf(helper)).find((b) => b.notificationId === notificationId)!;
    expect(banner.title).toBe(`You are now an administrator of device ${deviceId}`);
    expect(banner.body).toContain(`href="/dashboard/devices/${deviceId}"`);
    await waitForSent(banner.notificationId);
    expect((await bannersOf(owner)).some((b) => b.title.includes(deviceId))).toBe(false);
  });

  it("a device leaving an organization tells the organization's managers only; a quota crossing tells the key owner", async () => {
    const [manager, orgUser, keyOwner, actor] = await Promise.all([
      freshUser({ prefix: 'n-org-manager' }),
      freshUser({ prefix: 'n-org-user' }),
      freshUser({ prefix: 'n-key-owner' }),
      freshUser({ prefix: 'n-actor' }),
    ]);
    const org = uniqueId('n-org');
    const deviceId = uniqueId('n-org-device');
    await seedRelation('organization-manager', org, manager.id);
    await seedRelation('organization-user', org, orgUser.id);
    const relation = {
      id: relationId('organization-device', org, deviceId),
      type: 'organization-device' as const,
      referrerId: org,
      referentId: deviceId,
      created: Date.now(),
      createdBy: actor.id,
    };
    await publish([
      {
        kind: 'relation.changed',
        eventId: randomUUID(),
        change: 'removed',
        relation,
        actorId: actor.id,
        at: Date.now(),
      },
      quotaCrossed(deviceId, 90, keyOwner.id),
    ]);
    const left = await waitForBanner(manager.id, (b) => b.title.includes(deviceId));
    expect(left.title).toBe(`Device ${deviceId} left organization ${org}`);
    const quota = await waitForBanner(keyOwner.id, (b) => b.topic === 'api-quota' && b.title.includes(deviceId));
    expect(quota.title).toBe(`Device ${deviceId} used 90 % of its API quota for 2026-11`);
    await Promise.all([waitForSent(left.notificationId), waitForSent(quota.notificationId)]);
    for (const person of [orgUser, actor]) {
      expect((await bannersOf(person)).some((b) => b.title.includes(deviceId))).toBe(false);
    }
    // The same event again (SQS may deliver twice): no second notification, no second banner or e-mail.
    await publish([quotaCrossed(deviceId, 90, keyOwner.id)]);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect((await bannersOf(keyOwner)).filter((b) => b.title.includes(deviceId))).toHaveLength(1);
    expect((await mailTo(keyOwner.email)).filter((m) => m.subject.includes(deviceId))).toHaveLength(1);
  });

  it("an e-mail's List-Unsubscribe header unsubscribes from its topic with one POST (RFC 8058); the topic's next e-mail is skipped", async () => {
    const person = await freshUser({ prefix: 'n-unsubscribe' });
    const deviceId = uniqueId('n-unsub-device');
    await publish([quotaCrossed(deviceId, 70, person.id)]);
    const [mail] = await mailsTo(person.email, 1, 15_000);
    const header = (name: string) => mail!.headers?.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value;
    expect(header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const target = /^<(.+)>$/.exec(header('List-Unsubscribe') ?? '')?.[1];
    expect(target).toContain(`${areaUrl('notifications')}/unsubscribe?token=`);
    expect(mail!.body.text).toContain('/unsubscribe?token=');
    // What a mail client sends: a form body, no session.
    const response = await fetch(target!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(response.status).toBe(200);
    const topics = (await as(person).getPreferences({})).topics;
    expect(topics.find((t) => t.topic === 'api-quota')).toMatchObject({ email: false, locked: false });
    expect(topics.find((t) => t.topic === 'announcements')).toMatchObject({ email: true });
    // The next crossing comes as a banner only: the e-mail is skipped, and said so on the delivery.
    await publish([quotaCrossed(deviceId, 90, person.id)]);
    const banner = await waitForBanner(person.id, (b) => b.title.includes(`${deviceId} used 90 %`));
    const sent = await waitForSent(banner.notificationId);
    expect(sent.delivery).toMatchObject({ banners: 1, emailsSent: 0, emailsSkipped: 1 });
    expect((await mailTo(person.email)).filter((m) => m.subject.includes(deviceId))).toHaveLength(1);
    // A bad token is refused in words.
    const bad = await fetch(`${areaUrl('notifications')}/unsubscribe?token=${'x'.repeat(32)}&topic=api-quota`, {
      method: 'POST',
    });
    expect(bad.status).toBe(404);
  });
});

describe('notifications: the worker loses nothing and duplicates nothing', () => {
  const ses = () =>
    new SESv2Client({ region: stack().region, endpoint: stack().endpoints.ses, credentials: LOCAL_CREDENTIALS });
  // What the workers counted for the operations dashboard, over every run of a test.
  const counted: Record<string, number> = {};
  const deliveryWith = (
    now: () => number,
    mailer: { send: Parameters<typeof createDelivery>[0]['mailer']['send'] },
    deliveries: ReturnType<typeof deliveryStore> = deliveryStore(),
  ) =>
    createDelivery({
      notifications: notificationStore(),
      deliveries,
      preferences: createPreferenceStore({ db: documentClient(), tableName: stack().tables.notificationPreferences! }),
      audiences: createAudienceStore({
        db: documentClient(),
        cognito: new CognitoIdentityProviderClient({
          region: stack().region,
          endpoint: stack().endpoints.cognito,
          credentials: LOCAL_CREDENTIALS,
        }),
        relationsTable: stack().tables.relations!,
        usersTable: stack().tables.users!,
        userPoolId: stack().auth.userPoolId,
      }),
      mailer: { send: mailer.send },
      queue: { send: async () => undefined },
      now,
      webOrigin: 'http://web.test',
      apiUrl: 'http://api.test/notifications',
      counters: {
        count: (name, value = 1) => {
          counted[name] = (counted[name] ?? 0) + value;
        },
        seconds: () => undefined,
      },
    });

  it('a worker stopped mid-chunk, then redeliveries: every person gets one banner and one e-mail; a failing one holds back no other', async () => {
    for (const name of Object.keys(counted)) delete counted[name];
    const people = await Promise.all(Array.from({ length: 4 }, () => freshUser({ prefix: 'n-crash' })));
    const draft = await sendingNotification(people, uniqueId('Crash'));
    const ids = people.map((p) => p.id);
    const real = createMailer({ ses: ses(), from: MAIL_FROM });
    // First run: SES refuses the second person's e-mail for a passing reason, and the worker stops for good while
    // sending the third's (its promise never settles, as when the Lambda is killed).
    void deliveryWith(Date.now, {
      send: async (mail) => {
        if (mail.to[0] === people[1]!.email) throw new ServiceUnavailable('SES is busy');
        if (mail.to[0] === people[2]!.email) return new Promise<string>(() => undefined);
        return real.send(mail);
      },
    }).deliver(draft.id, 'c1', ids);
    await mailsTo(people[0]!.email, 1, 10_000);
    await mailsTo(people[3]!.email, 1, 10_000);
    // The first person reads their banner before the redeliveries: they must not make it unread again.
    await as(people[0]!).updateNotification({ params: { id: draft.id }, body: { read: true } });
    // The redelivery: the refused e-mail is sent; the stopped one's claim is still fresh, so the chunk waits for it.
    await expect(deliveryWith(Date.now, real).deliver(draft.id, 'c1', ids)).rejects.toThrow('will be retried');
    expect(await mailTo(people[2]!.email)).toHaveLength(0);
    // Once the claim is stale, the next redelivery sends it, and the chunk and the notification are done.
    await deliveryWith(() => Date.now() + STALE_CLAIM_MS + 1_000, real).deliver(draft.id, 'c1', ids);
    for (const person of people) {
      expect((await bannersOf(person)).filter((b) => b.notificationId === draft.id)).toHaveLength(1);
      expect((await mailTo(person.email)).filter((m) => m.subject === draft.title)).toHaveLength(1);
    }
    expect((await bannersOf(people[0]!)).find((b) => b.notificationId === draft.id)?.readAt).toEqual(
      expect.any(Number),
    );
    const done = await (await staff()).getNotification({ params: { id: draft.id } });
    expect(done).toMatchObject({
      status: 'sent',
      delivery: { recipients: 4, banners: 4, emailsSent: 4, emailsFailed: 0 },
    });
    // A late duplicate of the chunk changes nothing.
    await deliveryWith(Date.now, real).deliver(draft.id, 'c1', ids);
    expect((await mailTo(people[0]!.email)).filter((m) => m.subject === draft.title)).toHaveLength(1);
    // Each e-mail counted once as sent, through the refusal, the stopped worker and the duplicates.
    expect(counted).toEqual({ NotificationsSent: 4 });
  });

  it('a poison message ends in the dead-letter queue after its receives, and the queue goes on', async () => {
    const sqs = sqsClient();
    const name = uniqueId('poison');
    const dlq = await sqs.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }));
    const dlqArn = (
      await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }))
    ).Attributes!.QueueArn!;
    const queue = await sqs.send(
      new CreateQueueCommand({
        QueueName: name,
        Attributes: {
          VisibilityTimeout: '1',
          RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: 2 }),
        },
      }),
    );
    // The worker logs each refusal of the poison message, as it should; the test reads the queues instead.
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const restore = useStackEnvironment();
    const { handler } = await import('../../../functions/notifications/worker');
    const poller = startSqsPoller({
      sqs,
      queueUrl: queue.QueueUrl!,
      queueArn: '',
      handler: handler as never,
      waitSeconds: 1,
    });
    try {
      await sqs.send(new SendMessageCommand({ QueueUrl: queue.QueueUrl, MessageBody: '{"kind":"no.such.kind"}' }));
      const deadline = Date.now() + 20_000;
      let dead = 0;
      while (dead === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        const attributes = await sqs.send(
          new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['ApproximateNumberOfMessages'] }),
        );
        dead = Number(attributes.Attributes?.ApproximateNumberOfMessages ?? 0);
      }
      expect(dead).toBe(1);
    } finally {
      await poller.stop();
      restore();
      quiet.mockRestore();
    }
  });
});
