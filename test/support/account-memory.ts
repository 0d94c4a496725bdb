import { createRelationEffects } from '../../functions/_shared/relations/relation-effects';
import type { AccountDeps, IdentityAdmin } from '../../functions/users/domain/account-deletion';
import type { InvitesDeps } from '../../functions/users/domain/invites';
import type { StoredUser } from '../../functions/users/domain/ports';
import type { DomainEvent } from '../../shared/contracts/events';
import type { Relation } from '../../shared/contracts/relations';
import type { Invite } from '../../shared/contracts/users';
import { DELETION_DELAY_MS } from '../../shared/users/constants';
import { recordingLog } from './log';

type Key = Record<string, unknown>;

/** Pages over a list by the position after the last item returned. */
const pageOf = <T>(items: T[], limit: number, startKey: Key | undefined) => {
  const start = typeof startKey?.at === 'number' ? startKey.at : 0;
  const end = start + limit;
  return { items: items.slice(start, end), lastKey: end < items.length ? { at: end } : undefined };
};

/**
 * Unit-test doubles for invites and account deletion: every store in memory, with the same contracts as
 * the DynamoDB, Cognito, SQS and SES adapters (versioned saves, conditional creates, paging). `fail` makes
 * a named operation throw once, to test what a failure part-way leaves.
 */
export const accountWorld = (start = 1_000_000) => {
  let clock = start;
  let ids = 0;
  const failures = new Map<string, number>();
  const maybeFail = (operation: string) => {
    const left = failures.get(operation) ?? 0;
    if (left > 0) {
      failures.set(operation, left - 1);
      throw new Error(`${operation} failed (test)`);
    }
  };

  const users = new Map<string, StoredUser>();
  const invites = new Map<string, Invite>();
  const relations = new Map<string, Relation>();
  const identity = new Map<string, { email: string; enabled: boolean }>();
  const sessions = new Map<string, { disabled?: boolean; retiredAt?: number; version: number }>();
  const authEvents = new Map<string, number>();
  const mail: { to: readonly string[]; subject: string; text?: string }[] = [];
  const events: DomainEvent[] = [];
  const bumps: string[] = [];
  /** What another area holds of each person (alert rules, webhooks), and how many relations they had when it went. */
  const held = new Map<string, number>();
  const relationsWhenHeldWent = new Map<string, number>();

  const session = (id: string) => {
    const s = sessions.get(id) ?? { version: 0 };
    sessions.set(id, s);
    return s;
  };

  const newestFirst = (a: Invite, b: Invite) => b.created - a.created;
  const matches = (invite: Invite, f: { status?: string; type?: string; invitedEmail?: string }) =>
    (!f.status || invite.status === f.status) &&
    (!f.type || invite.type === f.type) &&
    (!f.invitedEmail || invite.invited.email.toLowerCase() === f.invitedEmail.toLowerCase());

  const stores = {
    users: {
      get: async (id: string) => {
        maybeFail('users.get');
        const user = users.get(id);
        return user ? structuredClone(user) : undefined;
      },
      save: async (user: StoredUser, readVersion: number) => {
        maybeFail('users.save');
        const current = users.get(user.id);
        if (!current || current.updated !== readVersion) return false;
        users.set(user.id, structuredClone(user));
        return true;
      },
      remove: async (id: string) => {
        maybeFail('users.remove');
        users.delete(id);
      },
      listDueDeletions: async (now: number) =>
        [...users.values()]
          .filter((u) => {
            const time = u.metadata?.deletionQueued?.time;
            return time !== undefined && time + DELETION_DELAY_MS <= now;
          })
          .sort((a, b) => a.metadata!.deletionQueued!.time! - b.metadata!.deletionQueued!.time!)
          .map((u) => structuredClone(u)),
    },
    invites: {
      get: async (id: string) => (invites.has(id) ? structuredClone(invites.get(id)!) : undefined),
      create: async (invite: Invite) => {
        if (invites.has(invite.id)) return false;
        invites.set(invite.id, structuredClone(invite));
        return true;
      },
      save: async (invite: Invite, readVersion: number) => {
        maybeFail('invites.save');
        const current = invites.get(invite.id);
        if (!current || current.updated !== readVersion) return false;
        invites.set(invite.id, structuredClone(invite));
        return true;
      },
      remove: async (id: string) => {
        maybeFail('invites.remove');
        invites.delete(id);
      },
      byInviter: async (
        inviterId: string,
        f: { status?: string; type?: string },
        p: { limit: number; startKey?: Key },
      ) =>
        pageOf(
          [...invites.values()].filter((i) => i.inviterId === inviterId && matches(i, f)).sort(newestFirst),
          p.limit,
          p.startKey,
        ),
      byInvitedEmail: async (
        email: string,
        f: { status?: string; type?: string },
        p: { limit: number; startKey?: Key },
      ) =>
        pageOf(
          [...invites.values()]
            .filter((i) => i.invited.email.toLowerCase() === email.toLowerCase() && matches(i, f))
            .sort(newestFirst),
          p.limit,
          p.startKey,
        ),
      allByInviter: async (inviterId: string) =>
        [...invites.values()].filter((i) => i.inviterId === inviterId).sort(newestFirst),
      allByInvitedEmail: async (email: string) =>
        [...invites.values()].filter((i) => i.invited.email.toLowerCase() === email.toLowerCase()).sort(newestFirst),
      scan: async (f: { status?: string; type?: string }, p: { limit: number; startKey?: Key }) =>
        pageOf(
          [...invites.values()].filter((i) => matches(i, f)),
          p.limit,
          p.startKey,
        ),
    },
    table: {
      getMany: async (wanted: readonly string[]) =>
        [...new Set(wanted)].flatMap((id) => (relations.has(id) ? [relations.get(id)!] : [])),
      create: async (relation: Relation) => {
        maybeFail('table.create');
        if (relations.has(relation.id)) return false;
        relations.set(relation.id, relation);
        return true;
      },
      remove: async (id: string) => {
        maybeFail('table.remove');
        const relation = relations.get(id);
        relations.delete(id);
        return relation;
      },
      queryIndex: async (
        side: 'referrer' | 'referent',
        id: string,
        { limit, startKey }: { limit: number; startKey?: Key },
      ) =>
        pageOf(
          [...relations.values()].filter((r) => r[`${side}Id`] === id).sort((a, b) => a.id.localeCompare(b.id)),
          limit,
          startKey,
        ),
      queryEveryType: async (side: 'referrer' | 'referent', id: string) =>
        [...relations.values()].filter((r) => r[`${side}Id`] === id).sort((a, b) => a.id.localeCompare(b.id)),
    },
    sessions: {
      setDisabled: async (id: string, disabled: boolean) => {
        maybeFail('sessions.setDisabled');
        session(id).disabled = disabled;
      },
      retire: async (id: string, now: number) => {
        maybeFail('sessions.retire');
        sessions.set(id, { disabled: true, retiredAt: now, version: 0 });
      },
      bump: async (userIds: readonly string[], _now: number) => {
        maybeFail('sessions.bump');
        for (const id of new Set(userIds)) {
          session(id).version += 1;
          bumps.push(id);
        }
      },
    },
    identity: {
      disableUser: async (id: string) => {
        maybeFail('identity.disableUser');
        const user = identity.get(id);
        if (user) user.enabled = false;
      },
      enableUser: async (id: string) => {
        maybeFail('identity.enableUser');
        const user = identity.get(id);
        if (user) user.enabled = true;
      },
      deleteUser: async (id: string) => {
        maybeFail('identity.deleteUser');
        identity.delete(id);
      },
      getUser: async (id: string) => (identity.has(id) ? { email: identity.get(id)!.email } : undefined),
    } satisfies IdentityAdmin,
    authEvents: {
      removeAll: async (id: string) => {
        maybeFail('authEvents.removeAll');
        authEvents.delete(id);
      },
    },
    holdings: [
      {
        area: 'elsewhere',
        removeAllOf: async (id: string) => {
          maybeFail('holdings.removeAllOf');
          const count = held.get(id) ?? 0;
          relationsWhenHeldWent.set(
            id,
            [...relations.values()].filter((r) => r.referrerId === id || r.referentId === id).length,
          );
          held.delete(id);
          return count;
        },
      },
    ],
    mailer: {
      send: async (message: { to: readonly string[]; subject: string; text?: string }) => {
        maybeFail('mailer.send');
        mail.push(message);
        return `mail-${mail.length}`;
      },
    },
    events: {
      publish: async (batch: readonly DomainEvent[]) => {
        maybeFail('events.publish');
        events.push(...batch);
      },
    },
  };

  const now = () => clock;
  const newId = () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`;
  const effects = createRelationEffects({ versions: stores.sessions, events: stores.events, now, newId });

  const { log, lines: logged } = recordingLog();
  const accountDeps: AccountDeps = {
    log,
    users: stores.users,
    invites: stores.invites,
    table: stores.table,
    effects,
    sessions: stores.sessions,
    identity: stores.identity,
    authEvents: stores.authEvents,
    holdings: stores.holdings,
    mailer: stores.mailer,
    now,
  };
  const invitesDeps: InvitesDeps = {
    log,
    invites: stores.invites,
    users: stores.users,
    table: stores.table,
    effects,
    mailer: stores.mailer,
    webOrigin: 'https://app.example.test',
    now,
    newId,
  };

  return {
    accountDeps,
    invitesDeps,
    /** What the use cases logged, line by line. */
    logged,
    users,
    invites,
    relations,
    identity,
    sessions,
    authEvents,
    mail,
    events,
    bumps,
    held,
    relationsWhenHeldWent,
    advance: (ms: number) => {
      clock += ms;
    },
    now,
    /** The next `times` calls of `operation` throw. */
    fail: (operation: string, times = 1) => failures.set(operation, times),
    /** A person as sign-up leaves them: in the identity provider, with a record and sign-in events. */
    addPerson: (id: string, email = `${id}@example.test`, roles: string[] = ['Authenticated_users']) => {
      identity.set(id, { email, enabled: true });
      users.set(id, {
        id,
        email,
        metadata: { email },
        cartItems: [],
        rolesList: roles,
        created: clock,
        updated: clock,
      });
      authEvents.set(id, 2);
      return id;
    },
    relate: (type: Relation['type'], referrerId: string, referentId: string) => {
      const relation: Relation = {
        id: `${type}#${referrerId}#${referentId}`,
        type,
        referrerId,
        referentId,
        created: clock,
      };
      relations.set(relation.id, relation);
      return relation;
    },
  };
};
