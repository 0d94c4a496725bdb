import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

/** What alerts read of a device record (the devices area owns it; data-ingress keeps lastSeen and the names). */
export interface DeviceFacts {
  id: string;
  name?: string;
  /** The device's newest reading (ms), never later than when it arrived. */
  lastSeen?: number;
  /** Every measurement name the device has sent. */
  measurementNames: string[];
  /** Units the device declared for names outside the catalogue. */
  measurementUnits: Record<string, string>;
}

/** Reads a device's name, last reading and measurement names, consistently: the sweep decides a silence on it. */
export const createDeviceReader = ({ db, tableName }: { db: DynamoDBDocumentClient; tableName: string }) => ({
  facts: async (deviceId: string): Promise<DeviceFacts | undefined> => {
    const item = (
      await db.send(
        new GetCommand({
          TableName: tableName,
          Key: { id: deviceId },
          ConsistentRead: true,
          ProjectionExpression: 'id, #name, lastSeen, measurementNames, measurementUnits',
          ExpressionAttributeNames: { '#name': 'name' },
        }),
      )
    ).Item;
    if (!item) return undefined;
    const names = item.measurementNames as Set<string> | string[] | undefined;
    return {
      id: deviceId,
      ...(typeof item.name === 'string' && item.name ? { name: item.name } : {}),
      ...(typeof item.lastSeen === 'number' ? { lastSeen: item.lastSeen } : {}),
      measurementNames: names ? [...names] : [],
      measurementUnits: (item.measurementUnits as Record<string, string> | undefined) ?? {},
    };
  },
});

export type DeviceReader = ReturnType<typeof createDeviceReader>;
