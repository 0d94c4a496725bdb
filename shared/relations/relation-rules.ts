import { MESSAGES } from '../messages';
import { type GuardedKind, RELATION_TYPE_INFO, type RelationType } from './relation-types';

/**
 * The rules of object access and of relation management, as pure functions: the API enforces them
 * (functions/_shared/access, functions/relations) and the web app reads them to offer only allowed actions.
 * docs/relations.md states them in words.
 */

/** How much access a caller needs: to see an object, to manage it, or to own it (devices). */
export type AccessNeed = 'view' | 'manage' | 'own';

/** The ways a caller can reach a device (spec §6); `organization` exists to be refused. */
export type DeviceRoute = 'direct' | 'campaign' | 'organization';
export const DEVICE_ROUTES: readonly DeviceRoute[] = ['direct', 'campaign', 'organization'];

/**
 * Relation types that grant a need on an object when the caller is their referent. Device owners and
 * administrators count as device users; managers count as users; participants see the object but do not
 * reach a campaign's devices.
 */
export const DIRECT_GRANTS: Record<GuardedKind, Record<AccessNeed, readonly RelationType[]>> = {
  device: {
    view: ['device-user', 'device-administrator', 'device-owner'],
    manage: ['device-administrator', 'device-owner'],
    own: ['device-owner'],
  },
  organization: {
    view: ['organization-user', 'organization-manager', 'organization-participant'],
    manage: ['organization-manager'],
    own: ['organization-manager'],
  },
  campaign: {
    view: ['campaign-user', 'campaign-manager', 'campaign-participant'],
    manage: ['campaign-manager'],
    own: ['campaign-manager'],
  },
};

/** Spec §6: a campaign-user (a manager counts as one) sees the devices the campaign holds, to view only. */
export const CAMPAIGN_DEVICE_GRANTS: readonly RelationType[] = ['campaign-user', 'campaign-manager'];

export const grants = (kind: GuardedKind, need: AccessNeed, held: readonly RelationType[]): RelationType | undefined =>
  DIRECT_GRANTS[kind][need].find((type) => held.includes(type));

/** What the caller holds, as far as one relation change is concerned. */
export interface ChangeFacts {
  callerId: string;
  staff: boolean;
  /** The caller's relation types to the relation's referrer (an organization, campaign or device). */
  onReferrer: readonly RelationType[];
  /** The caller's relation types to the relation's referent when that is a device. */
  onReferent: readonly RelationType[];
}

export interface RelationEnds {
  type: RelationType;
  referrerId: string;
  referentId: string;
}

export type Decision = { allowed: true } | { allowed: false; reason: string };

const allow: Decision = { allowed: true };
const deny = (reason: string): Decision => ({ allowed: false, reason });

const MEMBER_FAMILIES: Partial<Record<RelationType, GuardedKind>> = {
  'organization-user': 'organization',
  'organization-manager': 'organization',
  'organization-participant': 'organization',
  'campaign-user': 'campaign',
  'campaign-manager': 'campaign',
  'campaign-participant': 'campaign',
};

const DEVICE_HOLDERS: Partial<Record<RelationType, GuardedKind>> = {
  'organization-device': 'organization',
  'campaign-device': 'campaign',
};

const manages = (kind: GuardedKind, held: readonly RelationType[]) => grants(kind, 'manage', held) !== undefined;

/** May the caller create this relation? Nobody grants themself anything, staff included. */
export const mayCreate = (relation: RelationEnds, facts: ChangeFacts): Decision => {
  const { type, referrerId, referentId } = relation;
  const info = RELATION_TYPE_INFO[type];
  if (info.referent === 'user' && info.referrer !== 'user' && referentId === facts.callerId) {
    return deny(MESSAGES.relationSelfGrant);
  }
  if (facts.staff) return allow;
  const memberOf = MEMBER_FAMILIES[type];
  if (memberOf) return manages(memberOf, facts.onReferrer) ? allow : deny(MESSAGES.relationManagerRequired(memberOf));
  const holder = DEVICE_HOLDERS[type];
  if (holder) {
    return manages(holder, facts.onReferrer) && manages('device', facts.onReferent)
      ? allow
      : deny(MESSAGES.relationDeviceManagerRequired(holder));
  }
  if (type === 'device-user' || type === 'device-administrator') {
    return grants('device', 'own', facts.onReferrer) ? allow : deny(MESSAGES.relationOwnerRequired);
  }
  if (type === 'device-owner') return deny(MESSAGES.relationStaffOnly(type));
  // inviter-contact, inviter-invite: a person records their own contacts and invites.
  return referrerId === facts.callerId ? allow : deny(MESSAGES.relationInviterOnly);
};

/** May the caller delete this relation? A member may always leave, except an owner (who transfers instead). */
export const mayDelete = (relation: RelationEnds, facts: ChangeFacts): Decision => {
  const { type, referrerId, referentId } = relation;
  if (facts.staff) return allow;
  const memberOf = MEMBER_FAMILIES[type];
  if (memberOf) {
    return referentId === facts.callerId || manages(memberOf, facts.onReferrer)
      ? allow
      : deny(MESSAGES.relationManagerRequired(memberOf));
  }
  const holder = DEVICE_HOLDERS[type];
  if (holder) {
    return manages(holder, facts.onReferrer) || manages('device', facts.onReferent)
      ? allow
      : deny(MESSAGES.relationDeviceRemovalRequired(holder));
  }
  if (type === 'device-user' || type === 'device-administrator') {
    return referentId === facts.callerId || grants('device', 'own', facts.onReferrer)
      ? allow
      : deny(MESSAGES.relationOwnerRequired);
  }
  if (type === 'device-owner') return deny(MESSAGES.relationStaffOnly(type));
  return referrerId === facts.callerId || referentId === facts.callerId
    ? allow
    : deny(MESSAGES.relationInviterOrContact);
};

/** Only a change between roles of the same two objects (e.g. organization-user to -manager) is an update. */
export const isRoleChange = (from: RelationType, to: RelationType): boolean =>
  from !== to && RELATION_TYPE_INFO[from].family.includes(to);

/** A role change is a delete of the old relation and a create of the new one: both must be allowed. */
export const mayChangeType = (relation: RelationEnds, to: RelationType, facts: ChangeFacts): Decision => {
  if (!isRoleChange(relation.type, to)) return deny(MESSAGES.relationNotInFamily(relation.type, to));
  const removal = mayDelete(relation, facts);
  if (!removal.allowed) return removal;
  return mayCreate({ ...relation, type: to }, facts);
};

/** The kind of object whose members or devices a relation type lists under its referrer. */
export const guardedReferrer = (type: RelationType): GuardedKind | undefined => {
  const kind = RELATION_TYPE_INFO[type].referrer;
  return kind === 'organization' || kind === 'campaign' || kind === 'device' ? kind : undefined;
};

/** Manager types whose last holder may not be removed (an organization or campaign needs a manager). */
export const LAST_MANAGER_GUARD: Partial<Record<RelationType, GuardedKind>> = {
  'organization-manager': 'organization',
  'campaign-manager': 'campaign',
};
