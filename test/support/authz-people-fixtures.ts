import type { CallerName, FixtureContext, FixtureRequest, RouteFixture } from './authz-fixture-types';
import { CALLERS } from './authz-fixture-types';
import { freshUser } from './people';
import { type DemoEmail, subOf, uniqueId } from './stack';

/**
 * The authorization matrix's fixtures for the people routes of the users area (functions/users/handlers/people.ts).
 * Every change lands on a fresh person, never on a demo account (their tokens are cached for the run). Routes that
 * would change the caller themself (signing out everywhere, renaming) set `twin`: the matrix then calls them with
 * a fresh account holding the caller's groups, named in `context.self`.
 */

const emailOf = (caller: CallerName): DemoEmail =>
  (caller === 'guest' ? 'user@example.com' : CALLERS[caller].email) as DemoEmail;

/** The caller's own id: the twin's when the matrix made one, else the demo account's. */
const selfId = async (context: FixtureContext) => context.self?.id ?? subOf(emailOf(context.caller));

/** Someone else, with a record (the first sign-in makes it). */
const someoneElse = async () => (await freshUser({ prefix: 'authz' })).id;

/** A self-or-staff route: the caller on themself succeeds; on someone else only staff do. */
const selfOrStaff = (request: (id: string) => FixtureRequest, twin = false): RouteFixture => ({
  ...(twin ? { twin } : {}),
  prepare: async (context) => request(await selfId(context)),
  owned: async (context) => request(await selfId(context)),
  foreign: async () => request(await someoneElse()),
});

/** A staff route acting on a fresh person. */
const onFreshPerson = (request: (id: string) => FixtureRequest): RouteFixture => ({
  prepare: async () => request(await someoneElse()),
});

export const PEOPLE_FIXTURES: Record<string, RouteFixture> = {
  backupUserPool: { prepare: async () => ({ body: { directory: `authz/${uniqueId('backup')}` } }) },
  listGroups: { prepare: async () => ({}) },
  getGroup: { prepare: async () => ({ params: { name: 'Employees' } }) },
  listUsers: { prepare: async () => ({ query: { limit: 5 } }) },
  getUserRecord: selfOrStaff((id) => ({ params: { id } })),
  getUser: selfOrStaff((id) => ({ params: { id } })),
  usersByGroups: { prepare: async () => ({}) },
  usersDdbWithBatchGet: {
    prepare: async () => ({ body: { parameters: [await subOf('user@example.com'), 'authz-ghost'] } }),
  },
  // Open to everyone signed in; what each caller sees is the visibility rule's (test/integration/users/people-names).
  peopleNames: {
    prepare: async () => ({ body: { ids: [await subOf('user@example.com'), 'authz-ghost'] } }),
    // One's own name is always one's to see; a fresh person shares nothing with anyone (staff see everyone).
    owned: async (context) => ({ body: { ids: [await selfId(context)] } }),
    foreign: async () => ({ body: { ids: [await someoneElse()] } }),
  },
  findPersonByEmail: { prepare: async () => ({ body: { email: 'user@example.com' } }) },
  listUserIdsFromDdb: { prepare: async () => ({ body: { parameters: { limit: 5 } } }) },
  listGroupsForUser: selfOrStaff((id) => ({ params: { id } })),
  listUsersInGroup: { prepare: async () => ({ params: { group: 'None' }, query: { limit: 5 } }) },
  disableUser: onFreshPerson((id) => ({ params: { id } })),
  enableUser: onFreshPerson((id) => ({ params: { id } })),
  newUserNotice: selfOrStaff((id) => ({ params: { id } })),
  emailUser: {
    prepare: async () => ({
      body: { email: { toAddresses: [`${uniqueId('authz')}@example.com`], subject: 'Matrix', textMessage: 'Hello' } },
    }),
  },
  addUserToGroup: {
    prepare: async (context) => ({
      params: { id: await someoneElse(), group: 'Distributors', actor: await selfId(context) },
    }),
  },
  removeUserFromGroup: {
    prepare: async (context) => {
      const person = await freshUser({ prefix: 'authz', groups: ['Distributors'] });
      return { params: { id: person.id, group: 'Distributors', actor: await selfId(context) } };
    },
  },
  updateUser: selfOrStaff((id) => ({ params: { id }, body: { givenName: 'Matrix' } }), true),
  adminResetUserPassword: onFreshPerson((id) => ({ params: { id } })),
  forceResetPassword: onFreshPerson((id) => ({ params: { id } })),
  adminUserGlobalSignOut: selfOrStaff((id) => ({ params: { id } }), true),
  adminListUserAuthEvents: selfOrStaff((id) => ({ params: { id }, query: { limit: 5 } })),
  filterUsersByFirstLast: { prepare: async () => ({ params: { first: '*', last: 'Person' } }) },
};
