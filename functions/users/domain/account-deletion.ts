import { isStaff } from '../../../shared/auth/groups';
import type { Caller } from '../../../shared/auth/verify-token';
import type { ParsedRequest } from '../../../shared/contracts/define-route';
import type { Relation } from '../../../shared/contracts/relations';
import type { Cart, CartItem, Invite, users as usersContract } from '../../../shared/contracts/users';
import { MESSAGES } from '../../../shared/messages';
import { relationId } from '../../../shared/relations/relation-types';
import { DELETION_DELAY_MS } from '../../../shared/users/constants';
import type { AccessVersionStore } from '../../_shared/access/access-version-store';
import { type AuditNote, NO_AUDIT } from '../../_shared/audit/audit-note';
import { BadRequest, Conflict, Forbidden, NotFound, ServiceUnavailable } from '../../_shared/errors';
import type { Log } from '../../_shared/logger';
import type { Mailer } from '../../_shared/mail/mailer';
import type { RelationEffects } from '../../_shared/relations/relation-effects';
import type { RelationTable } from '../../_shared/relations/relation-table';
import { repeatedItem, withItem, withoutItem, withQuantity } from './cart';
import { toRecord } from './people';
import type { AuthEventStore, InviteStore, PersonHoldings, StoredUser, UserStore } from './ports';

export type RecordChange = ParsedRequest<typeof usersContract.routes.updateUserRecord>['body'];

/** Which item of a cart a change is about. */
export type CartKey = Pick<CartItem, 'productId' | 'deviceId'>;

/** What account deletion needs of the identity provider (Cognito's admin operations on the user pool). */
export interface IdentityAdmin {
  disableUser: (id: string) => Promise<void>;
  enableUser: (id: string) => Promise<void>;
  /** Resolves once the user is gone; a user who is gone already is not an error. */
  deleteUser: (id: string) => Promise<void>;
  /** The user's e-mail as the identity provider holds it; undefined when there is no such user. */
  getUser: (id: string) => Promise<{ email?: string } | undefined>;
}

export interface AccountDeps {
  log: Log;
  users: Pick<UserStore, 'get' | 'save' | 'remove' | 'listDueDeletions'>;
  invites: Pick<InviteStore, 'allByInviter' | 'allByInvitedEmail' | 'remove'>;
  table: Pick<RelationTable, 'queryEveryType' | 'remove'>;
  effects: RelationEffects;
  sessions: Pick<AccessVersionStore, 'setDisabled' | 'retire'>;
  identity: IdentityAdmin;
  authEvents: Pick<AuthEventStore, 'removeAll'>;
  /** Other areas' parts of the purge (alert rules, webhooks), run before the person's relations go. */
  holdings: readonly PersonHoldings[];
  mailer: Pick<Mailer, 'send'>;
  now: () => number;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Is this record's queued deletion due at `now`? (It becomes due DELETION_DELAY_MS after it was queued.) */
export const isDeletionDue = (user: StoredUser | undefined, now: number): boolean => {
  const time = user?.metadata?.deletionQueued?.time;
  return time !== undefined && time + DELETION_DELAY_MS <= now;
};

/**
 * A person's record changes, queueing and unqueueing a deletion (spec §4), and the purge that deletes an
 * account with everything the platform holds of the person. Rules and order: docs/users.md.
 */
/** The record before and after a change, as the contract shows a record, for the audit log. */
const noteChange = (audit: AuditNote, before: StoredUser, after: StoredUser) => {
  audit.label(before.email);
  audit.before(toRecord(before));
  audit.after(toRecord(after));
};

/** The cart before a change, in the shape the cart routes answer. */
const noteCart = (audit: AuditNote, before: StoredUser) => {
  audit.label(before.email);
  audit.before({ items: before.cartItems });
};

export const createAccount = (deps: AccountDeps) => {
  const { users, invites, table, effects, sessions, identity, authEvents, holdings, mailer, now, log } = deps;

  const selfOrStaff = (caller: Caller, id: string) => {
    if (caller.sub !== id && !isStaff(caller.groups)) throw new Forbidden(MESSAGES.selfOrStaffOnly);
  };

  /** Spec §5: a second item of a product and device is refused and logged, by whichever route it came. */
  const logDuplicate = (id: string, item: Pick<CartItem, 'productId' | 'deviceId'>) =>
    log('warn', MESSAGES.itemAlreadyInCart, { id, productId: item.productId, deviceId: item.deviceId });

  /**
   * Reads the record, applies the change and writes it over the version read; if someone changed it in
   * between, once more from a fresh read, then 409.
   */
  const change = async (id: string, apply: (user: StoredUser) => StoredUser) => {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const before = await users.get(id);
      if (!before) throw new NotFound(MESSAGES.userMissing(id));
      const after = { ...apply(before), updated: Math.max(now(), before.updated + 1) };
      if (await users.save(after, before.updated)) return { before, after };
    }
    throw new Conflict(MESSAGES.recordChanged);
  };

  /** Puts a record back as it was before a change whose consequences failed (best effort, logged). */
  const restore = async (before: StoredUser, after: StoredUser) => {
    const restored = await users
      .save({ ...before, updated: Math.max(now(), after.updated + 1) }, after.updated)
      .catch(() => false);
    if (!restored) log('error', 'User record not restored after a failed change', { id: before.id });
  };

  const setEnabled = async (id: string, enabled: boolean) => {
    // The session record first when disabling (tokens stop at once), last when enabling.
    if (enabled) {
      await identity.enableUser(id);
      await sessions.setDisabled(id, false);
    } else {
      await sessions.setDisabled(id, true);
      await identity.disableUser(id);
    }
  };

  /** Every relation with the person at either end: published first (at least once), removed, then versions raised. */
  const purgeRelations = async (id: string, actorId: string) => {
    const found = new Map<string, Relation>();
    for (const side of ['referrer', 'referent'] as const) {
      for (const relation of await table.queryEveryType(side, id)) found.set(relation.id, relation);
    }
    const relations = [...found.values()];
    if (!relations.length) return 0;
    // Before the removal: a rerun after a failure finds the relations again and sends again (consumers
    // de-duplicate and re-read); sent after, an event whose relation was removed would never be sent.
    await effects.publish(
      relations.map((relation) => ({ change: 'removed' as const, relation })),
      actorId,
    );
    for (const relation of relations) await table.remove(relation.id);
    await effects.bump(relations);
    return relations.length;
  };

  /** Removes one invite and its inviter's inviter-invite relation (the relation first: the invite finds it). */
  const removeInvite = async (invite: Invite) => {
    const relation = await table.remove(relationId('inviter-invite', invite.inviterId, invite.id));
    if (relation) await effects.bump([relation]);
    await invites.remove(invite.id);
  };

  /**
   * Deletes an account and everything the platform holds of the person. Idempotent, and ordered so that a
   * failure part-way leaves the user record (the last thing removed, and what brings the job back) and
   * nothing that only the removed parts could find.
   */
  const purge = async (id: string, actorId: string, at: number, audit: AuditNote = NO_AUDIT) => {
    const record = await users.get(id);
    const known = await identity.getUser(id);
    if (!record && !known) return false;
    audit.label(record?.email ?? known?.email);
    audit.before(record ? toRecord(record) : { id, email: known?.email });
    const email = record?.metadata?.email ?? record?.email ?? known?.email;
    // 1. The person can do nothing more, at once (the session record is what every request reads).
    await sessions.setDisabled(id, true);
    if (known) await identity.disableUser(id);
    // 2. Invites the person sent, then those sent to them (whatever their status: they hold the e-mail).
    const sent = await invites.allByInviter(id);
    for (const invite of sent) await removeInvite(invite);
    const received = email ? await invites.allByInvitedEmail(email) : [];
    for (const invite of received) await removeInvite(invite);
    // 3. What other areas hold of the person (their alert rules, their webhooks), while their relations still say
    // where the person was a recipient.
    const held: Record<string, number> = {};
    for (const part of holdings) held[part.area] = await part.removeAllOf(id);
    // 4. Relations at both ends, including the last manager of an organization or campaign.
    const relations = await purgeRelations(id, actorId);
    // 5. Sign-in events, the identity, the session record (down to an expiring tombstone), the record.
    await authEvents.removeAll(id);
    await identity.deleteUser(id);
    await sessions.retire(id, at);
    await users.remove(id);
    log('info', 'Account deleted', { id, actorId, invites: sent.length + received.length, relations, held });
    return true;
  };

  return {
    updateRecord: async (
      caller: Caller,
      id: string,
      body: RecordChange,
      audit: AuditNote = NO_AUDIT,
    ): Promise<StoredUser> => {
      selfOrStaff(caller, id);
      const unqueue = body.deletion === 'unqueue';
      if (unqueue && !isStaff(caller.groups)) throw new Forbidden(MESSAGES.unqueueStaffOnly);
      const repeated = body.cartItems && repeatedItem(body.cartItems);
      if (repeated) {
        logDuplicate(id, repeated);
        throw new Conflict(MESSAGES.itemAlreadyInCart);
      }
      const { before, after } = await change(id, (user) => {
        const { displayName: _d, ...rest } = user;
        const displayName = body.displayName ?? user.displayName;
        const next: StoredUser = {
          ...rest,
          ...(displayName ? { displayName } : {}),
          ...(body.cartItems ? { cartItems: body.cartItems } : {}),
          ...(body.localCacheTime !== undefined ? { localCacheTime: body.localCacheTime } : {}),
        };
        if (!unqueue) return next;
        const queued = user.metadata?.deletionQueued;
        if (!user.metadata || !queued || queued.time === undefined) throw new BadRequest(MESSAGES.noDeletionQueue);
        const { history, ...request } = queued;
        return {
          ...next,
          metadata: {
            ...user.metadata,
            // Spec §3/§4: the queue data moves into history with who unqueued it; time, selfRequested and
            // requester are cleared.
            deletionQueued: {
              history: [...history, { ...request, unqueuedBy: { requester: caller.sub, time: now() } }],
            },
          },
        };
      });
      if (unqueue) {
        try {
          await setEnabled(id, true);
        } catch (error) {
          log('error', 'Deletion unqueue undone', { id, error: errorText(error) });
          await restore(before, after);
          throw new ServiceUnavailable(MESSAGES.changeUndone);
        }
      }
      noteChange(audit, before, after);
      return after;
    },

    /** Spec §5: one more item in the cart; a second of the same product and device is refused and logged. */
    addCartItem: async (caller: Caller, id: string, item: CartItem, audit: AuditNote = NO_AUDIT): Promise<Cart> => {
      selfOrStaff(caller, id);
      try {
        const { before, after } = await change(id, (user) => ({ ...user, cartItems: withItem(user.cartItems, item) }));
        noteCart(audit, before);
        return { items: after.cartItems };
      } catch (error) {
        if (error instanceof Conflict && error.message === MESSAGES.itemAlreadyInCart) logDuplicate(id, item);
        throw error;
      }
    },

    setCartQuantity: async (
      caller: Caller,
      id: string,
      key: CartKey,
      quantity: number,
      audit: AuditNote = NO_AUDIT,
    ): Promise<Cart> => {
      selfOrStaff(caller, id);
      const { before, after } = await change(id, (user) => ({
        ...user,
        cartItems: withQuantity(user.cartItems, key, quantity),
      }));
      noteCart(audit, before);
      return { items: after.cartItems };
    },

    removeCartItem: async (caller: Caller, id: string, key: CartKey, audit: AuditNote = NO_AUDIT): Promise<Cart> => {
      selfOrStaff(caller, id);
      const { before, after } = await change(id, (user) => ({ ...user, cartItems: withoutItem(user.cartItems, key) }));
      noteCart(audit, before);
      return { items: after.cartItems };
    },

    /** Spec §4: queue the account for deletion; it is deleted 2 to 4 weeks later by the deletion job. */
    queue: async (caller: Caller, id: string, audit: AuditNote = NO_AUDIT): Promise<StoredUser> => {
      selfOrStaff(caller, id);
      const { before, after } = await change(id, (user) => {
        if (!user.metadata) throw new BadRequest(MESSAGES.noCustomMetadata);
        const queued = user.metadata.deletionQueued;
        if (queued?.time !== undefined) throw new Conflict(MESSAGES.deletionAlreadyQueued);
        return {
          ...user,
          metadata: {
            ...user.metadata,
            deletionQueued: {
              time: now(),
              selfRequested: caller.sub === id,
              requester: caller.sub,
              history: queued?.history ?? [],
            },
          },
        };
      });
      try {
        await setEnabled(id, false);
        await mailer.send({
          to: [after.metadata!.email || after.email],
          subject: MESSAGES.deletionEmailSubject,
          text: MESSAGES.deletionEmailText,
        });
      } catch (error) {
        // All or nothing: a person is never queued without being disabled and told.
        log('error', 'Deletion queue undone', { id, error: errorText(error) });
        await restore(before, after);
        await setEnabled(id, true).catch((enableError: unknown) =>
          log('error', 'User not enabled again after an undone queue', { id, error: errorText(enableError) }),
        );
        throw new ServiceUnavailable(MESSAGES.changeUndone);
      }
      noteChange(audit, before, after);
      return after;
    },

    /** Administrators: delete the account now (no queue, no e-mail). */
    deleteNow: async (caller: Caller, id: string, audit: AuditNote = NO_AUDIT): Promise<void> => {
      if (!(await purge(id, caller.sub, now(), audit))) throw new NotFound(MESSAGES.userMissing(id));
    },

    /**
     * The scheduled job: every queued deletion due at `at`, one person at a time. A failure is logged and
     * the others go on; the person stays queued, so the next run tries again.
     */
    runDueDeletions: async (at: number) => {
      const due = await users.listDueDeletions(at);
      const deleted: string[] = [];
      const failed: string[] = [];
      for (const user of due) {
        try {
          // Read again: it may have been unqueued since the index was read.
          const current = await users.get(user.id);
          if (!isDeletionDue(current, at)) continue;
          const requester = current!.metadata!.deletionQueued!.requester ?? user.id;
          await purge(user.id, requester, at);
          deleted.push(user.id);
        } catch (error) {
          failed.push(user.id);
          log('error', 'Queued deletion failed; it stays queued for the next run', {
            id: user.id,
            error: errorText(error),
          });
        }
      }
      return { due: due.length, deleted, failed };
    },
  };
};

export type Account = ReturnType<typeof createAccount>;
