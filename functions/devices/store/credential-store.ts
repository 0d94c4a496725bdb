import { DeleteCommand, type DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { DeviceCredential } from '../../../shared/contracts/devices';
import { isConditionFailure } from '../../_shared/dynamodb';
import type { CredentialStore, StoredCredential } from '../domain/ports';

type Key = Record<string, unknown>;

const listed = (item: Record<string, unknown>): DeviceCredential => ({
  credentialId: item.credentialId as string,
  deviceId: item.deviceId as string,
  created: item.created as number,
  createdBy: item.createdBy as string,
  ...(typeof item.lastUsed === 'number' ? { lastUsed: item.lastUsed } : {}),
});

/** The device credentials table; tokens are verified by functions/_shared/devices/credential-verifier.ts. */
export const createCredentialStore = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): CredentialStore => {
  const page = async (deviceId: string, limit: number, startKey?: Key) => {
    const result = await db.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: 'byDevice',
        KeyConditionExpression: 'deviceId = :deviceId',
        ExpressionAttributeValues: { ':deviceId': deviceId },
        Limit: limit,
        ExclusiveStartKey: startKey,
      }),
    );
    return { items: (result.Items ?? []).map(listed), lastKey: result.LastEvaluatedKey };
  };

  return {
    put: async (credential: StoredCredential): Promise<void> => {
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: credential,
          ConditionExpression: 'attribute_not_exists(credentialId)',
        }),
      );
    },

    page,

    listAll: async (deviceId: string): Promise<DeviceCredential[]> => {
      const all: DeviceCredential[] = [];
      let startKey: Key | undefined;
      do {
        const result = await page(deviceId, 100, startKey);
        all.push(...result.items);
        startKey = result.lastKey;
      } while (startKey);
      return all;
    },

    remove: async (deviceId: string, credentialId: string): Promise<DeviceCredential | undefined> => {
      try {
        const result = await db.send(
          new DeleteCommand({
            TableName: tableName,
            Key: { credentialId },
            ConditionExpression: 'deviceId = :deviceId',
            ExpressionAttributeValues: { ':deviceId': deviceId },
            ReturnValues: 'ALL_OLD',
          }),
        );
        return result.Attributes ? listed(result.Attributes) : undefined;
      } catch (error) {
        if (isConditionFailure(error)) return undefined;
        throw error;
      }
    },
  };
};
