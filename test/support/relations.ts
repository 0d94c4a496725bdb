import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { toItem } from '../../functions/_shared/relations/relation-table';
import type { Relation } from '../../shared/contracts/relations';
import { type RelationType, relationId } from '../../shared/relations/relation-types';
import { documentClient, stack } from './stack';

/**
 * Test set-up only: writes a relation straight into the table (as claiming a device will in the devices
 * area), raising the referent's access version as the relations API does, so no cached decision survives.
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
  await db.send(new PutCommand({ TableName: stack().tables.relations, Item: toItem(relation) }));
  await db.send(
    new UpdateCommand({
      TableName: stack().tables.accessVersions,
      Key: { userId: referentId },
      UpdateExpression: 'ADD #version :one SET changedAt = :now',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':one': 1, ':now': Date.now() },
    }),
  );
  return relation;
};
