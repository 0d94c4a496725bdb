import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchWriteAll, deletePartition, putIf, queryPage, updateIf } from '../../_shared/dynamodb';
import {
  DELIVERY_PREFIX,
  LANE_SK,
  OUTBOX_PREFIX,
  queuedEventOf,
  TEST_PREFIX,
} from '../../_shared/integrations/webhook-records';
import type { DeliveryRecord, DeliveryStore, DeliverySummary, LaneState } from '../domain/ports';

const seconds = (ms: number) => Math.floor(ms / 1000);

const laneOf = (item: Record<string, unknown>): LaneState => ({
  ...(typeof item.leaseOwner === 'string' ? { leaseOwner: item.leaseOwner } : {}),
  ...(typeof item.leaseUntil === 'number' ? { leaseUntil: item.leaseUntil } : {}),
  ...(typeof item.wakeAt === 'number' ? { wakeAt: item.wakeAt } : {}),
  ...(item.timer ? { timer: item.timer as LaneState['timer'] } : {}),
  ...(typeof item.head === 'string' ? { head: item.head } : {}),
  ...(typeof item.lastCreated === 'number' ? { lastCreated: item.lastCreated } : {}),
  // A string set comes back as a Set; its order is no promise, so replays run in their sequence order.
  ...(item.replays instanceof Set && item.replays.size ? { replays: [...(item.replays as Set<string>)].sort() } : {}),
});

const SUMMARY =
  'webhookId, sk, id, kind, eventId, eventType, #status, attempts, attemptCount, batches, bytes, created, nextAttemptAt, deliveredAt, expiresAt';

const summaryOf = (item: Record<string, unknown>): DeliverySummary => ({
  id: String(item.id),
  webhookId: String(item.webhookId),
  sk: String(item.sk),
  kind: item.kind as DeliveryRecord['kind'],
  eventId: String(item.eventId),
  eventType: item.eventType as DeliveryRecord['eventType'],
  status: item.status as DeliveryRecord['status'],
  attempts: (item.attempts as DeliveryRecord['attempts']) ?? [],
  attemptCount: Number(item.attemptCount ?? 0),
  ...(typeof item.batches === 'number' ? { batches: item.batches } : {}),
  bytes: Number(item.bytes ?? 0),
  created: Number(item.created),
  ...(typeof item.nextAttemptAt === 'number' ? { nextAttemptAt: item.nextAttemptAt } : {}),
  ...(typeof item.deliveredAt === 'number' ? { deliveredAt: item.deliveredAt } : {}),
  // Kept in seconds for DynamoDB's TTL.
  expiresAt: Number(item.expiresAt) * 1000,
});

const recordOf = (item: Record<string, unknown>): DeliveryRecord => ({
  ...summaryOf(item),
  body: item.body as Uint8Array,
  entries: (item.entries as string[]) ?? [],
});

/**
 * The deliveries table (docs/integrations.md, "Delivery"): under a webhook's id its lane, its waiting events, its
 * and deliveries. The lane's lease fences every change a run makes, so a worker that overran it
 * changes nothing.
 */
export const createDeliveryStore = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): DeliveryStore => {
  const key = (webhookId: string, sk: string) => ({ webhookId, sk });

  const prefixed = (webhookId: string, prefix: string) => ({
    TableName: tableName,
    KeyConditionExpression: 'webhookId = :webhook AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':webhook': webhookId, ':prefix': prefix },
  });

  return {
    getLane: async (webhookId) => {
      const { Item } = await db.send(
        new GetCommand({ TableName: tableName, Key: key(webhookId, LANE_SK), ConsistentRead: true }),
      );
      return Item ? laneOf(Item) : undefined;
    },

    acquire: async (webhookId, owner, now, until) => {
      const attributes = await updateIf(db, {
        TableName: tableName,
        Key: key(webhookId, LANE_SK),
        UpdateExpression: 'SET leaseOwner = :owner, leaseUntil = :until REMOVE wakeAt',
        // Free, run out, or already this owner's (a worker taking up its own lane again).
        ConditionExpression: 'attribute_not_exists(leaseUntil) OR leaseUntil < :now OR leaseOwner = :owner',
        ExpressionAttributeValues: { ':owner': owner, ':until': until, ':now': now },
        ReturnValues: 'ALL_NEW',
      });
      return attributes ? laneOf(attributes) : undefined;
    },

    changeLane: async (webhookId, owner, changes) => {
      const set: string[] = [];
      const remove: string[] = [];
      const values: Record<string, unknown> = { ':owner': owner };
      if (changes.head !== undefined) {
        if (changes.head === null) remove.push('head');
        else {
          set.push('head = :head');
          values[':head'] = changes.head;
        }
      }
      if (changes.timer !== undefined) {
        if (changes.timer === null) remove.push('#timer');
        else {
          set.push('#timer = :timer');
          values[':timer'] = changes.timer;
        }
      }
      if (changes.lastCreated !== undefined) {
        set.push('lastCreated = :lastCreated');
        values[':lastCreated'] = changes.lastCreated;
      }
      const drop = changes.replaysDone?.length ? ` DELETE replays :done` : '';
      if (drop) values[':done'] = new Set(changes.replaysDone);
      const expression = [set.length ? `SET ${set.join(', ')}` : '', remove.length ? `REMOVE ${remove.join(', ')}` : '']
        .filter(Boolean)
        .join(' ');
      if (!expression && !drop) return true;
      return (
        (await updateIf(db, {
          TableName: tableName,
          Key: key(webhookId, LANE_SK),
          UpdateExpression: `${expression}${drop}`.trim(),
          ConditionExpression: 'leaseOwner = :owner',
          ...(changes.timer !== undefined ? { ExpressionAttributeNames: { '#timer': 'timer' } } : {}),
          ExpressionAttributeValues: values,
        })) !== undefined
      );
    },

    release: async (webhookId, owner) => {
      const released = await updateIf(db, {
        TableName: tableName,
        Key: key(webhookId, LANE_SK),
        UpdateExpression: 'REMOVE leaseOwner, leaseUntil',
        ConditionExpression: 'leaseOwner = :owner AND attribute_not_exists(wakeAt)',
        ExpressionAttributeValues: { ':owner': owner },
      });
      if (released) return 'released';
      // Still ours, with a wake asked for meanwhile: take the request and run again.
      const taken = await updateIf(db, {
        TableName: tableName,
        Key: key(webhookId, LANE_SK),
        UpdateExpression: 'REMOVE wakeAt',
        ConditionExpression: 'leaseOwner = :owner AND attribute_exists(wakeAt)',
        ExpressionAttributeValues: { ':owner': owner },
      });
      return taken ? 'again' : 'lost';
    },

    addReplay: async (webhookId, sk) => {
      await updateIf(db, {
        TableName: tableName,
        Key: key(webhookId, LANE_SK),
        UpdateExpression: 'ADD replays :sk',
        ExpressionAttributeValues: { ':sk': new Set([sk]) },
      });
    },

    firstQueued: async (webhookId, prefix, limit) =>
      (await queryPage(db, { ...prefixed(webhookId, prefix), ConsistentRead: true }, { limit }, queuedEventOf)).items,

    countQueued: async (webhookId, max) =>
      (
        await db.send(
          new QueryCommand({
            ...prefixed(webhookId, OUTBOX_PREFIX),
            Select: 'COUNT',
            Limit: max,
            ConsistentRead: true,
          }),
        )
      ).Count ?? 0,

    removeQueued: async (webhookId, sks) => {
      if (!sks.length) return;
      await batchWriteAll(
        db,
        tableName,
        sks.map((sk) => ({ DeleteRequest: { Key: key(webhookId, sk) } })),
      );
    },

    createDelivery: (record) => {
      const { expiresAt, ...rest } = record;
      return putIf(db, {
        TableName: tableName,
        Item: { ...rest, expiresAt: seconds(expiresAt) },
        ConditionExpression: 'attribute_not_exists(sk)',
      });
    },

    getDelivery: async (webhookId, sk) => {
      const { Item } = await db.send(
        new GetCommand({ TableName: tableName, Key: key(webhookId, sk), ConsistentRead: true }),
      );
      return Item ? recordOf(Item) : undefined;
    },

    updateDelivery: async (webhookId, sk, changes) => {
      const set: string[] = [];
      const remove: string[] = [];
      const names: Record<string, string> = {};
      const values: Record<string, unknown> = {};
      Object.entries(changes).forEach(([name, value], i) => {
        names[`#f${i}`] = name;
        if (value === undefined) remove.push(`#f${i}`);
        else {
          set.push(`#f${i} = :v${i}`);
          values[`:v${i}`] = value;
        }
      });
      if (!set.length && !remove.length) return;
      await updateIf(db, {
        TableName: tableName,
        Key: key(webhookId, sk),
        UpdateExpression: [
          set.length ? `SET ${set.join(', ')}` : '',
          remove.length ? `REMOVE ${remove.join(', ')}` : '',
        ]
          .filter(Boolean)
          .join(' '),
        ConditionExpression: 'attribute_exists(sk)',
        ExpressionAttributeNames: names,
        ...(set.length ? { ExpressionAttributeValues: values } : {}),
      });
    },

    listDeliveries: (webhookId, page) =>
      queryPage(
        db,
        {
          ...prefixed(webhookId, DELIVERY_PREFIX),
          ScanIndexForward: false,
          ProjectionExpression: SUMMARY,
          ExpressionAttributeNames: { '#status': 'status' },
        },
        page,
        summaryOf,
      ),

    removeLane: async (webhookId) => {
      for (const prefix of [OUTBOX_PREFIX, TEST_PREFIX]) {
        await deletePartition(db, { tableName, partition: ['webhookId', webhookId], sortKey: 'sk', prefix });
      }
      await db.send(new DeleteCommand({ TableName: tableName, Key: key(webhookId, LANE_SK) }));
    },
  };
};
