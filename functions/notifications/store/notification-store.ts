import { DeleteCommand, type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { NotificationStatus } from '../../../shared/contracts/notifications';
import { isConditionFailure, putIf, queryPage, updateIf } from '../../_shared/dynamodb';
import { pageFiltered } from '../../_shared/paging';
import { type DeliveryTally, type ListFilters, NO_TALLY, type NotificationRecord } from '../domain/notification-record';
import type { NotificationStore } from '../domain/ports';

/** The one partition of the byCreated index: the admin list is a Query on it, newest first. */
const FEED = 'all';

const TALLY_NAMES = ['recipients', 'banners', 'emailsSent', 'emailsSkipped', 'emailsFailed'] as const;

const toRecord = (item: Record<string, unknown>): NotificationRecord => {
  const { feed: _feed, chunksPlanned, chunksDone, pagesDone, chunkTallies, ...rest } = item;
  const totals = { ...NO_TALLY };
  for (const tally of Object.values((chunkTallies as Record<string, DeliveryTally> | undefined) ?? {})) {
    for (const name of TALLY_NAMES) totals[name] += tally[name] ?? 0;
  }
  return {
    ...(rest as unknown as NotificationRecord),
    ...totals,
    chunksPlanned: [...((chunksPlanned as Set<string> | undefined) ?? [])],
    chunksDone: [...((chunksDone as Set<string> | undefined) ?? [])],
    pagesDone: [...((pagesDone as Set<string> | undefined) ?? [])],
  };
};

/** The notifications table: records, their status and their delivery tallies (sets and counters, never transactions). */
export const createNotificationStore = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): NotificationStore => {
  const update = async (
    id: string,
    expression: string,
    values: Record<string, unknown>,
    { condition, names = {} }: { condition?: string; names?: Record<string, string> } = {},
  ): Promise<NotificationRecord | undefined> => {
    const attributes = await updateIf(db, {
      TableName: tableName,
      Key: { id },
      UpdateExpression: expression,
      ConditionExpression: condition ? `attribute_exists(id) AND (${condition})` : 'attribute_exists(id)',
      ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
      ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
      ReturnValues: 'ALL_NEW',
    });
    return attributes ? toRecord(attributes) : undefined;
  };

  return {
    create: (record: NotificationRecord): Promise<boolean> => {
      const { chunksPlanned: _p, chunksDone: _d, pagesDone: _g, ...fields } = record;
      const item = Object.fromEntries(
        Object.entries(fields).filter(([key]) => !(TALLY_NAMES as readonly string[]).includes(key)),
      );
      return putIf(db, {
        TableName: tableName,
        Item: { ...item, feed: FEED, chunkTallies: {} },
        ConditionExpression: 'attribute_not_exists(id)',
      });
    },

    get: async (id: string): Promise<NotificationRecord | undefined> => {
      const result = await db.send(new GetCommand({ TableName: tableName, Key: { id }, ConsistentRead: true }));
      return result.Item ? toRecord(result.Item) : undefined;
    },

    updateDraft: (id: string, fields: Record<string, unknown>, now: number) => {
      const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
      const names = Object.fromEntries(entries.map(([key], i) => [`#f${i}`, key]));
      const values = Object.fromEntries(entries.map(([, value], i) => [`:f${i}`, value]));
      const sets = entries.map((_, i) => `#f${i} = :f${i}`);
      return update(
        id,
        `SET ${[...sets, '#updated = :now'].join(', ')}`,
        { ...values, ':now': now, ':created': 'created' },
        {
          condition: '#status = :created',
          names: { ...names, '#updated': 'updated', '#status': 'status' },
        },
      );
    },

    setStatus: (id: string, to: NotificationStatus, from: readonly NotificationStatus[], now: number) =>
      update(
        id,
        `SET #status = :to, #updated = :now${to === 'sent' || to === 'partly-failed' || to === 'failed' ? ', sentAt = :now' : ''}`,
        { ':to': to, ':now': now, ...Object.fromEntries(from.map((status, i) => [`:from${i}`, status])) },
        {
          condition: from.map((_, i) => `#status = :from${i}`).join(' OR '),
          names: { '#status': 'status', '#updated': 'updated' },
        },
      ),

    deleteDraft: async (id: string): Promise<boolean> => {
      try {
        await db.send(
          new DeleteCommand({
            TableName: tableName,
            Key: { id },
            ConditionExpression: 'attribute_exists(id) AND #status = :created',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':created': 'created' },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },

    planChunks: (id: string, chunkIds: readonly string[]) =>
      chunkIds.length
        ? update(id, 'ADD chunksPlanned :chunks', { ':chunks': new Set(chunkIds) })
        : update(id, 'SET #updated = #updated', {}, { names: { '#updated': 'updated' } }),

    markPageDone: (id: string, pageKey: string, resolved: boolean) =>
      update(id, `ADD pagesDone :page${resolved ? ' SET resolved = :true' : ''}`, {
        ':page': new Set([pageKey]),
        ...(resolved ? { ':true': true } : {}),
      }),

    tally: (id: string, chunk: string, tally: DeliveryTally, done: boolean) =>
      update(
        id,
        `SET chunkTallies.#chunk = :tally${done ? ' ADD chunksDone :chunks' : ''}`,
        { ':tally': tally, ...(done ? { ':chunks': new Set([chunk]) } : {}) },
        { names: { '#chunk': chunk } },
      ),

    list: async (filters: ListFilters, { limit, cursor }: { limit: number; cursor?: string }) => {
      const conditions: string[] = [];
      const names: Record<string, string> = { '#feed': 'feed' };
      if (filters.from !== undefined || filters.to !== undefined) names['#created'] = 'created';
      const values: Record<string, unknown> = { ':feed': FEED };
      let keyCondition = '#feed = :feed';
      if (filters.from !== undefined && filters.to !== undefined) {
        keyCondition += ' AND #created BETWEEN :from AND :toInclusive';
        values[':from'] = filters.from;
        values[':toInclusive'] = filters.to - 1;
      } else if (filters.from !== undefined) {
        keyCondition += ' AND #created >= :from';
        values[':from'] = filters.from;
      } else if (filters.to !== undefined) {
        keyCondition += ' AND #created < :to';
        values[':to'] = filters.to;
      }
      if (filters.topic) {
        conditions.push('#topic = :topic');
        names['#topic'] = 'topic';
        values[':topic'] = filters.topic;
      }
      if (filters.status) {
        conditions.push('#status = :status');
        names['#status'] = 'status';
        values[':status'] = filters.status;
      }
      if (filters.method) {
        conditions.push('contains(#methods, :method)');
        names['#methods'] = 'methods';
        values[':method'] = filters.method;
      }
      if (filters.initiator) {
        conditions.push('#initiator.#initiatorId = :initiator');
        names['#initiator'] = 'initiator';
        names['#initiatorId'] = 'id';
        values[':initiator'] = filters.initiator;
      }
      return pageFiltered(
        (startKey, wanted) =>
          queryPage(
            db,
            {
              TableName: tableName,
              IndexName: 'byCreated',
              KeyConditionExpression: keyCondition,
              ...(conditions.length ? { FilterExpression: conditions.join(' AND ') } : {}),
              ExpressionAttributeNames: names,
              ExpressionAttributeValues: values,
              ScanIndexForward: false,
            },
            { limit: wanted, startKey },
          ),
        toRecord,
        { limit, cursor },
        {
          readSize: (left) => (conditions.length ? Math.max(left, 25) : left),
          keyOf: (item) => ({ id: item.id, feed: FEED, created: item.created }),
        },
      );
    },
  };
};
