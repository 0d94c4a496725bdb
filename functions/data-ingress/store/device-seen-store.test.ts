import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { createDeviceSeenStore } from './device-seen-store';

const conditionFailed = () => Object.assign(new Error('failed'), { name: 'ConditionalCheckFailedException' });
const db = mockClient(DynamoDBDocumentClient);
const store = () =>
  createDeviceSeenStore({
    db: DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-1' })),
    tableName: 'devices',
  });
const seen = { lastSeen: 1_000, names: ['co2'], units: { soil: '%vol' } };
const updates = () => db.commandCalls(UpdateCommand).map((c) => c.args[0].input);

describe('createDeviceSeenStore.markSeen', () => {
  beforeEach(() => db.reset());

  it('makes one conditional update: lastSeen forward only, names added, units set, device existing and not retired', async () => {
    db.on(UpdateCommand).resolves({});
    expect(await store().markSeen('d1', seen)).toEqual({});
    expect(updates()).toHaveLength(1);
    const [input] = updates();
    expect(input!.UpdateExpression).toBe(
      'SET lastSeen = :seen, measurementUnits.#u0 = :u0 ADD measurementNames :names',
    );
    expect(input!.ConditionExpression).toBe(
      'attribute_exists(id) AND #state <> :retired AND (attribute_not_exists(lastSeen) OR lastSeen < :seen)',
    );
    expect(input!.ExpressionAttributeValues![':names']).toEqual(new Set(['co2']));
  });

  it('updates names and units without lastSeen when the batch is older than lastSeen', async () => {
    db.on(UpdateCommand).rejectsOnce(conditionFailed()).resolves({});
    expect(await store().markSeen('d1', seen)).toEqual({});
    expect(updates()[1]!.UpdateExpression).toBe('SET measurementUnits.#u0 = :u0 ADD measurementNames :names');
    expect(updates()[1]!.ConditionExpression).toBe('attribute_exists(id) AND #state <> :retired');
  });

  it('answers undefined, writing nothing, for an unknown or retired device', async () => {
    db.on(UpdateCommand).rejects(conditionFailed());
    expect(await store().markSeen('ghost', seen)).toBeUndefined();
    expect(updates()).toHaveLength(2);
  });

  it('creates the units map first when the device has none yet, then retries', async () => {
    db.on(UpdateCommand)
      .rejectsOnce(
        Object.assign(new Error('The document path provided in the update expression is invalid for update'), {
          name: 'ValidationException',
        }),
      )
      .resolves({});
    expect(await store().markSeen('d1', seen)).toEqual({});
    expect(updates().map((u) => u.UpdateExpression)).toEqual([
      'SET lastSeen = :seen, measurementUnits.#u0 = :u0 ADD measurementNames :names',
      'SET measurementUnits = if_not_exists(measurementUnits, :empty)',
      'SET lastSeen = :seen, measurementUnits.#u0 = :u0 ADD measurementNames :names',
    ]);
  });

  it('lets other errors through (the request fails, the device resends)', async () => {
    db.on(UpdateCommand).rejects(
      Object.assign(new Error('throttled'), { name: 'ProvisionedThroughputExceededException' }),
    );
    await expect(store().markSeen('d1', seen)).rejects.toThrow('throttled');
  });

  it('hands back the firmware and rollout target on the device, and its lastSeen from before this batch', async () => {
    const target = { releaseId: 'sd1-1.4.2', rolloutId: 'r1', version: '1.4.2', assigned: 5 };
    db.on(UpdateCommand).resolves({
      Attributes: { id: 'd1', firmwareVersion: '1.4.1', firmwareTarget: target, lastSeen: 1_000 },
    });
    expect(await store().markSeen('d1', seen)).toEqual({
      firmwareVersion: '1.4.1',
      firmwareTarget: target,
      lastSeen: 1_000,
    });
    // The item as it was: the update changes none of the fields handed back but lastSeen, which is wanted as it was.
    expect(updates()[0]!.ReturnValues).toBe('ALL_OLD');
  });
});

describe('createDeviceSeenStore.reportFirmware', () => {
  beforeEach(() => db.reset());

  it('writes a changed version only, and never over a later report', async () => {
    db.on(UpdateCommand).resolves({});
    expect(await store().reportFirmware('d1', '1.4.2', 2_000)).toBe(true);
    const [input] = updates();
    expect(input!.UpdateExpression).toBe('SET firmwareVersion = :version, firmwareReported = :at');
    expect(input!.ConditionExpression).toContain('firmwareVersion <> :version');
    expect(input!.ConditionExpression).toContain('firmwareReported < :at');
    db.reset();
    db.on(UpdateCommand).rejects(conditionFailed());
    expect(await store().reportFirmware('d1', '1.4.2', 2_000)).toBe(false);
  });
});
