import { createAccessVersionStore } from '../../functions/_shared/access/access-version-store';
import { createRelationTable } from '../../functions/_shared/relations/relation-table';
import type { Relation } from '../../shared/contracts/relations';
import { type RelationType, relationId } from '../../shared/relations/relation-types';
import { documentClient, stack } from './stack';

/**
 * Test set-up only: writes a relation straight into the table (as claiming a device will in the devices
 * area), raising the referent's access version as the relations API does, so no cached decision survives.
 * It goes through the area's own stores, so the rows are exactly those the API writes.
 */
export const seedRelation = async (type: RelationType, referrerId: string, referentId: string): Promise<Relation> => {
  const relation: Relation = {
    id: relationId(type, referrerId, referentId),
    type,
    referrerId,
    referentId,
    created: Date.now(),
  };
  const db = documentClient();
  await createRelationTable({ db, tableName: stack().tables.relations! }).put(relation);
  await createAccessVersionStore({ db, tableName: stack().tables.accessVersions! }).bump([referentId], Date.now());
  return relation;
};
