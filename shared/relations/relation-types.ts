/**
 * The relation graph's vocabulary (spec §3): exactly the 13 relation types, and what each one links.
 * A type reads "referrer-referent": `device-user` has a device as referrer and a user as referent.
 */
export const RELATION_TYPES = [
  'organization-user',
  'organization-manager',
  'organization-participant',
  'campaign-user',
  'campaign-manager',
  'campaign-participant',
  'campaign-device',
  'device-user',
  'device-administrator',
  'device-owner',
  'organization-device',
  'inviter-contact',
  'inviter-invite',
] as const;

export type RelationType = (typeof RELATION_TYPES)[number];

/** What an id on either end of a relation names. */
export type ObjectKind = 'organization' | 'campaign' | 'device' | 'user' | 'invite';

/** The objects whose access the access module decides. */
export type GuardedKind = 'organization' | 'campaign' | 'device';

export interface RelationTypeInfo {
  type: RelationType;
  referrer: ObjectKind;
  referent: ObjectKind;
  /** Types that may replace this one through PUT /update (a role change between the same two objects). */
  family: RelationType[];
}

const link = (referrer: ObjectKind, referent: ObjectKind) => ({ referrer, referent });

const ENDS: Record<RelationType, { referrer: ObjectKind; referent: ObjectKind }> = {
  'organization-user': link('organization', 'user'),
  'organization-manager': link('organization', 'user'),
  'organization-participant': link('organization', 'user'),
  'campaign-user': link('campaign', 'user'),
  'campaign-manager': link('campaign', 'user'),
  'campaign-participant': link('campaign', 'user'),
  'campaign-device': link('campaign', 'device'),
  'device-user': link('device', 'user'),
  'device-administrator': link('device', 'user'),
  // Ownership changes through claiming and transfer (devices area), never by a role change.
  'device-owner': link('device', 'user'),
  'organization-device': link('organization', 'device'),
  'inviter-contact': link('user', 'user'),
  'inviter-invite': link('user', 'invite'),
};

const FAMILIES: RelationType[][] = [
  ['organization-user', 'organization-manager', 'organization-participant'],
  ['campaign-user', 'campaign-manager', 'campaign-participant'],
  ['device-user', 'device-administrator'],
];

export const RELATION_TYPE_INFO: Record<RelationType, RelationTypeInfo> = Object.fromEntries(
  RELATION_TYPES.map((type) => [
    type,
    { type, ...ENDS[type], family: FAMILIES.find((family) => family.includes(type)) ?? [type] },
  ]),
) as Record<RelationType, RelationTypeInfo>;

export const isRelationType = (value: string): value is RelationType =>
  (RELATION_TYPES as readonly string[]).includes(value);

/** Relation types whose referrer is an object of this kind (e.g. the member roles of an organization). */
export const typesWithReferrer = (kind: ObjectKind): RelationType[] =>
  RELATION_TYPES.filter((type) => ENDS[type].referrer === kind);

/** A relation's id is its identity: one relation per (type, referrer, referent), so a duplicate is a conflict. */
export const relationId = (type: RelationType, referrerId: string, referentId: string): string =>
  `${type}#${referrerId}#${referentId}`;

export const parseRelationId = (
  id: string,
): { type: RelationType; referrerId: string; referentId: string } | undefined => {
  const [type, referrerId, referentId, ...rest] = id.split('#');
  if (rest.length > 0 || !type || !referrerId || !referentId || !isRelationType(type)) return undefined;
  return { type, referrerId, referentId };
};
