import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AuditItem } from '../../_shared/audit/audit-item';
import { queryPage } from '../../_shared/dynamodb';
import { readFrom } from '../../_shared/paging';
import type { AuditIndex, AuditQuery, AuditSearchStore } from '../domain/audit-search';

/** Each way of reading the log: its index (none for the month partitions) and the attribute that keys it. */
const KEYS: Record<AuditIndex, { indexName?: string; partitionKey: string }> = {
  byMonth: { partitionKey: 'month' },
  byActor: { indexName: 'byActor', partitionKey: 'actorId' },
  byTarget: { indexName: 'byTarget', partitionKey: 'targetId' },
  byAction: { indexName: 'byAction', partitionKey: 'action' },
};

const FILTERED: Record<keyof AuditQuery['filters'], string> = {
  actorId: 'actorId',
  targetId: 'targetId',
  targetKind: 'targetKind',
  action: 'action',
};

/**
 * The audit log's reads, for the system area's search: Queries only (by month, actor, target or action, each within a
 * time range), newest first. The area is granted Query on the table and its indexes, and nothing else of it for
 * reading (test/infra/audit.test.ts).
 */
export const createAuditSearchStore = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): AuditSearchStore => ({
  query: async (query, startKey, limit) => {
    const { indexName, partitionKey } = KEYS[query.index];
    const filters = Object.entries(query.filters).filter(([, value]) => value !== undefined) as [
      keyof AuditQuery['filters'],
      string,
    ][];
    const names: Record<string, string> = { '#pk': partitionKey, '#at': 'at' };
    const values: Record<string, unknown> = {
      ':pk': query.partition,
      ':lowest': query.lowest,
      ':highest': query.highest,
    };
    filters.forEach(([name, value], i) => {
      names[`#f${i}`] = FILTERED[name];
      values[`:f${i}`] = value;
    });
    const result = await readFrom(
      (key, max) =>
        queryPage<AuditItem>(
          db,
          {
            TableName: tableName,
            ...(indexName ? { IndexName: indexName } : {}),
            KeyConditionExpression: '#pk = :pk AND #at BETWEEN :lowest AND :highest',
            ...(filters.length ? { FilterExpression: filters.map((_, i) => `#f${i} = :f${i}`).join(' AND ') } : {}),
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
            ScanIndexForward: false,
          },
          { limit: max, startKey: key },
        ),
      startKey,
      limit,
    );
    return { items: result.items, ...(result.lastKey ? { lastKey: result.lastKey } : {}) };
  },

  keyOf: (query, item) => {
    const { partitionKey } = KEYS[query.index];
    const record = item as unknown as Record<string, unknown>;
    return { month: item.month, at: item.at, [partitionKey]: record[partitionKey] };
  },
});
