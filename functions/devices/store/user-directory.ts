import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { UserDirectory } from '../domain/ports';

/** Read-only: the users area owns the table; the devices area only asks whether a person exists. */
export const createUserDirectory = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): UserDirectory => ({
  exists: async (userId: string): Promise<boolean> => {
    const { Item } = await db.send(
      new GetCommand({ TableName: tableName, Key: { id: userId }, ProjectionExpression: 'id', ConsistentRead: true }),
    );
    return Item !== undefined;
  },
});
