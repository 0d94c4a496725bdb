import type { AuthEvent, Group, IdentityUser, Invite, UserRecord } from '../../../shared/contracts/users';
import type { PageRead, StoredPage } from '../../_shared/paging';

/** The identity provider's answer that the pool has no advanced-security add-on (so keeps no event log). */
export const AUTH_EVENTS_UNAVAILABLE = 'auth-events-unavailable' as const;

/** An event of one person: the contract's AuthEvent plus whose it is. */
export type UserAuthEvent = AuthEvent & {
  userId: string;
};

/**
 * What another area holds of a person and removes when their account is deleted (its part of the purge, from
 * functions/_shared/): idempotent, so the purge may run it again after a failure.
 */
export interface PersonHoldings {
  area: string;
  /** Removes everything of the person in the area. @returns how many things went */
  removeAllOf: (userId: string) => Promise<number>;
}

export interface AuthEventStore {
  record: (event: UserAuthEvent) => Promise<void>;
  /** Newest first, paged; the cursor names only the sort key, so it cannot reach another person's events. */
  list: (
    userId: string,
    page: {
      limit: number;
      cursor?: string;
    },
  ) => Promise<{
    items: AuthEvent[];
    nextCursor?: string;
  }>;
  /** Account deletion: every event of the person. */
  removeAll: (userId: string) => Promise<void>;
}

export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/** The names the platform keeps of a person (standard attributes given_name, family_name, name). */
export interface NameChange {
  givenName?: string;
  familyName?: string;
  displayName?: string;
}

export interface IdentityProvider {
  listGroups: () => Promise<Group[]>;
  getGroup: (name: string) => Promise<Group>;
  /** One page of the pool; `emailPrefix` narrows to e-mails starting with it (Cognito's `^=` filter). */
  listUsers: (page: { limit: number; cursor?: string; emailPrefix?: string }) => Promise<Page<IdentityUser>>;
  /** Every person in the pool, page after page (admin tooling: backups and name search). */
  listAllUsers: () => Promise<IdentityUser[]>;
  listUsersInGroup: (
    group: string,
    page: {
      limit: number;
      cursor?: string;
    },
  ) => Promise<Page<IdentityUser>>;
  /** Everyone in one group, all pages. */
  listAllUsersInGroup: (group: string) => Promise<IdentityUser[]>;
  /** A person with groups and MFA settings; NotFound (missing) when the pool has no such user. */
  getUser: (name: string) => Promise<IdentityUser>;
  listGroupsForUser: (name: string) => Promise<Group[]>;
  addUserToGroup: (name: string, group: string) => Promise<void>;
  removeUserFromGroup: (name: string, group: string) => Promise<void>;
  setEnabled: (name: string, enabled: boolean) => Promise<void>;
  /** Deletes the person from the pool; one already gone counts as deleted (a purge may be run again). */
  deleteUser: (name: string) => Promise<void>;
  /** Revokes the person's refresh tokens, so no new tokens are issued from them. */
  globalSignOut: (name: string) => Promise<void>;
  /** Invalidates the password and sends the person a reset code. */
  resetPassword: (name: string) => Promise<void>;
  setPassword: (name: string, password: string, permanent: boolean) => Promise<void>;
  /** Sets the names given; an empty name removes the attribute (Cognito refuses an empty value for some). */
  updateNames: (name: string, change: NameChange) => Promise<void>;
  /**
   * The identity provider's own log of the person's sign-ins, newest first, or AUTH_EVENTS_UNAVAILABLE when the
   * pool has no advanced-security add-on (Cognito then answers UserPoolAddOnNotEnabledException).
   */
  listAuthEvents: (
    name: string,
    page: {
      limit: number;
      cursor?: string;
    },
  ) => Promise<Page<AuthEvent> | typeof AUTH_EVENTS_UNAVAILABLE>;
}

export interface InviteFilters {
  status?: Invite['status'];
  type?: Invite['type'];
  objectId?: string;
  /** Only with the inviter's index: narrows it to one invited e-mail. */
  invitedEmail?: string;
}

export interface InviteStore {
  get: (id: string) => Promise<Invite | undefined>;
  /** @returns false when an invite with this id exists already */
  create: (invite: Invite) => Promise<boolean>;
  /**
   * Writes the invite if nobody changed it since it was read (`updated` is the version).
   * @returns false when it changed or vanished in between
   */
  save: (invite: Invite, readVersion: number) => Promise<boolean>;
  remove: (id: string) => Promise<void>;
  /** One page of the invites a person sent, newest first. */
  byInviter: (inviterId: string, filters: InviteFilters, page: PageRead) => Promise<StoredPage<Invite>>;
  /** One page of the invites sent to an e-mail address, newest first. */
  byInvitedEmail: (
    email: string,
    filters: Omit<InviteFilters, 'invitedEmail'>,
    page: PageRead,
  ) => Promise<StoredPage<Invite>>;
  /** Every invite a person sent, whatever its status, newest first (an account's deletion removes them). */
  allByInviter: (inviterId: string) => Promise<Invite[]>;
  /** Every invite sent to an e-mail address, whatever its status, newest first. */
  allByInvitedEmail: (email: string) => Promise<Invite[]>;
  /** Staff tooling without an inviter or e-mail to start from: a paged Scan, in no particular order. */
  scan: (filters: InviteFilters, page: PageRead) => Promise<StoredPage<Invite>>;
}

/** The stored record: the contract's User plus what the store keeps for its indexes and one-off notices. */
export interface StoredUser extends UserRecord {
  /** The e-mail the person signed up with (also in metadata.email); lower-cased in `emailKey`. */
  email: string;
  /** When the administrators were told this person joined (GET /newUserNotice/{id} sends once). */
  newUserNoticeSentAt?: number;
  /**
   * How the person signs in: `password` and/or identity providers' names (domain/sign-in-methods.ts). Absent on
   * records written before it was kept, which read as e-mail and password (`methodsOfRecord`).
   */
  signInMethods?: string[];
}

export interface NewUser {
  id: string;
  email: string;
  givenName?: string;
  familyName?: string;
  roles: string[];
  /** How the person signs in, from the trigger that confirmed them (domain/sign-in-methods.ts). */
  signInMethods?: string[];
  now: number;
}

export interface UserFilters {
  email?: string;
  deletionQueued?: boolean;
  role?: string;
}

export interface UserStore {
  get: (id: string) => Promise<StoredUser | undefined>;
  getMany: (ids: readonly string[]) => Promise<StoredUser[]>;
  /**
   * Creates the record of a person who has none (first sign-in or confirmed sign-up); an existing record
   * is left as it is. @returns whether it was created
   */
  ensure: (user: NewUser) => Promise<boolean>;
  /**
   * Writes the whole record if nobody changed it since it was read (`updated` is the version).
   * @returns false when the record changed or vanished in between; the caller reads again or reports 409
   */
  save: (user: StoredUser, readVersion: number) => Promise<boolean>;
  /**
   * Adds sign-in methods to an existing record (a provider's login linked to it), in one ADD: no read, and a method
   * already kept stays once. `updated` is left alone, so a concurrent `save` of a copy read before may drop the
   * addition; the identity trigger adds it again at the person's next sign-in (the account's `identities` name it).
   * @returns false when the person has no record (nothing is created: a record without its e-mail is no record)
   */
  addSignInMethods: (id: string, methods: readonly string[]) => Promise<boolean>;
  findIdsByEmail: (email: string) => Promise<string[]>;
  /** Every queued deletion due at or before `now`, oldest first (the deletion job's work). */
  listDueDeletions: (now: number) => Promise<StoredUser[]>;
  /**
   * Admin tooling (POST /listUserIdsFromDdb): a paged Scan with the filters applied by DynamoDB, so a page
   * may hold fewer ids than the limit while more follow (the cursor says so).
   */
  scanIds: (
    filters: UserFilters,
    page: {
      limit: number;
      cursor?: string;
    },
  ) => Promise<{
    ids: string[];
    nextCursor: string | undefined;
  }>;
  remove: (id: string) => Promise<void>;
}
