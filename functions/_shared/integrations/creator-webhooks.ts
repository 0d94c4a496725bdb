import { DeleteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { WebhookEventType } from '../../../shared/contracts/webhook-events';
import { deletePartition, queryPage, updateIf } from '../dynamodb';
import { readAll } from '../paging';

const PAGE = 100;

/** A webhook as account deletion reads it. */
export interface CreatorWebhook {
  id: string;
  targetKind: 'device' | 'campaign' | 'organization';
  targetId: string;
  events: readonly WebhookEventType[];
}

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
  /** The webhooks the person made: their ids, targets and the events they take. */
  madeBy: async (userId: string): Promise<CreatorWebhook[]> =>
    readAll((startKey) =>
      queryPage<CreatorWebhook>(
        db,
        {
          TableName: webhooksTable,
          IndexName: 'byCreator',
          KeyConditionExpression: 'createdBy = :by',
          ExpressionAttributeValues: { ':by': userId },
          ExpressionAttributeNames: { '#events': 'events' },
          ProjectionExpression: 'id, targetKind, targetId, #events',
        },
        { limit: PAGE, startKey },
      ),
    ),

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
    await deletePartition(db, { tableName: deliveriesTable, partition: ['webhookId', id], sortKey: 'sk' });
  },

  removeRecord: async (id: string): Promise<void> => {
    await db.send(new DeleteCommand({ TableName: webhooksTable, Key: { id } }));
  },
});

export type CreatorWebhooks = ReturnType<typeof createCreatorWebhooks>;
