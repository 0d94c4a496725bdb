import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { StoredTarget } from '../../_shared/code-releases/rollout-item';
import { batchGetKeys } from '../../_shared/dynamodb';
import type { FirmwareUpdateStates } from '../domain/ports';

/** Read-only: the code-releases area's rollout targets (what became of each update), by key. */
export const createFirmwareUpdateStates = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): FirmwareUpdateStates => ({
  of: async (keys) => {
    if (keys.length === 0) return [];
    const found = await batchGetKeys(db, {
      [tableName]: { Keys: keys.map(({ rolloutId, deviceId }) => ({ rolloutId, deviceId })) },
    });
    return (found.get(tableName) ?? []) as StoredTarget[];
  },
});
