import type { CallerName, RouteFixture } from './authz-fixture-types';
import { CALLERS } from './authz-fixture-types';
import { seedBanner, seedUnsubscribeToken } from './notifications';
import { apiAs, type DemoEmail, subOf, tokenOf, uniqueId } from './stack';

const idOf = (caller: CallerName) =>
  subOf((caller === 'guest' ? 'user@example.com' : CALLERS[caller].email) as DemoEmail);

/** A banner of the caller (a guest's request names the demo user's, refused before it is read). */
const ownBanner = async (caller: CallerName) => seedBanner(await idOf(caller));

/** A banner of another demo account than the caller. */
const othersBanner = async (caller: CallerName) =>
  seedBanner(await subOf(caller === 'user' ? 'approved@example.com' : 'user@example.com'));

const draft = async () =>
  (
    await apiAs('notifications', await tokenOf('admin@example.com')).createNotification({
      body: { title: 'Authz draft', body: '<p>draft</p>', methods: ['banner'], audience: ['user:userId=authz-nobody'] },
    })
  ).id;

const input = () => ({
  title: uniqueId('Authz notice'),
  body: '<p>For the matrix</p>',
  methods: ['banner' as const],
  // Nobody the platform knows: the worker resolves it to no one, so the matrix fills no one's banners.
  audience: ['user:userId=authz-nobody'],
});

/** The authorization matrix's fixtures for the notifications routes (merged in authz-fixtures.ts). */
export const NOTIFICATIONS_FIXTURES: Record<string, RouteFixture> = {
  createNotification: { prepare: async () => ({ body: input() }) },
  queueNotification: { prepare: async () => ({ body: input() }) },
  listNotifications: { prepare: async () => ({ body: { limit: 5 } }) },
  getNotification: {
    prepare: async ({ caller }) => ({ params: { id: await ownBanner(caller) } }),
    owned: async ({ caller }) => ({ params: { id: await ownBanner(caller) } }),
    // Another person's banner: staff read any notification, anyone else is told it does not exist.
    foreign: async ({ caller }) => ({
      params: { id: await seedBanner(await subOf(caller === 'user' ? 'approved@example.com' : 'user@example.com')) },
    }),
  },
  updateNotification: {
    prepare: async ({ caller }) => ({ params: { id: await ownBanner(caller) }, body: { read: true } }),
    owned: async ({ caller }) => ({ params: { id: await ownBanner(caller) }, body: { read: true } }),
    foreign: async ({ caller }) => ({ params: { id: await othersBanner(caller) }, body: { read: true } }),
  },
  deleteNotification: {
    prepare: async ({ caller }) => ({ params: { id: await ownBanner(caller) } }),
    owned: async ({ caller }) => ({ params: { id: await ownBanner(caller) } }),
    foreign: async ({ caller }) => ({ params: { id: await othersBanner(caller) } }),
  },
  listUserNotifications: {
    prepare: async ({ caller }) => ({ params: { id: await idOf(caller), x: 5 } }),
    owned: async ({ caller }) => ({ params: { id: await idOf(caller), x: 5 } }),
    foreign: async ({ caller }) => ({
      params: { id: await subOf(caller === 'user' ? 'approved@example.com' : 'user@example.com'), x: 5 },
    }),
  },
  previewAudience: { prepare: async () => ({ body: { audience: ['role:roleName=Administrators'] } }) },
  listDeliveries: { prepare: async () => ({ params: { id: await draft() }, query: { limit: 5 } }) },
  getPreferences: { prepare: async () => ({}) },
  // Twins: each call changes a fresh account's preferences, not a demo account's.
  updatePreferences: { twin: true, prepare: async () => ({ body: { email: { announcements: true } } }) },
  unsubscribe: {
    prepare: async () => ({
      // The token names whose preference changes; no account is needed behind it for the route to answer.
      query: { token: await seedUnsubscribeToken(uniqueId('authz-unsub')), topic: 'announcements' },
    }),
  },
};
