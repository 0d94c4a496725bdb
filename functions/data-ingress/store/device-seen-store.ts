import { type DynamoDBDocumentClient, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from '../../_shared/dynamodb';

export interface SeenUpdate {
  /** The newest stored reading's time, never later than now. */
  lastSeen: number;
  /** Every measurement name of the stored readings. */
  names: readonly string[];
  /** Units declared for names outside the catalogue. */
  units: Record<string, string>;
}

// A missing map cannot take `SET measurementUnits.x`: DynamoDB refuses the document path.
const isMissingMap = (error: unknown) =>
  error instanceof Error && error.name === 'ValidationException' && /document path/i.test(error.message);

/**
 * The ingest's one write to the device record (the devices area owns the rest of it): lastSeen moves only
 * forward, measurement names join a string set, declared units are set by name. Only a device that exists
 * and is not retired is touched.
 */
export const createDeviceSeenStore = ({ db, tableName }: { db: DynamoDBDocumentClient; tableName: string }) => {
  const update = async (deviceId: string, seen: SeenUpdate, withLastSeen: boolean): Promise<boolean> => {
    const set: string[] = [];
    const names: Record<string, string> = { '#state': 'state' };
    const values: Record<string, unknown> = { ':retired': 'retired' };
    let condition = 'attribute_exists(id) AND #state <> :retired';
    if (withLastSeen) {
      set.push('lastSeen = :seen');
      values[':seen'] = seen.lastSeen;
      condition += ' AND (attribute_not_exists(lastSeen) OR lastSeen < :seen)';
    }
    Object.entries(seen.units).forEach(([name, unit], i) => {
      set.push(`measurementUnits.#u${i} = :u${i}`);
      names[`#u${i}`] = name;
      values[`:u${i}`] = unit;
    });
    const add = seen.names.length ? ' ADD measurementNames :names' : '';
    if (seen.names.length) values[':names'] = new Set(seen.names);
    if (!set.length && !add) return true;
    const input: UpdateCommandInput = {
      TableName: tableName,
      Key: { id: deviceId },
      UpdateExpression: `${set.length ? `SET ${set.join(', ')}` : ''}${add}`.trim(),
      ConditionExpression: condition,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    };
    try {
      await db.send(new UpdateCommand(input));
      return true;
    } catch (error) {
      if (!isMissingMap(error)) throw error;
      await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { id: deviceId },
          UpdateExpression: 'SET measurementUnits = if_not_exists(measurementUnits, :empty)',
          ConditionExpression: 'attribute_exists(id)',
          ExpressionAttributeValues: { ':empty': {} },
        }),
      );
      await db.send(new UpdateCommand(input));
      return true;
    }
  };

  return {
    /**
     * @returns false when the device is unknown or retired (nothing written). A batch older than lastSeen costs
     * a second update, without lastSeen.
     */
    markSeen: async (deviceId: string, seen: SeenUpdate): Promise<boolean> => {
      try {
        return await update(deviceId, seen, true);
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
      try {
        return await update(deviceId, seen, false);
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },
  };
};

export type DeviceSeenStore = ReturnType<typeof createDeviceSeenStore>;
