import type { Relation } from '../../../../shared/contracts/relations';
import { type GuardedKind, RELATION_TYPE_INFO } from '../../../../shared/relations/relation-types';

/** The dashboard's order: the things people handle most first. */
export const GROUP_ORDER: readonly GuardedKind[] = ['device', 'organization', 'campaign'];

export const KIND_TITLE: Record<GuardedKind, string> = {
  device: 'Devices',
  organization: 'Organizations',
  campaign: 'Campaigns',
};

/** One object of a kind, as a page's title names it. */
export const KIND_NAME: Record<GuardedKind, string> = {
  device: 'Device',
  organization: 'Organization',
  campaign: 'Campaign',
};

const OBJECT_BASE: Record<GuardedKind, string> = {
  device: '/dashboard/devices',
  organization: '/dashboard/organizations',
  campaign: '/dashboard/campaigns',
};

/** The page of one device, organization or campaign. */
export const objectPath = (kind: GuardedKind, id: string): string => `${OBJECT_BASE[kind]}/${encodeURIComponent(id)}`;

/** The kind of object a relation's referrer is, when it has a page of its own. */
export const guardedKindOf = (kind: string): GuardedKind | undefined =>
  kind === 'device' || kind === 'organization' || kind === 'campaign' ? kind : undefined;

export type RelationGroups = Record<GuardedKind, Relation[]> & {
  /** Relations whose referrer has no page (e.g. someone recorded the caller as a contact). */
  other: Relation[];
};

/** A person's relations (they are the referent) by the kind of object they lead to, in the given order. */
export const groupByReferrerKind = (relations: readonly Relation[]): RelationGroups => {
  const groups: RelationGroups = { device: [], organization: [], campaign: [], other: [] };
  for (const relation of relations) {
    const kind = guardedKindOf(RELATION_TYPE_INFO[relation.type].referrer);
    groups[kind ?? 'other'].push(relation);
  }
  return groups;
};
