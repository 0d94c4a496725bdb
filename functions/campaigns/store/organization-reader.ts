import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { OrganizationReader } from '../domain/ports';

/** The organizations table, read only: a campaign may be linked to an organization that exists. */
export const createOrganizationReader = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): OrganizationReader => ({
  exists: async (id: string): Promise<boolean> =>
    (
      await db.send(
        new GetCommand({ TableName: tableName, Key: { id }, ConsistentRead: true, ProjectionExpression: 'id' }),
      )
    ).Item !== undefined,
});
