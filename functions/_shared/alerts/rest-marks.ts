import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { updateIf } from '../dynamodb';
import type { DeviceAlertState } from './alert-model';

/**
 * Two numbers on the device record (docs/decisions/097-alert-rest-marks-on-the-device-record.md): the version of the
 * device's alert state last known to have every track at rest (`alertsAtRest`), and the version of the latest state
 * written, or about to be written, with a track that is not (`alertsBusy`). Ingest reads them in the device-record
 * update it makes anyway; while the first is at or past the second, no track of the device is pending or firing, so
 * a batch whose readings cross no limit changes nothing and reads no alert state.
 */
export const REST_MARKS = { atRest: 'alertsAtRest', busy: 'alertsBusy' } as const;

/** Every track of the state at rest: nothing pending, firing or clearing. */
export const isAtRest = (state: Pick<DeviceAlertState, 'tracks'>): boolean =>
  Object.values(state.tracks).every((track) => track.phase === 'ok');

/** Whether a device record's marks say every alert track of the device is at rest. */
export const atRestOnRecord = (item: Record<string, unknown> | undefined): boolean => {
  const atRest = item?.[REST_MARKS.atRest];
  const busy = item?.[REST_MARKS.busy];
  return typeof atRest === 'number' && (typeof busy !== 'number' || busy <= atRest);
};

/**
 * The marks' writes. `busy` comes before a state with a track not at rest is written (so no record says "at rest"
 * while such a state may exist), `atRest` after a state at rest was written or read, and only while no busy mark is
 * newer than that state: a late `atRest` never hides a busier state written meanwhile. A device removed meanwhile gets
 * no record back.
 */
export const createRestMarks = ({ db, devicesTable }: { db: DynamoDBDocumentClient; devicesTable: string }) => ({
  busy: async (deviceId: string, version: number): Promise<void> => {
    await updateIf(db, {
      TableName: devicesTable,
      Key: { id: deviceId },
      UpdateExpression: 'SET #busy = :v',
      ConditionExpression: 'attribute_exists(id) AND (attribute_not_exists(#busy) OR #busy < :v)',
      ExpressionAttributeNames: { '#busy': REST_MARKS.busy },
      ExpressionAttributeValues: { ':v': version },
    });
  },
  /** @returns false when a newer busy mark (or a newer rest mark) was there, or the device is gone */
  atRest: async (deviceId: string, version: number): Promise<boolean> =>
    (await updateIf(db, {
      TableName: devicesTable,
      Key: { id: deviceId },
      UpdateExpression: 'SET #rest = :v',
      ConditionExpression:
        'attribute_exists(id) AND (attribute_not_exists(#busy) OR #busy <= :v) AND ' +
        '(attribute_not_exists(#rest) OR #rest < :v)',
      ExpressionAttributeNames: { '#busy': REST_MARKS.busy, '#rest': REST_MARKS.atRest },
      ExpressionAttributeValues: { ':v': version },
    })) !== undefined,
  /** Forgets both (a state put as it is, whatever its version): the next evaluation reads the state. */
  forget: async (deviceId: string): Promise<void> => {
    await updateIf(db, {
      TableName: devicesTable,
      Key: { id: deviceId },
      UpdateExpression: 'REMOVE #busy, #rest',
      ConditionExpression: 'attribute_exists(id)',
      ExpressionAttributeNames: { '#busy': REST_MARKS.busy, '#rest': REST_MARKS.atRest },
    });
  },
});
