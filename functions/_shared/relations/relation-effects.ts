import { NOTIFIED_RELATION_TYPES, type RelationChanged } from '../../../shared/contracts/events';
import type { Relation } from '../../../shared/contracts/relations';
import { RELATION_TYPE_INFO, type RelationType } from '../../../shared/relations/relation-types';
import type { AccessVersionStore } from '../access/access-version-store';
import type { EventPublisher } from '../events/event-publisher';

export interface RelationEffectsDeps {
  versions: Pick<AccessVersionStore, 'bump'>;
  events: Pick<EventPublisher, 'publish'>;
  now: () => number;
  newId: () => string;
}

export type RelationChange = { change: RelationChanged['change']; relation: Relation };

const NOTIFIED: readonly RelationType[] = NOTIFIED_RELATION_TYPES;

/**
 * The users at either end of a relation: their cached access decisions must not survive its change. For areas
 * that write relations with a user at one end (memberships, ownership, invites, contacts, everything of a
 * deleted person); a campaign-device change reaches every member of the campaign, which only the relations
 * area's own use cases fan out to.
 */
export const usersOf = (relation: Relation): string[] => {
  const info = RELATION_TYPE_INFO[relation.type];
  return [
    ...(info.referent === 'user' ? [relation.referentId] : []),
    ...(info.referrer === 'user' ? [relation.referrerId] : []),
  ];
};

/** The relation.changed events the relations area would send for these changes (spec §6 notifications). */
export const eventsFor = (
  changes: readonly RelationChange[],
  actorId: string,
  { now, newId }: Pick<RelationEffectsDeps, 'now' | 'newId'>,
): RelationChanged[] =>
  changes
    .filter((c) => NOTIFIED.includes(c.relation.type))
    .map((c) => ({
      kind: 'relation.changed',
      eventId: newId(),
      change: c.change,
      relation: c.relation,
      actorId,
      at: now(),
    }));

/** After relation writes: raise the affected users' access versions, then send the notified events. */
export const createRelationEffects = (deps: RelationEffectsDeps) => ({
  bump: (relations: readonly Relation[]) => deps.versions.bump(relations.flatMap(usersOf), deps.now()),
  publish: async (changes: readonly RelationChange[], actorId: string) => {
    const events = eventsFor(changes, actorId, deps);
    if (events.length) await deps.events.publish(events);
  },
});

export type RelationEffects = ReturnType<typeof createRelationEffects>;
