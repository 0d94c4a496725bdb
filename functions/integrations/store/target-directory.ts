import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { TargetKind } from '../../../shared/contracts/integrations';
import type { RelationTable } from '../../_shared/relations/relation-table';
import type { TargetDirectory } from '../domain/ports';

/**
 * What a webhook follows, read from the owning areas' tables (this area may only read them): whether a device,
 * campaign or organization exists, and which devices a campaign or organization holds (the relations), which a
 * presence webhook's change touches in the alerts area's state (decision 105).
 */
export const createTargetDirectory = ({
  db,
  tables,
  relations,
}: {
  db: DynamoDBDocumentClient;
  tables: Record<TargetKind, string>;
  relations: Pick<RelationTable, 'queryAll'>;
}): TargetDirectory => ({
  exists: async (kind, id) =>
    Boolean(
      (
        await db.send(
          new GetCommand({ TableName: tables[kind], Key: { id }, ProjectionExpression: 'id', ConsistentRead: true }),
        )
      ).Item,
    ),

  devicesOf: async (kind, id) => {
    if (kind === 'device') return [id];
    const type = kind === 'campaign' ? 'campaign-device' : 'organization-device';
    return (await relations.queryAll('referrer', id, [type])).map((relation) => relation.referentId);
  },
});
