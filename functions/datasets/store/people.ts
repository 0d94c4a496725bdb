import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

/** Read-only: the users area owns the table; a dataset's default creator is a person's name as the platform knows it. */
export const createPeople = ({ db, tableName }: { db: DynamoDBDocumentClient; tableName: string }) => ({
  /** Their display name, else their given and family names, else their e-mail: never their opaque id. */
  nameOf: async (id: string): Promise<string | undefined> => {
    const { Item } = await db.send(
      new GetCommand({
        TableName: tableName,
        Key: { id },
        ProjectionExpression: '#display, #given, #family, #email',
        ExpressionAttributeNames: {
          '#display': 'displayName',
          '#given': 'givenName',
          '#family': 'familyName',
          '#email': 'email',
        },
        ConsistentRead: true,
      }),
    );
    if (!Item) return undefined;
    const text = (value: unknown) => (typeof value === 'string' ? value : '');
    const names = [text(Item.givenName), text(Item.familyName)].filter(Boolean).join(' ');
    return text(Item.displayName) || names || text(Item.email);
  },
});
