import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { isConditionFailure, queryPage } from '../../_shared/dynamodb';
import { readAll } from '../../_shared/paging';
import type { ApiKeyStore, StoredApiKey } from '../domain/ports';

/** The API keys table (API_KEYS_TABLE): one row per key, a person's keys by the byOwner index. */
export const createApiKeyStore = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): ApiKeyStore => ({
  put: async (key: StoredApiKey): Promise<void> => {
    await db.send(
      new PutCommand({ TableName: tableName, Item: key, ConditionExpression: 'attribute_not_exists(keyId)' }),
    );
  },

  get: async (keyId: string): Promise<StoredApiKey | undefined> => {
    const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: { keyId }, ConsistentRead: true }));
    return Item as StoredApiKey | undefined;
  },

  listByOwner: (ownerId: string): Promise<StoredApiKey[]> =>
    readAll((startKey) =>
      queryPage<StoredApiKey>(
        db,
        {
          TableName: tableName,
          IndexName: 'byOwner',
          KeyConditionExpression: 'ownerId = :ownerId',
          ExpressionAttributeValues: { ':ownerId': ownerId },
        },
        { startKey },
      ),
    ),

  remove: async (keyId: string): Promise<StoredApiKey | undefined> => {
    const result = await db.send(new DeleteCommand({ TableName: tableName, Key: { keyId }, ReturnValues: 'ALL_OLD' }));
    return result.Attributes as StoredApiKey | undefined;
  },

  touch: async (keyId: string, at: number, resolutionMs: number): Promise<void> => {
    try {
      await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { keyId },
          UpdateExpression: 'SET lastUsed = :at',
          ConditionExpression: 'attribute_exists(keyId) AND (attribute_not_exists(lastUsed) OR lastUsed < :stale)',
          ExpressionAttributeValues: { ':at': at, ':stale': at - resolutionMs },
        }),
      );
    } catch (error) {
      // Recorded within the resolution, or revoked since the read: neither changes the answer.
      if (!isConditionFailure(error)) throw error;
    }
  },
});
