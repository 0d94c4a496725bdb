import { DeleteCommand, type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DeviceCredential } from '../../../shared/contracts/devices';
import { isConditionFailure, queryPage } from '../../_shared/dynamodb';
import { readAll } from '../../_shared/paging';
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
  const page = (deviceId: string, limit: number | undefined, startKey?: Key) =>
    queryPage(
      db,
      {
        TableName: tableName,
        IndexName: 'byDevice',
        KeyConditionExpression: 'deviceId = :deviceId',
        ExpressionAttributeValues: { ':deviceId': deviceId },
      },
      { limit, startKey },
      listed,
    );

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

    listAll: (deviceId: string): Promise<DeviceCredential[]> =>
      readAll((startKey) => page(deviceId, undefined, startKey)),

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
