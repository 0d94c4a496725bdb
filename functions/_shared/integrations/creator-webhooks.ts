import { DeleteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchWriteAll, queryPage, updateIf } from '../dynamodb';
import { readAll } from '../paging';

const PAGE = 100;

/**
 * The webhooks a person made, as account deletion reaches them (the webhooks table's `byCreator` index), and the
 * writes that take one away with everything its deliveries table holds (lane, waiting events, log).
 */
export const createCreatorWebhooks = ({
  db,
  webhooksTable,
  deliveriesTable,
}: {
  db: DynamoDBDocumentClient;
  webhooksTable: string;
  deliveriesTable: string;
}) => ({
  idsOf: async (userId: string): Promise<string[]> =>
    (
      await readAll((startKey) =>
        queryPage<{ id: string }>(
          db,
          {
            TableName: webhooksTable,
            IndexName: 'byCreator',
            KeyConditionExpression: 'createdBy = :by',
            ExpressionAttributeValues: { ':by': userId },
            ProjectionExpression: 'id',
          },
          { limit: PAGE, startKey },
        ),
      )
    ).map((item) => item.id),

  /** Off for good (collects nothing more: webhook-records.ts `collects`); a webhook gone already is fine. */
  switchOff: async (id: string, at: number): Promise<void> => {
    await updateIf(db, {
      TableName: webhooksTable,
      Key: { id },
      UpdateExpression: 'SET #status = :off, disabledReason = :owner, disabledAt = :at',
      ConditionExpression: 'attribute_exists(id)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':off': 'disabled', ':owner': 'owner', ':at': at },
    });
  },

  /** Every item of the webhook in the deliveries table. */
  removeDeliveries: async (id: string): Promise<void> => {
    const keys = await readAll((startKey) =>
      queryPage<{ webhookId: string; sk: string }>(
        db,
        {
          TableName: deliveriesTable,
          KeyConditionExpression: 'webhookId = :id',
          ExpressionAttributeValues: { ':id': id },
          ProjectionExpression: 'webhookId, sk',
        },
        { limit: PAGE, startKey },
      ),
    );
    await batchWriteAll(
      db,
      deliveriesTable,
      keys.map((key) => ({ DeleteRequest: { Key: { webhookId: key.webhookId, sk: key.sk } } })),
    );
  },

  removeRecord: async (id: string): Promise<void> => {
    await db.send(new DeleteCommand({ TableName: webhooksTable, Key: { id } }));
  },
});

export type CreatorWebhooks = ReturnType<typeof createCreatorWebhooks>;
