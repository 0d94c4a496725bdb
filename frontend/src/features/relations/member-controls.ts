import { ObjectId } from '../../../../shared/contracts/relations';
import {
  type ChangeFacts,
  mayChangeType,
  mayCreate,
  mayDelete,
  type RelationEnds,
} from '../../../../shared/relations/relation-rules';
import {
  type GuardedKind,
  RELATION_TYPE_INFO,
  RELATION_TYPES,
  type RelationType,
} from '../../../../shared/relations/relation-types';

/**
 * Which add, remove and change-role controls a caller gets, decided by the same rules the API enforces
 * (shared/relations/relation-rules.ts): a control the API would refuse is not offered. Staff pass every
 * rule but self-grant.
 */

/** Roles a person can hold on an object of this kind (its member types), in the contract's order. */
export const memberTypes = (kind: GuardedKind): RelationType[] =>
  RELATION_TYPES.filter(
    (type) => RELATION_TYPE_INFO[type].referrer === kind && RELATION_TYPE_INFO[type].referent === 'user',
  );

/** The relation that puts a device into an organization or a campaign. */
export const DEVICE_HOLDER_TYPE = {
  organization: 'organization-device',
  campaign: 'campaign-device',
} as const satisfies Record<Exclude<GuardedKind, 'device'>, RelationType>;

export type HolderKind = keyof typeof DEVICE_HOLDER_TYPE;
export const HOLDER_KINDS: readonly HolderKind[] = ['organization', 'campaign'];

/** Facts for relations whose referrer is the object on screen: the caller's roles on it. */
export const factsOnReferrer = (callerId: string, staff: boolean, roles: readonly RelationType[]): ChangeFacts => ({
  callerId,
  staff,
  onReferrer: roles,
  onReferent: [],
});

/** Facts for the relations holding the device on screen (organization-device, campaign-device). */
export const factsOnDevice = (callerId: string, staff: boolean, roles: readonly RelationType[]): ChangeFacts => ({
  callerId,
  staff,
  onReferrer: [],
  onReferent: roles,
});

// The member is not known until typed: an id no one has lets the rules answer for "another person";
// the typed id is checked again (self-grant) before anything is sent.
const SOMEONE_ELSE = '\u0000someone-else';

/** The roles the caller may give another person on this object; empty means no add-member form. */
export const addableRoles = (kind: GuardedKind, objectId: string, facts: ChangeFacts): RelationType[] =>
  memberTypes(kind).filter(
    (type) => mayCreate({ type, referrerId: objectId, referentId: SOMEONE_ELSE }, facts).allowed,
  );

/**
 * Whether to offer "add device". Adding one also needs the caller to own or administer the device, which
 * is not known until its id is typed: the form is offered to a manager and the API answers for the device.
 */
export const mayOfferAddDevice = (kind: HolderKind, objectId: string, facts: ChangeFacts): boolean =>
  mayCreate(
    { type: DEVICE_HOLDER_TYPE[kind], referrerId: objectId, referentId: SOMEONE_ELSE },
    { ...facts, onReferent: ['device-owner'] },
  ).allowed;

export interface RowControls {
  canRemove: boolean;
  /** The roles the row may take, its own included, in family order; fewer than two means no choice. */
  roles: RelationType[];
}

export const rowControls = (relation: RelationEnds, facts: ChangeFacts): RowControls => ({
  canRemove: mayDelete(relation, facts).allowed,
  roles: RELATION_TYPE_INFO[relation.type].family.filter(
    (to) => to === relation.type || mayChangeType(relation, to, facts).allowed,
  ),
});

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/** A typed id, checked with the contract's own schema so the message matches the API's. */
export const checkId = (text: string): Checked<string> => {
  const parsed = ObjectId.safeParse(text);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, error: parsed.error.issues[0]!.message };
};

/** Checks a relation about to be created (id shape, then the rules) so a refusal needs no round trip. */
export const checkNewRelation = (
  type: RelationType,
  referrerText: string,
  referentText: string,
  facts: ChangeFacts,
): Checked<RelationEnds> => {
  const referrer = checkId(referrerText);
  if (!referrer.ok) return referrer;
  const referent = checkId(referentText);
  if (!referent.ok) return referent;
  const relation = { type, referrerId: referrer.value, referentId: referent.value };
  const decision = mayCreate(relation, facts);
  return decision.allowed ? { ok: true, value: relation } : { ok: false, error: decision.reason };
};

/** Checks the id of a device about to be put into an organization or campaign (the API answers for the device). */
export const checkNewDevice = (kind: HolderKind, objectId: string, deviceText: string): Checked<RelationEnds> => {
  const device = checkId(deviceText);
  if (!device.ok) return device;
  return { ok: true, value: { type: DEVICE_HOLDER_TYPE[kind], referrerId: objectId, referentId: device.value } };
};
