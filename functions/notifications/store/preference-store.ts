import { randomBytes } from 'node:crypto';
import { type DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { NotificationTopic } from '../../../shared/notifications/topics';
import { batchGetKeys } from '../../_shared/dynamodb';
import type { PreferenceRecord, PreferenceStore } from '../domain/ports';

const toRecord = (item: Record<string, unknown>): PreferenceRecord => ({
  userId: item.userId as string,
  emailOff: [...((item.emailOff as Set<NotificationTopic> | undefined) ?? [])],
  ...(item.token ? { token: item.token as string } : {}),
});

/** Per person: the topics whose e-mail is off, and the unsubscribe token (found again through byToken). */
export const createPreferenceStore = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): PreferenceStore => ({
  get: async (userId: string): Promise<PreferenceRecord> => {
    const result = await db.send(new GetCommand({ TableName: tableName, Key: { userId }, ConsistentRead: true }));
    return result.Item ? toRecord(result.Item) : { userId, emailOff: [] };
  },

  getMany: async (userIds: readonly string[]): Promise<Map<string, PreferenceRecord>> => {
    const unique = [...new Set(userIds)];
    if (unique.length === 0) return new Map();
    const found = await batchGetKeys(db, { [tableName]: { Keys: unique.map((userId) => ({ userId })) } });
    return new Map((found.get(tableName) ?? []).map((item) => [item.userId as string, toRecord(item)]));
  },

  setEmailOff: async (
    userId: string,
    off: readonly NotificationTopic[],
    on: readonly NotificationTopic[],
    now: number,
  ) => {
    const parts = ['SET updated = :now'];
    const values: Record<string, unknown> = { ':now': now };
    if (off.length) values[':off'] = new Set(off);
    if (on.length) values[':on'] = new Set(on);
    const expression = `${parts.join(', ')}${off.length ? ' ADD emailOff :off' : ''}${on.length ? ' DELETE emailOff :on' : ''}`;
    const result = await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { userId },
        UpdateExpression: expression,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toRecord(result.Attributes ?? { userId });
  },

  tokenOf: async (userId: string): Promise<string> => {
    const result = await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { userId },
        UpdateExpression: 'SET #token = if_not_exists(#token, :token)',
        ExpressionAttributeNames: { '#token': 'token' },
        ExpressionAttributeValues: { ':token': randomBytes(24).toString('base64url') },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return result.Attributes!.token as string;
  },

  findByToken: async (token: string): Promise<string | undefined> => {
    const result = await db.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: 'byToken',
        KeyConditionExpression: '#token = :token',
        ExpressionAttributeNames: { '#token': 'token' },
        ExpressionAttributeValues: { ':token': token },
        Limit: 1,
      }),
    );
    return result.Items?.[0]?.userId as string | undefined;
  },
});
