import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { TargetKind } from '../../../shared/contracts/integrations';
import { putIf, queryPage, updateIf } from '../../_shared/dynamodb';
import { targetKey } from '../../_shared/integrations/webhook-records';
import type { PageRead, StoredPage } from '../../_shared/paging';
import type { WebhookRecord, WebhookStore } from '../domain/ports';

const toItem = (record: WebhookRecord) => ({ ...record, target: targetKey(record.targetKind, record.targetId) });

const toRecord = (item: Record<string, unknown>): WebhookRecord => {
  // `watch`: the byWatch index's key on webhooks saved before decision 105, which nothing reads any more.
  const { target: _target, watch: _watch, ...record } = item;
  return record as unknown as WebhookRecord;
};

/** The webhooks table (docs/integrations.md): one item per webhook, its secrets sealed by the use case. */
export const createWebhookStore = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): WebhookStore => {
  const byTarget = (kind: TargetKind, id: string) => ({
    TableName: tableName,
    IndexName: 'byTarget',
    KeyConditionExpression: '#target = :target',
    ExpressionAttributeNames: { '#target': 'target' },
    ExpressionAttributeValues: { ':target': targetKey(kind, id) },
  });

  return {
    get: async (id) => {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: { id }, ConsistentRead: true }));
      return Item ? toRecord(Item) : undefined;
    },

    create: (record) =>
      putIf(db, { TableName: tableName, Item: toItem(record), ConditionExpression: 'attribute_not_exists(id)' }),

    change: async (id, changes, expectedUpdated) => {
      const set: string[] = [];
      const remove: string[] = [];
      const names: Record<string, string> = { '#updated': 'updated' };
      const values: Record<string, unknown> = { ':expected': expectedUpdated };
      Object.entries(changes).forEach(([name, value], i) => {
        if (value === undefined) return;
        names[`#f${i}`] = name;
        if (value === null) remove.push(`#f${i}`);
        else {
          set.push(`#f${i} = :v${i}`);
          values[`:v${i}`] = value;
        }
      });
      const attributes = await updateIf(db, {
        TableName: tableName,
        Key: { id },
        UpdateExpression: [
          set.length ? `SET ${set.join(', ')}` : '',
          remove.length ? `REMOVE ${remove.join(', ')}` : '',
        ]
          .filter(Boolean)
          .join(' '),
        ConditionExpression: 'attribute_exists(id) AND #updated = :expected',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      });
      return attributes ? toRecord(attributes) : undefined;
    },

    remove: async (id) => {
      await db.send(new DeleteCommand({ TableName: tableName, Key: { id } }));
    },

    listByTarget: (kind, id, page: PageRead): Promise<StoredPage<WebhookRecord>> =>
      queryPage(db, { ...byTarget(kind, id), ScanIndexForward: false }, page, toRecord),

    countByTarget: async (kind, id, max) =>
      (await db.send(new QueryCommand({ ...byTarget(kind, id), Select: 'COUNT', Limit: max + 1 }))).Count ?? 0,

    markFailing: async (id, since) => {
      await updateIf(db, {
        TableName: tableName,
        Key: { id },
        UpdateExpression: 'SET failingSince = :since',
        ConditionExpression: 'attribute_exists(id) AND attribute_not_exists(failingSince)',
        ExpressionAttributeValues: { ':since': since },
      });
    },

    markAnswering: async (id) => {
      await updateIf(db, {
        TableName: tableName,
        Key: { id },
        UpdateExpression: 'REMOVE failingSince',
        ConditionExpression: 'attribute_exists(id)',
      });
    },

    disable: async (id, reason, at) =>
      (await updateIf(db, {
        TableName: tableName,
        Key: { id },
        UpdateExpression: 'SET #status = :off, disabledReason = :reason, disabledAt = :at',
        ConditionExpression: 'attribute_exists(id) AND #status = :on',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':off': 'disabled', ':on': 'enabled', ':reason': reason, ':at': at },
      })) !== undefined,
  };
};
