import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Rollout } from '../../../shared/contracts/code-releases';
import { deleteIfExists, putIf, queryPage, updateIf } from '../../_shared/dynamodb';
import type { RolloutStore } from '../domain/ports';

type Key = Record<string, unknown>;

/** Rollouts (docs/code-releases.md); their counters move by atomic ADDs (functions/_shared/code-releases). */
export const createRolloutStore = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): RolloutStore => ({
  create: (rollout: Rollout): Promise<boolean> =>
    putIf(db, { TableName: tableName, Item: rollout, ConditionExpression: 'attribute_not_exists(id)' }),

  remove: (id: string): Promise<boolean> => deleteIfExists(db, tableName, id),

  get: async (id: string): Promise<Rollout | undefined> =>
    (await db.send(new GetCommand({ TableName: tableName, Key: { id }, ConsistentRead: true }))).Item as
      | Rollout
      | undefined,

  page: (releaseId: string, limit: number, startKey?: Key) =>
    queryPage<Rollout>(
      db,
      {
        TableName: tableName,
        IndexName: 'byRelease',
        KeyConditionExpression: 'releaseId = :release',
        ExpressionAttributeValues: { ':release': releaseId },
        ScanIndexForward: false,
      },
      { limit, startKey },
    ),

  halt: async (id: string, halt: { halted: number; haltedBy: string; haltReason: string }) =>
    (await updateIf(db, {
      TableName: tableName,
      Key: { id },
      UpdateExpression: 'SET #status = :halted, halted = :at, haltedBy = :by, haltReason = :reason',
      ConditionExpression: 'attribute_exists(id) AND #status = :active',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':halted': 'halted',
        ':active': 'active',
        ':at': halt.halted,
        ':by': halt.haltedBy,
        ':reason': halt.haltReason,
      },
      ReturnValues: 'ALL_NEW',
    })) as Rollout | undefined,

  setSkipped: async (id: string, skipped: Rollout['skipped']): Promise<void> => {
    await updateIf(db, {
      TableName: tableName,
      Key: { id },
      UpdateExpression: 'SET skipped = :skipped',
      ConditionExpression: 'attribute_exists(id)',
      ExpressionAttributeValues: { ':skipped': skipped },
    });
  },
});
