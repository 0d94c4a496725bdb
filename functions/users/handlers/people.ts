import type { users } from '../../../shared/contracts/users';
import type { AreaPart } from '../../_shared/http/http-area';
import type { People } from '../domain/people';
import type { PeopleNames } from '../domain/people-names';

/** What these routes need of the users area's dependencies (functions/users/deps.ts provides them). */
export interface PeopleHandlerDeps {
  people: People;
  names: PeopleNames;
}

export const peopleHandlers = {
  backupUserPool: ({ body }, { people }) => people.backupUserPool(body.directory),
  listGroups: (_request, { people }) => people.listGroups(),
  getGroup: ({ params }, { people }) => people.getGroup(params.name),
  listUsers: ({ query }, { people }) => people.listUsers(query),
  getUserRecord: ({ caller, params }, { people }) => people.getUserRecord(caller, params.id),
  getUser: ({ caller, params }, { people }) => people.getUser(caller, params.id),
  usersByGroups: (_request, { people }) => people.usersByGroups(),
  // The contract holds exactly one of the two.
  usersDdbWithBatchGet: ({ body }, { people }) => people.usersDdbWithBatchGet((body.parameters ?? body.ids)!),
  listUserIdsFromDdb: ({ body }, { people }) => people.listUserIdsFromDdb(body),
  peopleNames: ({ caller, body }, { names }) => names.names(caller, body.ids),
  findPersonByEmail: ({ caller, body }, { names }) => names.findByEmail(caller, body.email),
  listGroupsForUser: ({ caller, params }, { people }) => people.listGroupsForUser(caller, params.id),
  listUsersInGroup: ({ params, query }, { people }) => people.listUsersInGroup(params.group, query),
  disableUser: ({ caller, params, audit }, { people }) => people.setEnabled(caller, params.id, false, audit),
  enableUser: ({ caller, params, audit }, { people }) => people.setEnabled(caller, params.id, true, audit),
  newUserNotice: ({ caller, params }, { people }) => people.newUserNotice(caller, params.id),
  emailUser: ({ body }, { people }) => people.emailUser(body),
  addUserToGroup: ({ caller, params, audit }, { people }) => people.addUserToGroup(caller, params, audit),
  removeUserFromGroup: ({ caller, params, audit }, { people }) => people.removeUserFromGroup(caller, params, audit),
  updateUser: ({ caller, params, body, audit }, { people }) => people.updateUser(caller, params.id, body, audit),
  adminResetUserPassword: ({ caller, params, audit }, { people }) =>
    people.adminResetUserPassword(caller, params.id, audit),
  forceResetPassword: ({ caller, params, audit }, { people }) => people.forceResetPassword(caller, params.id, audit),
  adminUserGlobalSignOut: ({ caller, params, audit }, { people }) =>
    people.adminUserGlobalSignOut(caller, params.id, audit),
  adminListUserAuthEvents: ({ caller, params, query }, { people }) =>
    people.adminListUserAuthEvents(caller, params.id, query),
  filterUsersByFirstLast: ({ params }, { people }) => people.filterUsersByFirstLast(params.first, params.last),
} satisfies AreaPart<typeof users, PeopleHandlerDeps>;
