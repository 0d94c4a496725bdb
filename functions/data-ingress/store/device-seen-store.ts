import { type DynamoDBDocumentClient, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { FirmwareTarget } from '../../../shared/contracts/devices';
import { atRestOnRecord } from '../../_shared/alerts/rest-marks';
import { isConditionFailure, updateIf } from '../../_shared/dynamodb';
import type { QualityState } from '../../_shared/sensor-data/quality-flags';
import type { DeviceSeenStore, SeenDevice, SeenUpdate } from '../domain/ports';

const seenDevice = (item: Record<string, unknown> | undefined): SeenDevice => ({
  ...(typeof item?.lastSeen === 'number' ? { lastSeen: item.lastSeen } : {}),
  ...(typeof item?.firmwareVersion === 'string' ? { firmwareVersion: item.firmwareVersion } : {}),
  ...(item?.firmwareTarget ? { firmwareTarget: item.firmwareTarget as FirmwareTarget } : {}),
  ...(typeof item?.rollupSentFor === 'number' ? { rollupSentFor: item.rollupSentFor } : {}),
  ...(item?.qualityState ? { qualityState: item.qualityState as QualityState } : {}),
  ...(atRestOnRecord(item) ? { alertsAtRest: true } : {}),
});

// A missing map cannot take `SET measurementUnits.x`: DynamoDB refuses the document path.
const isMissingMap = (error: unknown) =>
  error instanceof Error && error.name === 'ValidationException' && /document path/i.test(error.message);

/**
 * The ingest's one write to the device record (the devices area owns the rest of it): lastSeen moves only
 * forward, measurement names join a string set, declared units are set by name. Only a device that exists
 * and is not retired is touched.
 */
export const createDeviceSeenStore = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): DeviceSeenStore => {
  const update = async (deviceId: string, seen: SeenUpdate, withLastSeen: boolean): Promise<SeenDevice> => {
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
    // Never the case today (a stored batch has names); the device's own fields still come back.
    if (!set.length && !add) set.push('#state = #state');
    const input: UpdateCommandInput = {
      TableName: tableName,
      Key: { id: deviceId },
      UpdateExpression: `${set.length ? `SET ${set.join(', ')}` : ''}${add}`.trim(),
      ConditionExpression: condition,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      // The write ingest makes anyway tells it the device's firmware and rollout target, and its lastSeen before this
      // batch (what the work after it counts as new): no read of its own. It changes none of those but lastSeen.
      ReturnValues: 'ALL_OLD',
    };
    try {
      return seenDevice((await db.send(new UpdateCommand(input))).Attributes);
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
      return seenDevice((await db.send(new UpdateCommand(input))).Attributes);
    }
  };

  return {
    markSeen: async (deviceId: string, seen: SeenUpdate): Promise<SeenDevice | undefined> => {
      try {
        return await update(deviceId, seen, true);
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
      try {
        return await update(deviceId, seen, false);
      } catch (error) {
        if (isConditionFailure(error)) return undefined;
        throw error;
      }
    },

    reportFirmware: async (deviceId: string, version: string, at: number): Promise<boolean> =>
      (await updateIf(db, {
        TableName: tableName,
        Key: { id: deviceId },
        UpdateExpression: 'SET firmwareVersion = :version, firmwareReported = :at',
        ConditionExpression:
          'attribute_exists(id) AND #state <> :retired AND (attribute_not_exists(firmwareVersion) OR ' +
          'firmwareVersion <> :version) AND (attribute_not_exists(firmwareReported) OR firmwareReported < :at)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':version': version, ':at': at, ':retired': 'retired' },
      })) !== undefined,

    saveQualityState: async (deviceId: string, state: QualityState, newest: number): Promise<void> => {
      // Conditional on time, not on a version: of two batches at once, the one with the later values keeps its memory,
      // and a retired or removed device gets no record back.
      await updateIf(db, {
        TableName: tableName,
        Key: { id: deviceId },
        UpdateExpression: 'SET qualityState = :state, qualityStateAt = :newest',
        ConditionExpression:
          'attribute_exists(id) AND (attribute_not_exists(qualityStateAt) OR qualityStateAt <= :newest)',
        ExpressionAttributeValues: { ':state': state, ':newest': newest },
      });
    },

    markRollupSent: async (deviceId: string, notBefore: number): Promise<void> => {
      // A device removed meanwhile gets no record back: the condition keeps the mark from creating one.
      await updateIf(db, {
        TableName: tableName,
        Key: { id: deviceId },
        UpdateExpression: 'SET rollupSentFor = :due',
        ConditionExpression: 'attribute_exists(id)',
        ExpressionAttributeValues: { ':due': notBefore },
      });
    },
  };
};
