import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { People } from '../domain/ports';

/**
 * Read-only: the users area owns the table. Access tokens carry no e-mail, so "who ran it" is looked up once, when
 * the record is written, and kept with it.
 */
export const createPeople = ({ db, tableName }: { db: DynamoDBDocumentClient; tableName: string }): People => ({
  emailOf: async (userId: string): Promise<string | undefined> => {
    const { Item } = await db.send(
      new GetCommand({ TableName: tableName, Key: { id: userId }, ProjectionExpression: 'email' }),
    );
    return typeof Item?.email === 'string' ? Item.email : undefined;
  },
});
