import { DeleteCommand, type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { batchGetAll, putIf, queryPage, scanPage } from '../../_shared/dynamodb';
import type { PageRead } from '../../_shared/paging';
import type { CampaignRecord, CampaignStore } from '../domain/ports';

const toRecord = (item: Record<string, unknown>): CampaignRecord => ({
  id: String(item.id),
  name: String(item.name ?? ''),
  description: typeof item.description === 'string' ? item.description : '',
  startsAt: Number(item.startsAt ?? 0),
  endsAt: Number(item.endsAt ?? 0),
  ...(typeof item.organizationId === 'string' ? { organizationId: item.organizationId } : {}),
  created: Number(item.created ?? 0),
  createdBy: typeof item.createdBy === 'string' ? item.createdBy : '',
  updated: Number(item.updated ?? 0),
});

/** The campaigns table: records by id, an organization's campaigns by start time (byOrganization). */
export const createCampaignStore = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): CampaignStore => ({
  get: async (id: string): Promise<CampaignRecord | undefined> => {
    const item = (await db.send(new GetCommand({ TableName: tableName, Key: { id }, ConsistentRead: true }))).Item;
    return item ? toRecord(item) : undefined;
  },

  getMany: async (ids: readonly string[]): Promise<CampaignRecord[]> =>
    (await batchGetAll(db, tableName, ids)).map(toRecord),

  create: (record: CampaignRecord): Promise<boolean> =>
    putIf(db, { TableName: tableName, Item: record, ConditionExpression: 'attribute_not_exists(id)' }),

  replace: (record: CampaignRecord, expectedUpdated: number): Promise<boolean> =>
    putIf(db, {
      TableName: tableName,
      Item: record,
      ConditionExpression: 'attribute_exists(id) AND updated = :expected',
      ExpressionAttributeValues: { ':expected': expectedUpdated },
    }),

  remove: async (id: string): Promise<void> => {
    await db.send(new DeleteCommand({ TableName: tableName, Key: { id } }));
  },

  listAll: (page: PageRead) => scanPage(db, { TableName: tableName }, page, toRecord),

  listByOrganization: (organizationId: string, page: PageRead) =>
    queryPage(
      db,
      {
        TableName: tableName,
        IndexName: 'byOrganization',
        KeyConditionExpression: 'organizationId = :org',
        ExpressionAttributeValues: { ':org': organizationId },
        ScanIndexForward: false,
      },
      page,
      toRecord,
    ),
});
