import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

/**
 * Read-only: the users area owns the table; the api area reads only a caller's e-mail and billing id (spec §3
 * User.subscriptionId), to find the billing customers that are theirs.
 */
export const createPeople = ({ db, tableName }: { db: DynamoDBDocumentClient; tableName: string }) => ({
  person: async (id: string): Promise<{ email?: string; subscriptionId?: string } | undefined> => {
    const { Item } = await db.send(
      new GetCommand({
        TableName: tableName,
        Key: { id },
        ProjectionExpression: 'email, subscriptionId',
        ConsistentRead: true,
      }),
    );
    if (!Item) return undefined;
    return {
      ...(typeof Item.email === 'string' ? { email: Item.email } : {}),
      ...(typeof Item.subscriptionId === 'string' && Item.subscriptionId
        ? { subscriptionId: Item.subscriptionId }
        : {}),
    };
  },
});
