import { type DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Banner, Delivery } from '../../../shared/contracts/notifications';
import { batchGetKeys, batchWriteAll, putIf, queryPage, updateIf } from '../../_shared/dynamodb';
import { cursorPage, pageFiltered } from '../../_shared/paging';
import type { BannerContent, DeliveryRef, DeliveryStore, EmailClaim } from '../domain/ports';

const sortKey = ({ method, created, notificationId }: DeliveryRef) =>
  `${method}#${String(created).padStart(13, '0')}#${notificationId}`;
const keyOf = (ref: DeliveryRef) => ({ userId: ref.userId, sk: sortKey(ref) });

/** How many of a person's newest banners the unread badge counts. */
export const UNREAD_WINDOW = 100;

const toBanner = (item: Record<string, unknown>): Banner =>
  ({
    notificationId: item.notificationId,
    icon: item.icon,
    requireInteraction: item.requireInteraction,
    topic: item.topic,
    title: item.title,
    body: item.body,
    initiator: item.initiator,
    created: item.created,
    ...(item.readAt !== undefined ? { readAt: item.readAt } : {}),
    ...(item.dismissedAt !== undefined ? { dismissedAt: item.dismissedAt } : {}),
  }) as Banner;

const toDelivery = (item: Record<string, unknown>): Delivery =>
  ({
    userId: item.userId,
    method: item.method,
    status: item.status,
    at: item.at,
    ...(item.attempts !== undefined ? { attempts: item.attempts } : {}),
    ...(item.reason !== undefined ? { reason: item.reason } : {}),
  }) as Delivery;

/**
 * The deliveries table: a person's banners (a Query on their partition) and the e-mail deliveries, each written
 * with a condition on its key, so a redelivered job finds the work done instead of doing it twice.
 */
export const createDeliveryStore = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): DeliveryStore => {
  const base = (ref: DeliveryRef, now: number) => ({
    ...keyOf(ref),
    notificationId: ref.notificationId,
    recipient: `${ref.method}#${ref.userId}`,
    method: ref.method,
    created: ref.created,
    ...(ref.chunk ? { chunk: ref.chunk } : {}),
    at: now,
  });

  const transition = (ref: DeliveryRef, expression: string, condition: string, values: Record<string, unknown>) =>
    updateIf(db, {
      TableName: tableName,
      Key: keyOf(ref),
      UpdateExpression: expression,
      ConditionExpression: condition,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW',
    });

  return {
    putBanner: (ref: DeliveryRef, banner: BannerContent, now: number): Promise<boolean> =>
      putIf(db, {
        TableName: tableName,
        Item: { ...base(ref, now), ...banner, status: 'delivered' },
        ConditionExpression: 'attribute_not_exists(userId)',
      }),

    putBanners: async (refs: readonly DeliveryRef[], banner: BannerContent, now: number): Promise<void> => {
      await batchWriteAll(
        db,
        tableName,
        refs.map((ref) => ({ PutRequest: { Item: { ...base(ref, now), ...banner, status: 'delivered' } } })),
        { concurrency: 4 },
      );
    },

    putSkipped: (ref: DeliveryRef, reason: string, now: number): Promise<boolean> =>
      putIf(db, {
        TableName: tableName,
        Item: { ...base(ref, now), status: 'skipped', reason },
        ConditionExpression: 'attribute_not_exists(userId)',
      }),

    claimEmail: async (ref: DeliveryRef, now: number, staleMs: number): Promise<EmailClaim> => {
      const created = await putIf(db, {
        TableName: tableName,
        Item: { ...base(ref, now), status: 'sending', attempts: 1, claimedAt: now },
        ConditionExpression: 'attribute_not_exists(userId)',
      });
      if (created) return { claimed: true, attempts: 1 };
      const taken = await transition(
        ref,
        'SET #status = :sending, claimedAt = :now, attempts = attempts + :one',
        '#status = :retry OR (#status = :sending AND claimedAt < :stale)',
        { ':sending': 'sending', ':retry': 'retry', ':now': now, ':one': 1, ':stale': now - staleMs },
      );
      if (taken) return { claimed: true, attempts: taken.attempts as number };
      const current = await db.send(new GetCommand({ TableName: tableName, Key: keyOf(ref), ConsistentRead: true }));
      const status = current.Item?.status as string | undefined;
      return { claimed: false, busy: status === 'sending' || status === 'retry', ...(status ? { status } : {}) };
    },

    markEmail: async (
      ref: DeliveryRef,
      to: 'sent' | 'retry' | 'failed',
      now: number,
      detail: { messageId?: string; reason?: string } = {},
    ): Promise<boolean> => {
      const sets = ['#status = :to', '#at = :now'];
      const values: Record<string, unknown> = { ':to': to, ':now': now, ':sending': 'sending' };
      if (detail.messageId) {
        sets.push('messageId = :messageId');
        values[':messageId'] = detail.messageId;
      }
      if (detail.reason) {
        sets.push('reason = :reason');
        values[':reason'] = detail.reason;
      }
      const marked = await updateIf(db, {
        TableName: tableName,
        Key: keyOf(ref),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: '#status = :sending',
        ExpressionAttributeNames: { '#status': 'status', '#at': 'at' },
        ExpressionAttributeValues: values,
      });
      return marked !== undefined;
    },

    readMany: async (refs: readonly DeliveryRef[]): Promise<Record<string, unknown>[]> => {
      if (refs.length === 0) return [];
      const found = await batchGetKeys(db, { [tableName]: { Keys: refs.map(keyOf), ConsistentRead: true } });
      return found.get(tableName) ?? [];
    },

    getBanner: async (ref: Omit<DeliveryRef, 'method'>): Promise<Banner | undefined> => {
      const result = await db.send(
        new GetCommand({ TableName: tableName, Key: keyOf({ ...ref, method: 'banner' }), ConsistentRead: true }),
      );
      return result.Item ? toBanner(result.Item) : undefined;
    },

    setBannerState: async (
      ref: Omit<DeliveryRef, 'method'>,
      change: { readAt?: number | null; dismissedAt?: number | null },
    ): Promise<Banner | undefined> => {
      const sets: string[] = [];
      const removes: string[] = [];
      const values: Record<string, unknown> = {};
      for (const field of ['readAt', 'dismissedAt'] as const) {
        const value = change[field];
        if (value === undefined) continue;
        if (value === null) removes.push(field);
        else {
          sets.push(`${field} = :${field}`);
          values[`:${field}`] = value;
        }
      }
      const expression = [
        sets.length ? `SET ${sets.join(', ')}` : '',
        removes.length ? `REMOVE ${removes.join(', ')}` : '',
      ]
        .filter(Boolean)
        .join(' ');
      if (!expression) return undefined;
      const banner = await updateIf(db, {
        TableName: tableName,
        Key: keyOf({ ...ref, method: 'banner' }),
        UpdateExpression: expression,
        ConditionExpression: 'attribute_exists(userId)',
        ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
        ReturnValues: 'ALL_NEW',
      });
      return banner ? toBanner(banner) : undefined;
    },

    listBanners: async (
      userId: string,
      state: 'all' | 'unread' | 'active',
      { limit, cursor }: { limit: number; cursor?: string },
    ) => {
      const filter =
        state === 'unread'
          ? 'attribute_not_exists(readAt)'
          : state === 'active'
            ? 'attribute_not_exists(dismissedAt)'
            : undefined;
      return pageFiltered(
        (startKey, wanted) =>
          queryPage(
            db,
            {
              TableName: tableName,
              KeyConditionExpression: 'userId = :user AND begins_with(sk, :banner)',
              ...(filter ? { FilterExpression: filter } : {}),
              ExpressionAttributeValues: { ':user': userId, ':banner': 'banner#' },
              ScanIndexForward: false,
            },
            { limit: wanted, startKey },
          ),
        toBanner,
        { limit, cursor },
      );
    },

    countUnread: async (userId: string): Promise<number> => {
      const result = await db.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'userId = :user AND begins_with(sk, :banner)',
          ExpressionAttributeValues: { ':user': userId, ':banner': 'banner#' },
          ProjectionExpression: 'readAt',
          ScanIndexForward: false,
          Limit: UNREAD_WINDOW,
        }),
      );
      return (result.Items ?? []).filter((item) => item.readAt === undefined).length;
    },

    listByNotification: (notificationId: string, page: { limit: number; cursor?: string }) =>
      cursorPage(
        (startKey, wanted) =>
          queryPage(
            db,
            {
              TableName: tableName,
              IndexName: 'byNotification',
              KeyConditionExpression: 'notificationId = :id',
              ExpressionAttributeValues: { ':id': notificationId },
            },
            { limit: wanted, startKey },
            toDelivery,
          ),
        page,
      ),
  };
};
