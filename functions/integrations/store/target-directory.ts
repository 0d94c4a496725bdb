import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { TargetKind } from '../../../shared/contracts/integrations';
import type { TargetDirectory } from '../domain/ports';

/**
 * What a webhook follows, read from the owning areas' tables (this area may only read them): whether a device,
 * campaign or organization exists.
 */
export const createTargetDirectory = ({
  db,
  tables,
}: {
  db: DynamoDBDocumentClient;
  tables: Record<TargetKind, string>;
}): TargetDirectory => ({
  exists: async (kind, id) =>
    Boolean(
      (
        await db.send(
          new GetCommand({ TableName: tables[kind], Key: { id }, ProjectionExpression: 'id', ConsistentRead: true }),
        )
      ).Item,
    ),
});
