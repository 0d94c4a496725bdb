import { isStaff } from '../../../shared/auth/groups';
import type { Caller } from '../../../shared/auth/verify-token';
import type { Relation } from '../../../shared/contracts/relations';
import type { PersonName } from '../../../shared/contracts/users';
import { MESSAGES } from '../../../shared/messages';
import { RELATION_TYPE_INFO, type RelationType } from '../../../shared/relations/relation-types';
import { TooManyRequests } from '../../_shared/errors';
import { inLanes } from '../../_shared/in-lanes';
import { type ProviderLabel, signInLabelsOf } from './sign-in-methods';

/**
 * Who sees whose name and e-mail (docs/users.md "Names and e-mails", decision 022). Pure rules here; the use cases
 * below read the relations and records they need through the ports.
 */

/** A person's ties: the devices, organizations and campaigns they hold a role on, and their contacts. */
export interface Ties {
  /** Object id → the person's roles there (device-owner, organization-manager, …). */
  objects: ReadonlyMap<string, readonly RelationType[]>;
  /** People this person invited who accepted (inviter-contact, this person the referrer). */
  invited: ReadonlySet<string>;
  /** People who invited this person (inviter-contact, this person the referent). */
  invitedBy: ReadonlySet<string>;
}

/** Roles whose holders may see the e-mail addresses of the people they share that object with. */
export const EMAIL_SEEING_ROLES: readonly RelationType[] = ['organization-manager', 'campaign-manager'];

/** What one person may see of another. */
export type Sight = 'nothing' | 'name' | 'name-and-email';

/** The roles of a person in an organization: who its managers see in its member list. */
const ORGANIZATION_MEMBER_ROLES: readonly RelationType[] = [
  'organization-manager',
  'organization-user',
  'organization-participant',
];

/**
 * Whether `viewer` may read how `target` signs in (issue 21): themself, staff, and the managers of an organization the
 * target belongs to, who see it in that organization's member list. Narrower than the e-mail: a campaign's managers
 * and whoever invited the target do not see it.
 */
export const seesSignIn = (
  viewer: { id: string; staff: boolean; ties: Ties },
  targetId: string,
  targetObjects: ReadonlyMap<string, readonly RelationType[]>,
): boolean => {
  if (viewer.staff || viewer.id === targetId) return true;
  for (const [objectId, roles] of targetObjects) {
    if (!roles.some((role) => ORGANIZATION_MEMBER_ROLES.includes(role))) continue;
    if (viewer.ties.objects.get(objectId)?.includes('organization-manager')) return true;
  }
  return false;
};

/**
 * The ties of `personId` from the relations whose referent they are (memberships, and who invited them) and the
 * inviter-contact relations whose referrer they are.
 */
export const tiesOf = (personId: string, asReferent: readonly Relation[], asInviter: readonly Relation[]): Ties => {
  const objects = new Map<string, RelationType[]>();
  const invitedBy = new Set<string>();
  for (const relation of asReferent) {
    if (relation.referentId !== personId) continue;
    if (relation.type === 'inviter-contact') invitedBy.add(relation.referrerId);
    else if (RELATION_TYPE_INFO[relation.type].referent === 'user') {
      objects.set(relation.referrerId, [...(objects.get(relation.referrerId) ?? []), relation.type]);
    }
  }
  const invited = new Set(
    asInviter.filter((r) => r.type === 'inviter-contact' && r.referrerId === personId).map((r) => r.referentId),
  );
  return { objects, invited, invitedBy };
};

/**
 * What `viewer` may see of `target`:
 * - themself and staff: name and e-mail;
 * - a manager of an organization or campaign the target belongs to, and whoever invited the target (they typed the
 *   address): name and e-mail;
 * - anyone sharing a device, organization or campaign with the target, or whom the target invited: the name;
 * - nobody else anything, and the answer for them is the same as for an id that names nobody.
 */
export const sightOf = (
  viewer: { id: string; staff: boolean; ties: Ties },
  targetId: string,
  targetObjects: ReadonlyMap<string, readonly RelationType[]>,
): Sight => {
  if (viewer.staff || viewer.id === targetId) return 'name-and-email';
  if (viewer.ties.invited.has(targetId)) return 'name-and-email';
  let sight: Sight = viewer.ties.invitedBy.has(targetId) ? 'name' : 'nothing';
  for (const objectId of targetObjects.keys()) {
    const roles = viewer.ties.objects.get(objectId);
    if (!roles) continue;
    if (roles.some((role) => EMAIL_SEEING_ROLES.includes(role))) return 'name-and-email';
    sight = 'name';
  }
  return sight;
};

/** The name a person goes by: their display name, else their first and last names; absent when they set none. */
export const displayNameOf = (person: { displayName?: string; givenName?: string; familyName?: string }) =>
  person.displayName?.trim() || [person.givenName, person.familyName].filter(Boolean).join(' ').trim() || undefined;

/** A person's record as far as names go. */
export interface NamedPerson {
  id: string;
  email: string;
  displayName?: string;
  givenName?: string;
  familyName?: string;
  signInMethods?: string[];
}

/** `signsInWith`: the labels of how the person signs in, when the viewer may read them ({@link seesSignIn}). */
export const personNameOf = (
  person: NamedPerson,
  sight: Exclude<Sight, 'nothing'>,
  signsInWith?: readonly ProviderLabel[],
): PersonName => {
  const name = displayNameOf(person);
  return {
    id: person.id,
    ...(name ? { name } : {}),
    ...(sight === 'name-and-email' ? { email: person.email } : {}),
    ...(signsInWith ? { signsInWith: signInLabelsOf(person.signInMethods, signsInWith) } : {}),
  };
};

/** Exact-e-mail look-ups a person who is not staff may make in one window. */
export const LOOKUP_LIMIT = 20;
export const LOOKUP_WINDOW_MS = 60 * 60 * 1000;

/** How many people's relations are read at once. */
const READ_CONCURRENCY = 8;

export interface PeopleNamesDeps {
  /** Every relation whose referent is `id` (all types, all pages). */
  relationsTo: (id: string) => Promise<Relation[]>;
  /** The inviter-contact relations whose referrer is `id`. */
  contactsFrom: (id: string) => Promise<Relation[]>;
  users: {
    getMany: (ids: readonly string[]) => Promise<NamedPerson[]>;
    findIdsByEmail: (email: string) => Promise<string[]>;
  };
  lookups: { count: (userId: string, windowStart: number, windowMs: number, limit: number) => Promise<boolean> };
  /** The environment's identity providers with their labels, for how people sign in. */
  signInProviders: readonly ProviderLabel[];
  now: () => number;
}

export const createPeopleNames = (deps: PeopleNamesDeps) => {
  const { relationsTo, contactsFrom, users, lookups, signInProviders, now } = deps;

  const viewerOf = async (caller: Caller) => {
    const staff = isStaff(caller.groups);
    const ties = staff
      ? tiesOf(caller.sub, [], [])
      : tiesOf(caller.sub, ...(await Promise.all([relationsTo(caller.sub), contactsFrom(caller.sub)])));
    return { id: caller.sub, staff, ties };
  };

  type Seen = { sight: Sight; signIn: boolean };

  /** What the viewer may see of each id, read with one relations query per person (none for staff or themself). */
  const sights = async (viewer: Awaited<ReturnType<typeof viewerOf>>, ids: readonly string[]) =>
    new Map(
      await inLanes(ids, READ_CONCURRENCY, async (id): Promise<[string, Seen]> => {
        if (viewer.staff || viewer.id === id) return [id, { sight: 'name-and-email', signIn: true }];
        const objects = tiesOf(id, await relationsTo(id), []).objects;
        return [id, { sight: sightOf(viewer, id, objects), signIn: seesSignIn(viewer, id, objects) }];
      }),
    );

  const answer = async (seen: Map<string, Seen>): Promise<PersonName[]> => {
    const visible = [...seen].filter(([, s]) => s.sight !== 'nothing').map(([id]) => id);
    const records = visible.length ? await users.getMany(visible) : [];
    return records.map((record) => {
      const { sight, signIn } = seen.get(record.id) as Seen;
      return personNameOf(record, sight as Exclude<Sight, 'nothing'>, signIn ? signInProviders : undefined);
    });
  };

  return {
    /** Names of many people; ids the caller may not see are left out exactly like ids that name nobody. */
    names: async (caller: Caller, ids: readonly string[]): Promise<{ people: PersonName[] }> => {
      const viewer = await viewerOf(caller);
      return { people: await answer(await sights(viewer, [...new Set(ids)])) };
    },

    /**
     * One exact e-mail address: the person when the caller may see them already, otherwise nothing, whether or not
     * an account has the address. Counted per person and hour (staff, who search the directory anyway, are not).
     */
    findByEmail: async (caller: Caller, email: string): Promise<{ person?: PersonName }> => {
      const viewer = await viewerOf(caller);
      if (!viewer.staff) {
        const at = now();
        const windowStart = Math.floor(at / LOOKUP_WINDOW_MS) * LOOKUP_WINDOW_MS;
        if (!(await lookups.count(caller.sub, windowStart, LOOKUP_WINDOW_MS, LOOKUP_LIMIT))) {
          const nextAt = windowStart + LOOKUP_WINDOW_MS;
          throw new TooManyRequests(MESSAGES.peopleLookupsTooMany(LOOKUP_LIMIT, nextAt), {
            'retry-after': String(Math.max(1, Math.ceil((nextAt - at) / 1000))),
          });
        }
      }
      const [id] = await users.findIdsByEmail(email);
      if (id === undefined) return {};
      const [person] = await answer(await sights(viewer, [id]));
      return person ? { person } : {};
    },
  };
};

export type PeopleNames = ReturnType<typeof createPeopleNames>;
