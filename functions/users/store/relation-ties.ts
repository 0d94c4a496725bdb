import type { RelationTable } from '../../_shared/relations/relation-table';
import type { PeopleNamesDeps } from '../domain/people-names';

/**
 * The relations a person's names are seen through (the relations area owns the table): every relation to them, and the
 * contacts they invited.
 */
export const createRelationTies = ({
  relations,
}: {
  relations: Pick<RelationTable, 'queryAll' | 'queryEveryType'>;
}): Pick<PeopleNamesDeps, 'relationsTo' | 'contactsFrom'> => ({
  relationsTo: (id) => relations.queryEveryType('referent', id),
  contactsFrom: (id) => relations.queryAll('referrer', id, ['inviter-contact']),
});
