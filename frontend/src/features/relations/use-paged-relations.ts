import type { Relation } from '../../../../shared/contracts/relations';
import { type PagedList, usePagedList } from '../../lib/use-paged-list';
import type { PageLoader } from './relation-list';

export type PagedRelations = PagedList<Relation>;

/** One paged list of relations (see usePagedList). */
export const usePagedRelations = (load: PageLoader | undefined): PagedRelations => usePagedList(load);
