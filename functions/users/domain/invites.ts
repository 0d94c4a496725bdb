import type * as z from 'zod';
import { isStaff } from '../../../shared/auth/groups';
import type { Caller } from '../../../shared/auth/verify-token';
import type { ParsedRequest } from '../../../shared/contracts/define-route';
import type { Relation } from '../../../shared/contracts/relations';
import type { Invite, InviteType as InviteTypeSchema, users } from '../../../shared/contracts/users';
import { MESSAGES } from '../../../shared/messages';
import { DIRECT_GRANTS, mayCreate } from '../../../shared/relations/relation-rules';
import { type GuardedKind, RELATION_TYPE_INFO, relationId } from '../../../shared/relations/relation-types';
import { type AuditNote, NO_AUDIT } from '../../_shared/audit/audit-note';
import { BadRequest, Conflict, Forbidden, NotFound, ServiceUnavailable } from '../../_shared/errors';
import type { Log } from '../../_shared/logger';
import type { Mailer } from '../../_shared/mail/mailer';
import { type PageSource, pageAcross } from '../../_shared/paging';
import type { RelationEffects } from '../../_shared/relations/relation-effects';
import type { RelationTable } from '../../_shared/relations/relation-table';
import type { InviteStore, UserStore } from './ports';

type InviteType = z.infer<typeof InviteTypeSchema>;
export type NewInvite = ParsedRequest<typeof users.routes.inviteUser>['body'];
export type InviteChange = ParsedRequest<typeof users.routes.updateInvite>['body'];
export type InviteListFilters = ParsedRequest<typeof users.routes.listInvites>['body']['filters'];

export interface InvitesDeps {
  log: Log;
  invites: Pick<InviteStore, 'get' | 'create' | 'save' | 'remove' | 'byInviter' | 'byInvitedEmail' | 'scan'>;
  users: Pick<UserStore, 'get'>;
  table: Pick<RelationTable, 'getMany' | 'create' | 'remove'>;
  effects: RelationEffects;
  mailer: Pick<Mailer, 'send'>;
  /** The web app's origin (WEB_ORIGIN): the invite e-mail links to `{webOrigin}/invites/{id}`. */
  webOrigin: string;
  now: () => number;
  newId: () => string;
}

/** The device, organization or campaign a membership invite adds its acceptor to; undefined for inviter-contact. */
export const inviteObjectKind = (type: InviteType): GuardedKind | undefined => {
  const kind = RELATION_TYPE_INFO[type].referrer;
  return kind === 'organization' || kind === 'campaign' || kind === 'device' ? kind : undefined;
};

const sameEmail = (a: string | undefined, b: string | undefined) =>
  a !== undefined && b !== undefined && a.trim().toLowerCase() === b.trim().toLowerCase();

/** Invites (spec §3, §7): the rules are in docs/users.md, "Invites". */
export const createInvites = (deps: InvitesDeps) => {
  const { invites, users, table, effects, mailer, now, newId, log } = deps;

  /** The caller's e-mail: an id token carries it; an access token does not, so the record answers then. */
  const emailOf = async (caller: Caller): Promise<string | undefined> =>
    caller.email ?? (await users.get(caller.sub))?.email;

  /** May this person, with these groups, add someone to the object as `type` now? (relation-rules mayCreate) */
  const mayGrant = async (type: InviteType, objectId: string, personId: string, staff: boolean, referentId: string) => {
    const kind = inviteObjectKind(type)!;
    const held = staff
      ? []
      : (await table.getMany(DIRECT_GRANTS[kind].view.map((t) => relationId(t, objectId, personId)))).map(
          (r) => r.type,
        );
    return mayCreate(
      { type, referrerId: objectId, referentId },
      { callerId: personId, staff, onReferrer: held, onReferent: [] },
    );
  };

  const inviterRelation = (invite: Invite): Relation => ({
    id: relationId('inviter-invite', invite.inviterId, invite.id),
    type: 'inviter-invite',
    referrerId: invite.inviterId,
    referentId: invite.id,
    created: invite.created,
    createdBy: invite.inviterId,
  });

  const mail = (invite: Invite) => {
    const link = `${deps.webOrigin.replace(/\/+$/, '')}/invites/${invite.id}`;
    return mailer.send({
      to: [invite.invited.email],
      subject: MESSAGES.inviteEmailSubject(invite.inviterName),
      text: MESSAGES.inviteEmailText(invite.inviterName, link, invite.message),
    });
  };

  const find = async (id: string): Promise<Invite> => {
    const invite = await invites.get(id);
    if (!invite) throw new NotFound(MESSAGES.inviteNotFound(id));
    return invite;
  };

  /** Writes a changed invite over the version read; someone else's change in between is a 409. */
  const save = async (invite: Invite, readVersion: number): Promise<Invite> => {
    const next = { ...invite, updated: Math.max(now(), readVersion + 1) };
    if (!(await invites.save(next, readVersion))) throw new Conflict(MESSAGES.recordChanged);
    return next;
  };

  /**
   * The relations an accepted invite stands for: inviter-contact (inviter → acceptor) always, and for a
   * membership invite the membership (object → acceptor), unless the acceptor already holds a role of that
   * family there (a manager invited as a user keeps being a manager). Creating is idempotent, and the
   * versions are raised on every attempt, so a retry after a failure finishes the work.
   */
  const grant = async (invite: Invite, acceptorId: string): Promise<void> => {
    const wanted: Relation[] = [
      {
        id: relationId('inviter-contact', invite.inviterId, acceptorId),
        type: 'inviter-contact',
        referrerId: invite.inviterId,
        referentId: acceptorId,
        created: now(),
        createdBy: invite.inviterId,
      },
    ];
    if (invite.objectId && inviteObjectKind(invite.type)) {
      const family = RELATION_TYPE_INFO[invite.type].family;
      const held = await table.getMany(family.map((t) => relationId(t, invite.objectId!, acceptorId)));
      if (!held.length) {
        wanted.push({
          id: relationId(invite.type, invite.objectId, acceptorId),
          type: invite.type,
          referrerId: invite.objectId,
          referentId: acceptorId,
          created: now(),
          createdBy: invite.inviterId,
        });
      }
    }
    const added: Relation[] = [];
    for (const relation of wanted) if (await table.create(relation)) added.push(relation);
    await effects.bump(wanted);
    await effects.publish(
      added.map((relation) => ({ change: 'added' as const, relation })),
      acceptorId,
    );
  };

  const accept = async (caller: Caller, invite: Invite): Promise<Invite> => {
    if (invite.status === 'accepted' && invite.acceptedBy === caller.sub) return invite;
    if (invite.status !== 'pending') throw new Conflict(MESSAGES.inviteNotPending(invite.status));
    if (invite.inviterId === caller.sub) throw new BadRequest(MESSAGES.inviteOwn);
    if (invite.objectId && inviteObjectKind(invite.type)) {
      // The inviter's right to add members is checked again: it may have been lost since the invite was sent.
      const inviter = await users.get(invite.inviterId);
      const decision = inviter
        ? await mayGrant(invite.type, invite.objectId, invite.inviterId, isStaff(inviter.rolesList), caller.sub)
        : { allowed: false as const };
      if (!decision.allowed) throw new Conflict(MESSAGES.inviteNoLongerGrantable(inviteObjectKind(invite.type)!));
    }
    await grant(invite, caller.sub);
    return save({ ...invite, status: 'accepted', acceptedBy: caller.sub }, invite.updated);
  };

  const decline = async (invite: Invite): Promise<Invite> => {
    if (invite.status === 'declined') return invite;
    if (invite.status !== 'pending') throw new Conflict(MESSAGES.inviteNotPending(invite.status));
    return save({ ...invite, status: 'declined' }, invite.updated);
  };

  return {
    create: async (caller: Caller, input: NewInvite): Promise<Invite> => {
      if (input.inviterId !== caller.sub) throw new Forbidden(MESSAGES.actorMismatch);
      const kind = inviteObjectKind(input.type);
      if (!kind && input.objectId !== undefined) throw new BadRequest(MESSAGES.inviteNoObject);
      if (kind && input.objectId === undefined) throw new BadRequest(MESSAGES.inviteObjectRequired(input.type));
      const id = newId();
      if (kind) {
        const decision = await mayGrant(input.type, input.objectId!, caller.sub, isStaff(caller.groups), id);
        if (!decision.allowed) throw new Forbidden(decision.reason);
      }
      const time = now();
      const invite: Invite = {
        id,
        type: input.type,
        inviterId: input.inviterId,
        inviterName: input.inviterName,
        invited: { email: input.invited.email, ...(input.invited.name ? { name: input.invited.name } : {}) },
        ...(input.message ? { message: input.message } : {}),
        ...(input.objectId ? { objectId: input.objectId } : {}),
        status: 'pending',
        created: time,
        updated: time,
      };
      if (!(await invites.create(invite))) throw new Conflict(MESSAGES.inviteExists(id));
      const relation = inviterRelation(invite);
      try {
        await table.create(relation);
        await effects.bump([relation]);
        await mail(invite);
      } catch (error) {
        // No transactions: an invite nobody was told of, or without its relation, is taken back whole.
        log('error', 'Invite undone', { id, error: error instanceof Error ? error.message : String(error) });
        await table.remove(relation.id);
        await invites.remove(id);
        throw new ServiceUnavailable(MESSAGES.changeUndone);
      }
      return invite;
    },

    /** Anyone holding the id: it is the unguessable link the invited person received. */
    get: find,

    list: async (caller: Caller, filters: InviteListFilters, page: { limit: number; cursor?: string }) => {
      const { inviterId, invitedEmail, status, type, objectId } = filters;
      if (!isStaff(caller.groups)) {
        const own =
          inviterId === caller.sub || (invitedEmail !== undefined && sameEmail(invitedEmail, await emailOf(caller)));
        if (!own) throw new Forbidden(MESSAGES.invitesOwnOnly);
      }
      const source: PageSource<Invite> = inviterId
        ? (startKey, limit) =>
            invites.byInviter(inviterId, { status, type, objectId, invitedEmail }, { limit, startKey })
        : invitedEmail
          ? (startKey, limit) => invites.byInvitedEmail(invitedEmail, { status, type, objectId }, { limit, startKey })
          : (startKey, limit) => invites.scan({ status, type, objectId }, { limit, startKey });
      return pageAcross([source], page);
    },

    update: async (caller: Caller, id: string, change: InviteChange, audit: AuditNote = NO_AUDIT): Promise<Invite> => {
      let invite = await find(id);
      audit.label(invite.invited.email);
      audit.before(invite);
      const edits = change.message !== undefined || change.invited?.name !== undefined;
      if (edits && invite.inviterId !== caller.sub && !isStaff(caller.groups)) {
        throw new Forbidden(MESSAGES.inviteInviterOnly);
      }
      if (change.status && !sameEmail(invite.invited.email, await emailOf(caller))) {
        throw new Forbidden(MESSAGES.inviteNotForYou);
      }
      if (edits) {
        const { message: _m, invited: _i, ...rest } = invite;
        const message = change.message ?? invite.message;
        const name = change.invited?.name ?? invite.invited.name;
        invite = await save(
          {
            ...rest,
            invited: { email: invite.invited.email, ...(name ? { name } : {}) },
            ...(message ? { message } : {}),
          },
          invite.updated,
        );
      }
      if (change.status === 'accepted') return accept(caller, invite);
      if (change.status === 'declined') return decline(invite);
      return invite;
    },

    /** Withdraws an invite; relations an accepted invite created stay (they are managed as relations). */
    remove: async (caller: Caller, id: string, audit: AuditNote = NO_AUDIT): Promise<void> => {
      const invite = await find(id);
      audit.label(invite.invited.email);
      audit.before(invite);
      if (invite.inviterId !== caller.sub && !isStaff(caller.groups)) throw new Forbidden(MESSAGES.inviteInviterOnly);
      // The relation first: if the invite's removal then fails, a retry still finds the invite.
      const relation = await table.remove(relationId('inviter-invite', invite.inviterId, invite.id));
      if (relation) await effects.bump([relation]);
      await invites.remove(id);
    },
  };
};

export type Invites = ReturnType<typeof createInvites>;
