import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { deletePartition } from '../../_shared/dynamodb';

/**
 * The sort keys' prefix of the retired webhook presence job's items (`p#{deviceId}`, one per device a presence webhook
 * watched, under the webhook's id in the deliveries table; decision 105 retired them).
 */
const PRESENCE_PREFIX = 'p#';

/** Deletes one webhook's presence items (its partition's `p#` keys only, read as keys); answers how many there were. */
export const createPresenceItemsRemoval =
  ({ db, tableName }: { db: DynamoDBDocumentClient; tableName: string }) =>
  (webhookId: string): Promise<number> =>
    deletePartition(db, { tableName, partition: ['webhookId', webhookId], sortKey: 'sk', prefix: PRESENCE_PREFIX });
