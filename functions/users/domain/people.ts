import { hasRole, isStaff } from '../../../shared/auth/groups';
import type { Caller } from '../../../shared/auth/verify-token';
import { NOTIFIED_GROUPS, type RoleChanged } from '../../../shared/contracts/events';
import type { AuthEvent, Group, IdentityUser, UserRecord } from '../../../shared/contracts/users';
import { MESSAGES } from '../../../shared/messages';
import type { AccessVersionStore } from '../../_shared/access/access-version-store';
import { type AuditNote, NO_AUDIT } from '../../_shared/audit/audit-note';
import { BadRequest, Conflict, Forbidden, NotFound, ServiceUnavailable } from '../../_shared/errors';
import type { EventPublisher } from '../../_shared/events/event-publisher';
import type { Log } from '../../_shared/logger';
import type { Mailer } from '../../_shared/mail/mailer';
import type {
  AUTH_EVENTS_UNAVAILABLE,
  IdentityProvider,
  NameChange,
  Page,
  StoredUser,
  UserFilters,
  UserStore,
} from './ports';

/** Billing (spec §3): the customer id of an e-mail, or undefined when billing has none. */
export type FindCustomerIdByEmail = (email: string) => Promise<string | undefined>;

export interface PeopleDeps {
  log: Log;
  // Deleting a person is account deletion's (domain/account-deletion.ts), never this module's.
  identity: Omit<IdentityProvider, 'deleteUser'>;
  users: Pick<UserStore, 'get' | 'getMany' | 'save' | 'scanIds' | 'findIdsByEmail'>;
  sessions: Pick<AccessVersionStore, 'setDisabled' | 'signOutEverywhere' | 'setGroups'>;
  mailer: Pick<Mailer, 'send'>;
  backups: { bucket: string; putJson: (key: string, value: unknown) => Promise<void> };
  events: Pick<EventPublisher, 'publish'>;
  /** The sign-in events the platform records itself (used when the identity provider keeps none). */
  recordedAuthEvents: { list: (userId: string, page: PageRequest) => Promise<Page<AuthEvent>> };
  findCustomerIdByEmail: FindCustomerIdByEmail;
  /** The web app's origin, for links in e-mail. */
  webOrigin: string;
  now: () => number;
  newId: () => string;
  newPassword: () => string;
  /** Waits (a global sign-out waits for its second to end). @default setTimeout */
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface PageRequest {
  limit: number;
  cursor?: string;
}

type StaffGroup = (typeof NOTIFIED_GROUPS)[number];
const isStaffGroup = (group: string): group is StaffGroup => (NOTIFIED_GROUPS as readonly string[]).includes(group);
const isAdministrator = (groups: readonly string[]) => hasRole(groups, 'Administrators');

/** Spec §6 / docs/users.md: the person themself, or staff. */
export const assertSelfOrStaff = (caller: Caller, id: string): void => {
  if (caller.sub !== id && !isStaff(caller.groups)) throw new Forbidden(MESSAGES.selfOrStaffOnly);
};

/** An Employee may act on people's accounts, but not on an Administrator's: that needs an Administrator. */
const assertMayActOn = (caller: Caller, target: IdentityUser): void => {
  if (target.id !== caller.sub && isAdministrator(target.groups ?? []) && !isAdministrator(caller.groups)) {
    throw new Forbidden(MESSAGES.administratorNeedsAdministrator);
  }
};

/**
 * The contract's record: the store's own fields (index keys, notice time) stay inside, and so do the sign-in
 * methods, which the names route shows to whom people-names.ts allows.
 */
export const toRecord = (stored: StoredUser): UserRecord => {
  const { email: _email, newUserNoticeSentAt: _notice, signInMethods: _methods, ...record } = stored;
  return record;
};

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const displayNameOf = (user: { displayName?: string; givenName?: string; familyName?: string; email?: string }) =>
  user.displayName || [user.givenName, user.familyName].filter(Boolean).join(' ') || user.email || 'A new user';

/** A person's names, as the audit log shows a change of them. */
const namesOf = ({ givenName, familyName, displayName }: IdentityUser) => ({ givenName, familyName, displayName });

/** Case-insensitive "starts with"; `*` matches anything, including a missing name. */
export const namePrefixMatches = (prefix: string, value: string | undefined): boolean =>
  prefix === '*' || (value ?? '').toLocaleLowerCase().startsWith(prefix.toLocaleLowerCase());

const SAVE_ATTEMPTS = 3;

/** The people use cases of the users area (docs/users.md). */
export const createPeople = (deps: PeopleDeps) => {
  const { identity, users, sessions, mailer, events, now, log } = deps;

  /**
   * Read-modify-write of a user record under its version (`updated`): re-read and re-apply on a concurrent
   * change. `change` returns the new record, or undefined to leave it. @returns the record as left, or undefined
   * when the person has no record
   */
  const updateRecord = async (
    id: string,
    change: (record: StoredUser) => StoredUser | undefined,
  ): Promise<StoredUser | undefined> => {
    for (let attempt = 0; attempt < SAVE_ATTEMPTS; attempt += 1) {
      const record = await users.get(id);
      if (!record) return undefined;
      const next = change(record);
      if (!next) return record;
      const saved = { ...next, updated: Math.max(now(), record.updated + 1) };
      if (await users.save(saved, record.updated)) return saved;
    }
    throw new Conflict(MESSAGES.personChanged);
  };

  /** The record of an id, or of the one account with this e-mail (staff may name people by e-mail). */
  const recordOf = async (name: string): Promise<StoredUser> => {
    const direct = await users.get(name);
    if (direct) return direct;
    if (name.includes('@')) {
      const [id, other] = await users.findIdsByEmail(name);
      const found = id && !other ? await users.get(id) : undefined;
      if (found) return found;
    }
    throw new NotFound(MESSAGES.userMissing(name));
  };

  /** Changes one group membership and everything that follows from it; undone if the event cannot be sent. */
  const changeGroup = async (
    caller: Caller,
    { id, group, actor }: { id: string; group: string; actor: string },
    change: RoleChanged['change'],
    audit: AuditNote,
  ) => {
    if (actor !== caller.sub) throw new Forbidden(MESSAGES.actorMismatch);
    if (isStaffGroup(group) && !isAdministrator(caller.groups))
      throw new Forbidden(MESSAGES.staffRoleNeedsAdministrator);
    const target = await identity.getUser(id);
    const before = target.groups ?? [];
    const after = change === 'added' ? [...new Set([...before, group])] : before.filter((g) => g !== group);
    audit.label(target.email);
    audit.before({ groups: before });
    audit.after({ groups: after });
    const changed = after.length !== before.length;
    const apply = async (groups: string[], add: boolean) => {
      await (add ? identity.addUserToGroup(target.id, group) : identity.removeUserFromGroup(target.id, group));
      // Tokens issued before now carry the old groups: the session record's groups replace them on the next request.
      await sessions.setGroups(target.id, groups, now());
      await updateRecord(target.id, (record) => ({ ...record, rolesList: groups }));
    };
    await apply(after, change === 'added');
    if (changed && isStaffGroup(group)) {
      const event: RoleChanged = {
        kind: 'role.changed',
        eventId: deps.newId(),
        change,
        userId: target.id,
        group,
        actorId: caller.sub,
        at: now(),
      };
      try {
        await events.publish([event]);
      } catch (error) {
        log('error', 'Role change undone', {
          userId: target.id,
          group,
          change,
          error: error instanceof Error ? error.message : String(error),
        });
        await apply(before, change !== 'added');
        throw new ServiceUnavailable(MESSAGES.roleChangeUndone);
      }
    }
    return { id: target.id, done: true as const };
  };

  return {
    listGroups: async () => ({ items: await identity.listGroups() }),

    getGroup: (name: string): Promise<Group> => identity.getGroup(name),

    listUsers: ({ search, ...page }: PageRequest & { search?: string }) =>
      identity.listUsers({ ...page, ...(search ? { emailPrefix: search } : {}) }),

    getUser: async (caller: Caller, id: string): Promise<IdentityUser> => {
      assertSelfOrStaff(caller, id);
      return identity.getUser(id);
    },

    /** Spec §3: a record without a billing customer id gets it looked up from the e-mail, and kept. */
    getUserRecord: async (caller: Caller, id: string): Promise<UserRecord> => {
      assertSelfOrStaff(caller, id);
      const record = await recordOf(id);
      const email = record.metadata?.email ?? record.email;
      if (record.subscriptionId || !email) return toRecord(record);
      const customerId = await deps.findCustomerIdByEmail(email);
      if (!customerId) return toRecord(record);
      const saved = await updateRecord(record.id, (r) =>
        r.subscriptionId ? undefined : { ...r, subscriptionId: customerId },
      );
      return toRecord(saved ?? { ...record, subscriptionId: customerId });
    },

    usersByGroups: async () => {
      const groups = await identity.listGroups();
      const members = await Promise.all(groups.map((g) => identity.listAllUsersInGroup(g.GroupName)));
      return { groups: Object.fromEntries(groups.map((g, i) => [g.GroupName, members[i]!])) };
    },

    usersDdbWithBatchGet: async (ids: readonly string[]) => {
      const found = await users.getMany(ids);
      const present = new Set(found.map((u) => u.id));
      return { items: found.map(toRecord), missing: [...new Set(ids)].filter((id) => !present.has(id)) };
    },

    listUserIdsFromDdb: async ({ parameters, filters }: { parameters: Partial<PageRequest>; filters: UserFilters }) => {
      const { ids, nextCursor } = await users.scanIds(filters, {
        limit: parameters.limit ?? 50,
        ...(parameters.cursor ? { cursor: parameters.cursor } : {}),
      });
      return { Items: ids.map((id) => ({ id })), Count: ids.length, ...(nextCursor ? { nextCursor } : {}) };
    },

    listGroupsForUser: async (caller: Caller, id: string) => {
      assertSelfOrStaff(caller, id);
      return { items: await identity.listGroupsForUser(id) };
    },

    listUsersInGroup: (group: string, page: PageRequest) => identity.listUsersInGroup(group, page),

    /**
     * The session record is written first when refusing and last when allowing: if the second write fails, the
     * person is left in the stricter state, and a retry completes the change.
     */
    setEnabled: async (caller: Caller, id: string, enabled: boolean, audit: AuditNote = NO_AUDIT) => {
      const target = await identity.getUser(id);
      audit.label(target.email);
      audit.before({ enabled: target.enabled });
      if (!enabled && target.id === caller.sub) throw new BadRequest(MESSAGES.cannotDisableSelf);
      assertMayActOn(caller, target);
      if (enabled) {
        await identity.setEnabled(target.id, true);
        await sessions.setDisabled(target.id, false);
      } else {
        await sessions.setDisabled(target.id, true);
        await identity.setEnabled(target.id, false);
      }
      return { id: target.id, done: true as const };
    },

    /** Sent once per person: the record remembers it, and is marked before sending so two calls send one mail. */
    newUserNotice: async (caller: Caller, id: string) => {
      assertSelfOrStaff(caller, id);
      const record = await recordOf(id);
      if (record.newUserNoticeSentAt) return { id: record.id, sent: false };
      let marked = false;
      const sentAt = now();
      await updateRecord(record.id, (r) => {
        if (r.newUserNoticeSentAt) return undefined;
        marked = true;
        return { ...r, newUserNoticeSentAt: sentAt };
      });
      if (!marked) return { id: record.id, sent: false };
      try {
        const administrators = (await identity.listAllUsersInGroup('Administrators'))
          .filter((u) => u.enabled && u.email)
          .map((u) => u.email!);
        if (administrators.length) {
          const who = displayNameOf({ ...record, email: record.metadata?.email ?? record.email });
          const link = `${deps.webOrigin}/admin/people/${encodeURIComponent(record.id)}`;
          await mailer.send({
            to: [...new Set(administrators)],
            subject: MESSAGES.newUserNoticeSubject(who),
            text: MESSAGES.newUserNoticeText(who, link),
            html: `<p>${escapeHtml(who)} joined the device-data platform.</p><p><a href="${escapeHtml(link)}">Their page</a></p>`,
          });
        }
      } catch (error) {
        // Not sent: unmark, so a later call sends it.
        await updateRecord(record.id, (r) => {
          if (r.newUserNoticeSentAt !== sentAt) return undefined;
          const { newUserNoticeSentAt: _n, ...rest } = r;
          return rest;
        }).catch(() => undefined);
        throw error;
      }
      return { id: record.id, sent: true };
    },

    emailUser: async ({
      email,
    }: {
      region?: string;
      email: { toAddresses: string[]; subject: string; textMessage?: string; htmlMessage?: string };
    }) => {
      const messageId = await mailer.send({
        to: email.toAddresses,
        subject: email.subject,
        ...(email.textMessage?.trim() ? { text: email.textMessage } : {}),
        ...(email.htmlMessage?.trim() ? { html: email.htmlMessage } : {}),
      });
      return { messageId };
    },

    addUserToGroup: (caller: Caller, params: { id: string; group: string; actor: string }, audit = NO_AUDIT) =>
      changeGroup(caller, params, 'added', audit),

    removeUserFromGroup: (caller: Caller, params: { id: string; group: string; actor: string }, audit = NO_AUDIT) =>
      changeGroup(caller, params, 'removed', audit),

    /** Names live in the identity provider and are mirrored into the record (lists read records, not the pool). */
    updateUser: async (
      caller: Caller,
      id: string,
      names: NameChange,
      audit: AuditNote = NO_AUDIT,
    ): Promise<IdentityUser> => {
      assertSelfOrStaff(caller, id);
      const target = await identity.getUser(id);
      audit.label(target.email);
      audit.before(namesOf(target));
      await identity.updateNames(target.id, names);
      await updateRecord(target.id, (record) => {
        const next: StoredUser = { ...record };
        for (const key of ['givenName', 'familyName', 'displayName'] as const) {
          const value = names[key];
          if (value === undefined) continue;
          if (value) next[key] = value;
          else delete next[key];
        }
        return next;
      });
      const updated = await identity.getUser(target.id);
      audit.after(namesOf(updated));
      return updated;
    },

    adminResetUserPassword: async (caller: Caller, id: string, audit: AuditNote = NO_AUDIT) => {
      const target = await identity.getUser(id);
      audit.label(target.email);
      audit.before({ status: target.status });
      assertMayActOn(caller, target);
      await identity.resetPassword(target.id);
      return { id: target.id, done: true as const };
    },

    /** A temporary password, e-mailed to the person only: whoever forced it never learns it. */
    forceResetPassword: async (caller: Caller, id: string, audit: AuditNote = NO_AUDIT) => {
      const target = await identity.getUser(id);
      audit.label(target.email);
      audit.before({ status: target.status });
      assertMayActOn(caller, target);
      if (!target.email) throw new BadRequest(MESSAGES.noEmailAddress(target.id));
      const password = deps.newPassword();
      await identity.setPassword(target.id, password, false);
      await mailer.send({
        to: [target.email],
        subject: MESSAGES.temporaryPasswordSubject,
        text: MESSAGES.temporaryPasswordText(password, `${deps.webOrigin}/login`),
      });
      return { id: target.id, done: true as const };
    },

    /** The API refuses older tokens first (it is the authority); then the identity provider revokes refresh tokens. */
    adminUserGlobalSignOut: async (caller: Caller, id: string, audit: AuditNote = NO_AUDIT) => {
      assertSelfOrStaff(caller, id);
      const target = await identity.getUser(id);
      audit.label(target.email);
      assertMayActOn(caller, target);
      const at = now();
      await sessions.signOutEverywhere(target.id, at);
      audit.after({ signedOutEverywhereAt: at });
      await identity.globalSignOut(target.id);
      // Tokens of the sign-out's own second are refused (whole-second auth_time, session-guard.ts): answering once
      // that second is over means a sign-in that follows the answer is never refused with them.
      const settled = (Math.floor(at / 1000) + 1) * 1000 - now();
      if (settled > 0) await (deps.sleep ?? defaultSleep)(settled);
      return { id: target.id, done: true as const };
    },

    adminListUserAuthEvents: async (caller: Caller, id: string, page: PageRequest): Promise<Page<AuthEvent>> => {
      assertSelfOrStaff(caller, id);
      const own: Page<AuthEvent> | typeof AUTH_EVENTS_UNAVAILABLE = await identity.listAuthEvents(id, page);
      if (typeof own === 'object') return own;
      const userId = id === caller.sub ? id : (await identity.getUser(id)).id;
      return deps.recordedAuthEvents.list(userId, page);
    },

    filterUsersByFirstLast: async (first: string, last: string) => {
      const everyone = await identity.listAllUsers();
      return {
        items: everyone.filter((u) => namePrefixMatches(first, u.givenName) && namePrefixMatches(last, u.familyName)),
      };
    },

    backupUserPool: async (directory: string) => {
      const [everyone, groups] = await Promise.all([identity.listAllUsers(), identity.listGroups()]);
      const withMembers = await Promise.all(
        groups.map(async (g) => ({
          ...g,
          members: (await identity.listAllUsersInGroup(g.GroupName)).map((u) => u.id),
        })),
      );
      const exportedAt = now();
      const keys = [`${directory}/users.json`, `${directory}/groups.json`];
      await deps.backups.putJson(keys[0]!, { exportedAt, users: everyone });
      await deps.backups.putJson(keys[1]!, { exportedAt, groups: withMembers });
      return { bucket: deps.backups.bucket, keys, users: everyone.length, groups: groups.length };
    },
  };
};

export type People = ReturnType<typeof createPeople>;

/** A password that meets the pool's policy: `length` characters with every required class, from `random(n)` in [0, n). */
export const temporaryPassword = (
  policy: {
    minLength: number;
    requireLowercase: boolean;
    requireUppercase: boolean;
    requireDigits: boolean;
    requireSymbols: boolean;
  },
  random: (below: number) => number,
  length = Math.max(16, policy.minLength),
): string => {
  // Look-alikes (O/0, l/1/I) left out: the person types it from an e-mail.
  const classes = {
    lower: 'abcdefghijkmnopqrstuvwxyz',
    upper: 'ABCDEFGHJKLMNPQRSTUVWXYZ',
    digit: '23456789',
    symbol: '!#$%&*+-=?@^_',
  };
  const required = [
    ...(policy.requireLowercase ? [classes.lower] : []),
    ...(policy.requireUppercase ? [classes.upper] : []),
    ...(policy.requireDigits ? [classes.digit] : []),
    ...(policy.requireSymbols ? [classes.symbol] : []),
  ];
  const all = classes.lower + classes.upper + classes.digit + (policy.requireSymbols ? classes.symbol : '');
  const pick = (set: string) => set[random(set.length)]!;
  const chars = [...required.map(pick), ...Array.from({ length: length - required.length }, () => pick(all))];
  // Fisher–Yates, so the required characters are not always first.
  for (let i = chars.length - 1; i > 0; i -= 1) {
    const j = random(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
};
