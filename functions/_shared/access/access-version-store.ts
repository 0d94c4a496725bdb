import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';

export interface AccessVersion {
  version: number;
  /** When a relation deciding the user's access last changed (ms); 0 if never. */
  changedAt: number;
}

/** The per-user counters that tell every Lambda's access cache when a user's relations changed. */
export const createAccessVersionStore = ({ db, tableName }: { db: DynamoDBDocumentClient; tableName: string }) => ({
  get: async (userId: string): Promise<AccessVersion> => {
    const result = await db.send(new GetCommand({ TableName: tableName, Key: { userId }, ConsistentRead: true }));
    return {
      version: typeof result.Item?.version === 'number' ? result.Item.version : 0,
      changedAt: typeof result.Item?.changedAt === 'number' ? result.Item.changedAt : 0,
    };
  },

  /** An atomic ADD per user: concurrent changes never lose a bump. */
  bump: async (userIds: readonly string[], now: number): Promise<void> => {
    await Promise.all(
      [...new Set(userIds)].map((userId) =>
        db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { userId },
            UpdateExpression: 'ADD #version :one SET changedAt = :now',
            ExpressionAttributeNames: { '#version': 'version' },
            ExpressionAttributeValues: { ':one': 1, ':now': now },
          }),
        ),
      ),
    );
  },
});

export type AccessVersionStore = ReturnType<typeof createAccessVersionStore>;
