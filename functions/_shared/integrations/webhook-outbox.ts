import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchWriteAll, updateIf } from '../dynamodb';
import { createQueueSender } from '../queue/queue-sender';
import {
  LANE_SK,
  type LaneWake,
  type QueuedEvent,
  queuedItem,
  WAKE_DELAY_SECONDS,
  WAKE_STALE_MS,
} from './webhook-records';

/** The one way to send to the integrations queue (QUEUES.webhooks), with each message's own delay. */
export const createLaneWakeSender = ({ sqs, queueUrl }: { sqs: SQSClient; queueUrl: string }) =>
  createQueueSender<LaneWake>({
    sqs,
    queueUrl,
    queueName: 'webhooks',
    delayOf: (message) => message.delaySeconds,
  });

export type LaneWakeSender = ReturnType<typeof createLaneWakeSender>;

/**
 * A webhook's waiting events (the deliveries table, docs/integrations.md): events are added to its lane, and the lane
 * is woken. A wake is asked for once: the lane's `wakeAt` is set, and only the caller who set it sends the message
 * (the lane clears it when it runs), so a thousand events a minute wake a busy lane once, not a thousand times.
 */
export const createWebhookOutbox = ({
  db,
  tableName,
  wakes,
  now,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
  wakes: Pick<LaneWakeSender, 'send'>;
  now: () => number;
}) => ({
  /** Stores the events in the lane; an event stored twice (a resent batch) is one item. */
  append: async (webhookId: string, events: readonly QueuedEvent[]): Promise<void> => {
    if (!events.length) return;
    const at = now();
    await batchWriteAll(
      db,
      tableName,
      events.map((event) => ({ PutRequest: { Item: queuedItem(webhookId, event, at) } })),
    );
  },

  /**
   * Asks for the lane to run, unless a wake is already on its way (asked for less than a minute ago and not yet
   * taken). `now`: at once, for a person waiting (a test, turning the webhook on); otherwise after a second, so events
   * of the same moment travel together.
   */
  wake: async (webhookId: string, { immediately = false }: { immediately?: boolean } = {}): Promise<boolean> => {
    const at = now();
    const asked = await updateIf(db, {
      TableName: tableName,
      Key: { webhookId, sk: LANE_SK },
      UpdateExpression: 'SET wakeAt = :at',
      ConditionExpression: immediately ? undefined : 'attribute_not_exists(wakeAt) OR wakeAt < :stale',
      ExpressionAttributeValues: { ':at': at, ...(immediately ? {} : { ':stale': at - WAKE_STALE_MS }) },
    });
    if (!asked) return false;
    try {
      await wakes.send([
        { kind: 'lane.wake', webhookId, ...(immediately ? {} : { delaySeconds: WAKE_DELAY_SECONDS }) },
      ]);
    } catch (error) {
      // No message went: the mark goes too, or no event would ask again for a minute. The caller fails and retries.
      await updateIf(db, {
        TableName: tableName,
        Key: { webhookId, sk: LANE_SK },
        UpdateExpression: 'REMOVE wakeAt',
        ConditionExpression: 'wakeAt = :at',
        ExpressionAttributeValues: { ':at': at },
      }).catch(() => undefined);
      throw error;
    }
    return true;
  },
});

export type WebhookOutbox = ReturnType<typeof createWebhookOutbox>;
