import { GROUP_NAMES, type GroupName, isGroupName } from '../auth/groups';
import { ownValue } from '../objects/own-value';
import { isRelationType, RELATION_TYPE_INFO, type RelationType } from '../relations/relation-types';

/**
 * Spec §3 audience selectors, one string each:
 * - `user:userId={id}`: one person;
 * - `relation:relation-type={type}:referrerId={id}`: the referents of every `{type}` relation of referrer `{id}`
 *   that are people (e.g. the managers of an organization);
 * - `role:roleName={group}`: everyone in a group. The spec's example spells the role `administrator`: the
 *   singular, lower-case names of the groups are accepted and mean the group.
 */
export type Audience =
  | { kind: 'user'; userId: string }
  | { kind: 'relation'; relationType: RelationType; referrerId: string }
  | { kind: 'role'; group: GroupName };

const ID = /^[A-Za-z0-9._:@+-]{1,128}$/;

const ROLE_ALIASES: Record<string, GroupName> = {
  administrator: 'Administrators',
  administrators: 'Administrators',
  employee: 'Employees',
  employees: 'Employees',
  distributor: 'Distributors',
  distributors: 'Distributors',
  'approved-user': 'Approved_users',
  approved_users: 'Approved_users',
  'authenticated-user': 'Authenticated_users',
  authenticated_users: 'Authenticated_users',
};

/** Relation types whose referent is a person: only these can be an audience. */
const PERSON_RELATIONS = new Set<string>(
  Object.values(RELATION_TYPE_INFO)
    .filter((info) => info.referent === 'user')
    .map((info) => info.type),
);

export const groupOfRole = (name: string): GroupName | undefined =>
  isGroupName(name) ? name : ownValue(ROLE_ALIASES, name.toLowerCase());

/** The selector's meaning, or a sentence saying what is wrong with it. */
export const parseAudience = (selector: string): Audience | { error: string } => {
  let match = /^user:userId=(.+)$/.exec(selector);
  if (match) {
    return ID.test(match[1]!) ? { kind: 'user', userId: match[1]! } : { error: `"${selector}": not a person's id` };
  }
  match = /^relation:relation-type=([^:]+):referrerId=(.+)$/.exec(selector);
  if (match) {
    const [, type, referrerId] = match as unknown as [string, string, string];
    if (!isRelationType(type) || !PERSON_RELATIONS.has(type)) {
      return { error: `"${selector}": the relation type must be one whose referent is a person` };
    }
    return ID.test(referrerId)
      ? { kind: 'relation', relationType: type, referrerId }
      : { error: `"${selector}": bad id` };
  }
  match = /^role:roleName=(.+)$/.exec(selector);
  if (match) {
    const group = groupOfRole(match[1]!);
    return group
      ? { kind: 'role', group }
      : { error: `"${selector}": the role must be one of ${GROUP_NAMES.filter((g) => g !== 'None').join(', ')}` };
  }
  return {
    error: `"${selector}": an audience is user:userId={id}, relation:relation-type={type}:referrerId={id} or role:roleName={role}`,
  };
};

export const formatAudience = (audience: Audience): string => {
  switch (audience.kind) {
    case 'user':
      return `user:userId=${audience.userId}`;
    case 'relation':
      return `relation:relation-type=${audience.relationType}:referrerId=${audience.referrerId}`;
    case 'role':
      return `role:roleName=${audience.group}`;
  }
};

export const PERSON_RELATION_TYPES = [...PERSON_RELATIONS] as RelationType[];

/** The people of one relation of a referrer as a selector, e.g. the owners of a device. */
export const relationAudience = (relationType: RelationType, referrerId: string): string =>
  formatAudience({ kind: 'relation', relationType, referrerId });

/**
 * Who manages a target, by the relations that make them its managers: a device's owners and administrators; a
 * campaign's or an organization's managers. Notices about a target (a webhook turned off, an alert with no recipient
 * given) go to them.
 */
export const MANAGER_RELATIONS = {
  device: ['device-owner', 'device-administrator'],
  campaign: ['campaign-manager'],
  organization: ['organization-manager'],
} as const satisfies Record<string, readonly RelationType[]>;

export type ManagedKind = keyof typeof MANAGER_RELATIONS;

/** The selectors of a target's managers (MANAGER_RELATIONS). */
export const managersOf = (target: { kind: ManagedKind; id: string }): string[] =>
  MANAGER_RELATIONS[target.kind].map((type) => relationAudience(type, target.id));
