import type { Relation } from '../../../../shared/contracts/relations';

export interface RelationPage {
  items: Relation[];
  nextCursor?: string;
}

/** Fetches one page of some list of relations: the first without a cursor, the next with the last cursor. */
export type PageLoader = (cursor: string | undefined) => Promise<RelationPage>;
