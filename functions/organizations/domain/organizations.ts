import type { Caller } from '../../../shared/auth/verify-token';
import type { ParsedRequest } from '../../../shared/contracts/define-route';
import {
  LOGO_CONTENT_TYPES,
  LOGO_MAX_BYTES,
  type LogoContentType,
  type LogoUpload,
  type MyOrganization,
  ORGANIZATION_ROLES,
  type Organization,
  type OrganizationRole,
  type organizations,
} from '../../../shared/contracts/organizations';
import type { Relation } from '../../../shared/contracts/relations';
import { MESSAGES } from '../../../shared/messages';
import { relationId } from '../../../shared/relations/relation-types';
import type { Access } from '../../_shared/access/access';
import { type AuditNote, NO_AUDIT } from '../../_shared/audit/audit-note';
import { BadRequest, Conflict, NotFound, ServiceUnavailable } from '../../_shared/errors';
import type { Log } from '../../_shared/logger';
import { type PageSource, pageAcross } from '../../_shared/paging';
import type { RelationEffects } from '../../_shared/relations/relation-effects';
import type { RelationTable } from '../../_shared/relations/relation-table';
import { detectImageType, SIGNATURE_BYTES } from './image-type';
import type { LogoFiles, OrganizationStore, StoredOrganization } from './ports';

export type NewOrganization = ParsedRequest<typeof organizations.routes.create>['body'];
export type OrganizationChange = ParsedRequest<typeof organizations.routes.update>['body'];
export type LogoUploadRequest = ParsedRequest<typeof organizations.routes.createLogoUpload>['body'];

export interface OrganizationsDeps {
  log: Log;
  store: Pick<OrganizationStore, 'get' | 'getMany' | 'create' | 'save' | 'remove' | 'scan'>;
  logos: Pick<LogoFiles, 'uploadUrl' | 'readUrl' | 'head' | 'readStart' | 'remove' | 'removeAll'>;
  table: Pick<RelationTable, 'getMany' | 'create' | 'remove' | 'queryIndex' | 'queryAll'>;
  effects: RelationEffects;
  access: Access;
  now: () => number;
  newId: () => string;
}

interface PageRequest {
  limit: number;
  cursor?: string;
}

/** Long enough to pick a file and send 1 MB on a slow line; short enough that a leaked URL is soon useless. */
export const UPLOAD_URL_SECONDS = 10 * 60;
/** Short: the URL is a bearer pass to the file (and in the cloud ends with the Lambda role session anyway); every read makes a new one. */
export const READ_URL_SECONDS = 15 * 60;

/** Where an organization's objects live in the logo bucket. */
export const logoPrefix = (organizationId: string) => `organizations/${organizationId}/`;
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const isLogoKeyOf = (organizationId: string, key: string) =>
  key.startsWith(logoPrefix(organizationId)) &&
  new RegExp(`^logo-${UUID}$`).test(key.slice(logoPrefix(organizationId).length));

/**
 * Managers last: when a deletion fails half-way, the manager still holds the organization and can try again
 * (staff always can).
 */
const DELETION_ORDER = [
  'organization-device',
  'organization-participant',
  'organization-user',
  'organization-manager',
] as const;

/** The organization as stored before a change (its logo by key, not by URL), for the audit log. */
const noteOrganization = (audit: AuditNote, organization: StoredOrganization) => {
  audit.label(organization.name);
  audit.before(organization);
};

/** Organizations (docs/organizations.md): the record, its members' own list, and its logo. */
export const createOrganizations = ({ store, logos, table, effects, access, now, newId, log }: OrganizationsDeps) => {
  const withLogoUrl = async <T extends StoredOrganization>(organization: T): Promise<T & { logoUrl?: string }> =>
    organization.logo
      ? { ...organization, logoUrl: await logos.readUrl(organization.logo.key, READ_URL_SECONDS) }
      : organization;

  const find = async (id: string): Promise<StoredOrganization> => {
    const organization = await store.get(id);
    if (!organization) throw new NotFound(MESSAGES.organizationNotFound(id));
    return organization;
  };

  /** Writes a changed organization over the version read; someone else's change in between is a 409. */
  const save = async (next: StoredOrganization, read: StoredOrganization): Promise<StoredOrganization> => {
    const saved = { ...next, updated: Math.max(now(), read.updated + 1) };
    if (!(await store.save(saved, read.updated))) throw new Conflict(MESSAGES.recordChanged);
    return saved;
  };

  /** Deletes an object the server refused; a failure to delete is logged, not shown: the refusal is the answer. */
  const discard = async (key: string) => {
    try {
      await logos.remove(key);
    } catch (error) {
      log('warn', 'Refused logo object not deleted', { key, error: error instanceof Error ? error.message : error });
    }
  };

  /**
   * The uploaded object, checked for what it really is: its size from S3, its type from its first bytes. An
   * object that fails is deleted, so a refused upload leaves nothing behind.
   */
  const inspect = async (key: string): Promise<{ contentType: LogoContentType; size: number }> => {
    const head = await logos.head(key);
    if (!head) throw new BadRequest(MESSAGES.organizationLogoMissing);
    const refuse = async (message: string): Promise<never> => {
      await discard(key);
      throw new BadRequest(message);
    };
    if (head.size > LOGO_MAX_BYTES) return refuse(MESSAGES.organizationLogoOversized);
    if (head.size === 0) return refuse(MESSAGES.organizationLogoEmpty);
    // The declared type is the Content-Type the upload URL was signed for (S3 refuses any other).
    const declared = LOGO_CONTENT_TYPES.find((type) => type === head.contentType);
    if (!declared) return refuse(MESSAGES.organizationLogoType);
    if (detectImageType(await logos.readStart(key, SIGNATURE_BYTES)) !== declared) {
      return refuse(MESSAGES.organizationLogoMismatch(declared));
    }
    return { contentType: declared, size: head.size };
  };

  /** The caller's roles in each of these organizations, read by id (consistent). */
  const rolesIn = async (userId: string, organizationIds: readonly string[]) => {
    const held = await table.getMany(
      organizationIds.flatMap((id) => ORGANIZATION_ROLES.map((type) => relationId(type, id, userId))),
    );
    const roles = new Map<string, OrganizationRole[]>();
    for (const type of ORGANIZATION_ROLES) {
      for (const relation of held) {
        if (relation.type === type) roles.set(relation.referrerId, [...(roles.get(relation.referrerId) ?? []), type]);
      }
    }
    return roles;
  };

  return {
    create: async (caller: Caller, input: NewOrganization): Promise<Organization> => {
      const time = now();
      const organization: StoredOrganization = {
        id: newId(),
        name: input.name,
        ...(input.description ? { description: input.description } : {}),
        ...(input.website ? { website: input.website } : {}),
        ...(input.contactEmail ? { contactEmail: input.contactEmail } : {}),
        created: time,
        createdBy: caller.sub,
        updated: time,
      };
      // A fresh uuid is never taken; if it ever were, trying again draws another.
      if (!(await store.create(organization))) throw new ServiceUnavailable(MESSAGES.changeUndone);
      const manager: Relation = {
        id: relationId('organization-manager', organization.id, caller.sub),
        type: 'organization-manager',
        referrerId: organization.id,
        referentId: caller.sub,
        created: time,
        createdBy: caller.sub,
      };
      try {
        if (!(await table.create(manager))) throw new Error(`Relation ${manager.id} exists already`);
        await effects.bump([manager]);
        await effects.publish([{ change: 'added', relation: manager }], caller.sub);
      } catch (error) {
        // No transactions: an organization without its manager could never be managed, so it is taken back.
        log('error', 'Organization creation undone', {
          id: organization.id,
          error: error instanceof Error ? error.message : String(error),
        });
        try {
          await table.remove(manager.id);
          await store.remove(organization.id);
          await effects.bump([manager]);
        } catch (undoError) {
          log('error', 'Organization creation not fully undone', {
            id: organization.id,
            error: undoError instanceof Error ? undoError.message : String(undoError),
          });
        }
        throw new ServiceUnavailable(MESSAGES.changeUndone);
      }
      return organization;
    },

    /**
     * The organizations the caller belongs to, through the caller's relations by role (manager, user,
     * participant), each organization once, with every role the caller holds in it.
     */
    listMine: async (caller: Caller, page: PageRequest): Promise<{ items: MyOrganization[]; nextCursor?: string }> => {
      const sources = ORGANIZATION_ROLES.map(
        (type): PageSource<Relation> =>
          (startKey, limit) =>
            table.queryIndex('referent', caller.sub, { type, limit, startKey }),
      );
      const found = await pageAcross(sources, page);
      const ids = [...new Set(found.items.map((relation) => relation.referrerId))];
      const [records, roles] = await Promise.all([store.getMany(ids), rolesIn(caller.sub, ids)]);
      const byId = new Map(records.map((organization) => [organization.id, organization]));
      const items = found.items.flatMap((relation) => {
        const organization = byId.get(relation.referrerId);
        const held = roles.get(relation.referrerId) ?? [];
        // Listed under the first role the caller holds, so an organization held in two roles appears once; a
        // relation to an organization that no longer exists (or was just removed) is not listed.
        if (!organization || held[0] !== relation.type) return [];
        return [{ ...organization, roles: held }];
      });
      return { items: await Promise.all(items.map(withLogoUrl)), nextCursor: found.nextCursor };
    },

    /** Every organization (staff; the route's group rule admits only them). */
    listAll: async (page: PageRequest) => {
      const found = await pageAcross([(startKey, limit) => store.scan(startKey, limit)], page);
      return { items: await Promise.all(found.items.map(withLogoUrl)), nextCursor: found.nextCursor };
    },

    get: async (caller: Caller, id: string): Promise<Organization> => {
      await access.forCaller(caller).require('organization', id, { need: 'view' });
      return withLogoUrl(await find(id));
    },

    update: async (
      caller: Caller,
      id: string,
      change: OrganizationChange,
      audit: AuditNote = NO_AUDIT,
    ): Promise<Organization> => {
      await access.forCaller(caller).require('organization', id, { need: 'manage' });
      const read = await find(id);
      noteOrganization(audit, read);
      const next: StoredOrganization = { ...read };
      if (change.name !== undefined) next.name = change.name;
      // An empty optional field clears it.
      for (const field of ['description', 'website', 'contactEmail'] as const) {
        const value = change[field];
        if (value === undefined) continue;
        if (value === '') delete next[field];
        else next[field] = value;
      }
      return withLogoUrl(await save(next, read));
    },

    /**
     * Deletes the organization with its relations (raising the members' access versions and telling the
     * notified types) and every object it has in the logo bucket. The record goes last, so a failure half-way
     * leaves something a manager or staff can delete again.
     */
    remove: async (caller: Caller, id: string, audit: AuditNote = NO_AUDIT): Promise<void> => {
      await access.forCaller(caller).require('organization', id, { need: 'manage' });
      noteOrganization(audit, await find(id));
      const removed: Relation[] = [];
      try {
        for (const relation of await table.queryAll('referrer', id, DELETION_ORDER)) {
          const gone = await table.remove(relation.id);
          if (gone) removed.push(gone);
        }
      } finally {
        if (removed.length) {
          await effects.bump(removed);
          await effects.publish(
            removed.map((relation) => ({ change: 'removed' as const, relation })),
            caller.sub,
          );
        }
      }
      await logos.removeAll(logoPrefix(id));
      await store.remove(id);
    },

    createLogoUpload: async (caller: Caller, id: string, request: LogoUploadRequest): Promise<LogoUpload> => {
      await access.forCaller(caller).require('organization', id, { need: 'manage' });
      await find(id);
      const key = `${logoPrefix(id)}logo-${newId()}`;
      const url = await logos.uploadUrl(key, request.contentType, request.size, UPLOAD_URL_SECONDS);
      return {
        url,
        method: 'PUT',
        headers: { 'Content-Type': request.contentType },
        key,
        expiresAt: now() + UPLOAD_URL_SECONDS * 1000,
      };
    },

    /** Makes an uploaded object the logo once it proves to be what it claims; the previous logo is deleted. */
    setLogo: async (caller: Caller, id: string, key: string, audit: AuditNote = NO_AUDIT): Promise<Organization> => {
      await access.forCaller(caller).require('organization', id, { need: 'manage' });
      const read = await find(id);
      noteOrganization(audit, read);
      if (!isLogoKeyOf(id, key)) throw new BadRequest(MESSAGES.organizationLogoKey);
      if (read.logo?.key === key) return withLogoUrl(read);
      const { contentType, size } = await inspect(key);
      const saved = await save({ ...read, logo: { key, contentType, size, updated: now() } }, read);
      if (read.logo) await discard(read.logo.key);
      return withLogoUrl(saved);
    },

    deleteLogo: async (caller: Caller, id: string, audit: AuditNote = NO_AUDIT): Promise<Organization> => {
      await access.forCaller(caller).require('organization', id, { need: 'manage' });
      const read = await find(id);
      noteOrganization(audit, read);
      if (!read.logo) throw new NotFound(MESSAGES.organizationNoLogo);
      const { logo, ...rest } = read;
      const saved = await save(rest, read);
      await discard(logo.key);
      return saved;
    },
  };
};

export type Organizations = ReturnType<typeof createOrganizations>;
