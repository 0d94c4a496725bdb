import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { createDeliveryStore } from '../../functions/notifications/store/delivery-store';
import { createNotificationStore } from '../../functions/notifications/store/notification-store';
import type { Banner } from '../../shared/contracts/notifications';
import { apiAs, documentClient, stack, tokenOf } from './stack';

export const notificationStore = () =>
  createNotificationStore({ db: documentClient(), tableName: stack().tables.notifications! });
export const deliveryStore = () =>
  createDeliveryStore({ db: documentClient(), tableName: stack().tables.notificationDeliveries! });

/**
 * A sent notification with a banner for `userId`, written straight to the tables (for access tests, which are about
 * who may read and mark it, not about delivery).
 */
export const seedBanner = async (userId: string, title = 'Seeded banner', body = '<p>Seeded</p>') => {
  const id = `seed-${randomUUID()}`;
  const created = Date.now();
  const content = {
    icon: 'info' as const,
    requireInteraction: false,
    topic: 'announcements' as const,
    title,
    body,
    initiator: { id: 'seed', type: 'user-id' as const },
  };
  await notificationStore().create({
    ...content,
    id,
    methods: ['banner'],
    audience: [`user:userId=${userId}`],
    status: 'sent',
    created,
    updated: created,
    recipients: 1,
    banners: 1,
    emailsSent: 0,
    emailsSkipped: 0,
    emailsFailed: 0,
    chunksPlanned: [],
    chunksDone: [],
    pagesDone: [],
  });
  await deliveryStore().putBanner({ userId, method: 'banner', notificationId: id, created }, content, created);
  return id;
};

/** A person's unsubscribe token, written straight to the preferences table. */
export const seedUnsubscribeToken = async (userId: string) => {
  const token = `tok-${randomUUID()}`;
  await documentClient().send(
    new PutCommand({ TableName: stack().tables.notificationPreferences!, Item: { userId, token } }),
  );
  return token;
};

/** Staff read anyone's banners: waits until `userId` holds a banner that `match` accepts. */
export const waitForBanner = async (
  userId: string,
  match: (banner: Banner) => boolean,
  timeoutMs = 20_000,
): Promise<Banner> => {
  const staff = apiAs('notifications', await tokenOf('admin@example.com'));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { items } = await staff.listUserNotifications({ params: { id: userId, x: 100 } });
    const found = items.find(match);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`No matching banner for ${userId} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

/** Waits until a notification has left the worker (sent, partly-failed or failed). */
export const waitForSent = async (id: string, timeoutMs = 30_000) => {
  const staff = apiAs('notifications', await tokenOf('admin@example.com'));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const notification = await staff.getNotification({ params: { id } });
    if (notification.status === 'sent' || notification.status === 'partly-failed' || notification.status === 'failed') {
      return notification;
    }
    if (Date.now() > deadline) throw new Error(`Notification ${id} still ${notification.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

/**
 * A person's banners whose title contains `text`, newest first, once at least `count` have arrived; read again a
 * moment later, so a test asserting "exactly `count`" also sees one that came twice.
 */
export const bannersAbout = async (userId: string, text: string, count: number, timeoutMs = 20_000) => {
  const staff = apiAs('notifications', await tokenOf('admin@example.com'));
  const read = async () =>
    (await staff.listUserNotifications({ params: { id: userId, x: 100 } })).items.filter((b) => b.title.includes(text));
  const deadline = Date.now() + timeoutMs;
  while ((await read()).length < count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  return read();
};

/**
 * A banner-and-e-mail notification to `people`, created through the API, then put where a worker finds it mid-send:
 * sending, one chunk `c1` planned, its audience page read. The test delivers `c1` as it needs.
 */
export const sendingNotification = async (people: readonly { id: string }[], title: string) => {
  const staff = apiAs('notifications', await tokenOf('admin@example.com'));
  const draft = await staff.createNotification({
    body: {
      title,
      body: '<p>once</p>',
      methods: ['banner', 'email'],
      audience: people.map((p) => `user:userId=${p.id}`),
    },
  });
  await notificationStore().setStatus(draft.id, 'sending', ['created'], Date.now());
  await notificationStore().planChunks(draft.id, ['c1']);
  await notificationStore().markPageDone(draft.id, '0.0', true);
  return draft;
};
