import type { Relation } from '../../../../shared/contracts/relations';

/**
 * The shown list of relations as pages arrive and changes succeed. A relation's id carries its type, so
 * a role change is a new id that takes the old row's place.
 */

/** A new relation goes first, where the person who added it looks; a known one is replaced in place. */
export const upsertRelation = (shown: readonly Relation[], saved: Relation): Relation[] =>
  shown.some((r) => r.id === saved.id) ? shown.map((r) => (r.id === saved.id ? saved : r)) : [saved, ...shown];

/** After a role change: the relation under its new id, in the old row's place, and no duplicate of it. */
export const replaceRelation = (shown: readonly Relation[], oldId: string, saved: Relation): Relation[] => {
  if (!shown.some((r) => r.id === oldId)) return upsertRelation(shown, saved);
  return shown.filter((r) => r.id !== saved.id || r.id === oldId).map((r) => (r.id === oldId ? saved : r));
};

export const removeRelation = (shown: readonly Relation[], id: string): Relation[] => shown.filter((r) => r.id !== id);

export interface RelationPage {
  items: Relation[];
  nextCursor?: string;
}

/** Fetches one page of some list of relations: the first without a cursor, the next with the last cursor. */
export type PageLoader = (cursor: string | undefined) => Promise<RelationPage>;
