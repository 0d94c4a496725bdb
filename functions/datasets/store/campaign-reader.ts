import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { RelationTable } from '../../_shared/relations/relation-table';
import type { CampaignReader } from '../domain/datasets';

/**
 * Read-only: the campaigns area owns the record and the relations area the campaign's devices; a dataset of a
 * campaign reads its name, window and devices.
 */
export const createCampaignReader = ({
  db,
  tableName,
  relations,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
  relations: Pick<RelationTable, 'queryAll'>;
}): Omit<CampaignReader, 'mayManage'> => ({
  get: async (id) => {
    const item = (await db.send(new GetCommand({ TableName: tableName, Key: { id }, ConsistentRead: true }))).Item;
    return item && typeof item.startsAt === 'number' && typeof item.endsAt === 'number'
      ? { id, name: String(item.name ?? id), startsAt: item.startsAt, endsAt: item.endsAt }
      : undefined;
  },
  devices: async (id) =>
    (await relations.queryAll('referrer', id, ['campaign-device'])).map((relation) => relation.referentId),
});
