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
      'SET lastSeen = :seen, measurementUnits.#u0 = :u0 ADD seenVersion :one, measurementNames :names',
    );
    expect(input!.ConditionExpression).toBe(
      'attribute_exists(id) AND #state <> :retired AND (attribute_not_exists(lastSeen) OR lastSeen < :seen)',
    );
    expect(input!.ExpressionAttributeValues![':names']).toEqual(new Set(['co2']));
  });

  it('updates names and units without lastSeen when the batch is older than lastSeen', async () => {
    db.on(UpdateCommand).rejectsOnce(conditionFailed()).resolves({});
    expect(await store().markSeen('d1', seen)).toEqual({});
    expect(updates()[1]!.UpdateExpression).toBe(
      'SET measurementUnits.#u0 = :u0 ADD seenVersion :one, measurementNames :names',
    );
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
      'SET lastSeen = :seen, measurementUnits.#u0 = :u0 ADD seenVersion :one, measurementNames :names',
      'SET measurementUnits = if_not_exists(measurementUnits, :empty)',
      'SET lastSeen = :seen, measurementUnits.#u0 = :u0 ADD seenVersion :one, measurementNames :names',
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

describe('createDeviceSeenStore.markSeen with the quality memory', () => {
  beforeEach(() => db.reset());
  const memory = (t: number, v: number) => ({
    pm2_5: { p: [[t, v, 0]] as [number, number, 0][], r: [v, t] as [number, number] },
  });

  it("keeps the memory in a second update the first time, then in the one update, against the record's version", async () => {
    const devices = store();
    db.on(UpdateCommand)
      .resolvesOnce({ Attributes: { id: 'd1', lastSeen: 500, seenVersion: 6, qualityState: memory(500, 10) } })
      .resolvesOnce({ Attributes: { id: 'd1', lastSeen: 1_000, seenVersion: 8, qualityState: memory(1_000, 11) } })
      .resolvesOnce({ Attributes: { id: 'd1', lastSeen: 1_000, seenVersion: 8, qualityState: memory(1_000, 11) } });
    const kept: unknown[] = [];
    expect(
      await devices.markSeen('d1', seen, (before) => {
        kept.push(before);
        return memory(1_000, 11);
      }),
    ).toEqual({ lastSeen: 500, qualityState: memory(500, 10) });
    expect(updates()[1]).toMatchObject({
      UpdateExpression: 'SET qualityState = :state, qualityStateAt = :newest ADD seenVersion :one',
      ConditionExpression:
        'attribute_exists(id) AND (attribute_not_exists(qualityStateAt) OR qualityStateAt <= :newest)',
      ExpressionAttributeValues: { ':newest': 1_000 },
      ReturnValues: 'ALL_NEW',
    });
    // The next batch: one write, made against version 8 (which the second update answered), lastSeen set outright.
    await devices.markSeen('d1', { ...seen, lastSeen: 2_000 }, (before) => {
      kept.push(before);
      return memory(2_000, 12);
    });
    expect(updates()).toHaveLength(3);
    expect(kept).toEqual([memory(500, 10), memory(1_000, 11)]);
    expect(updates()[2]).toMatchObject({
      UpdateExpression:
        'SET lastSeen = :seen, qualityState = :quality, qualityStateAt = :qualityAt, measurementUnits.#u0 = :u0 ' +
        'ADD seenVersion :one, measurementNames :names',
      ConditionExpression: 'attribute_exists(id) AND #state <> :retired AND seenVersion = :version',
      ExpressionAttributeValues: { ':version': 8, ':seen': 2_000, ':quality': memory(2_000, 12), ':qualityAt': 2_000 },
      ReturnValues: 'ALL_OLD',
    });
  });

  it('leaves lastSeen out of the one update for a batch older than the record it knows', async () => {
    const devices = store();
    db.on(UpdateCommand).resolves({ Attributes: { id: 'd1', lastSeen: 500, seenVersion: 1 } });
    await devices.markSeen('d1', seen);
    await devices.markSeen('d1', { ...seen, lastSeen: 900 });
    expect(updates()).toHaveLength(2);
    expect(updates()[1]!.UpdateExpression).toBe(
      'SET measurementUnits.#u0 = :u0 ADD seenVersion :one, measurementNames :names',
    );
    expect(updates()[1]!.ExpressionAttributeValues![':version']).toBe(2);
  });

  it('when the record moved since (another process wrote it), marks the device seen again and runs the checks on its memory', async () => {
    const devices = store();
    db.on(UpdateCommand)
      .resolvesOnce({ Attributes: { id: 'd1', seenVersion: 1 } })
      .rejectsOnce(conditionFailed())
      .resolvesOnce({ Attributes: { id: 'd1', lastSeen: 1_500, seenVersion: 4, qualityState: memory(1_500, 30) } })
      .resolves({ Attributes: { id: 'd1', seenVersion: 6 } });
    await devices.markSeen('d1', seen);
    const kept: unknown[] = [];
    const device = await devices.markSeen('d1', { ...seen, lastSeen: 2_000 }, (before) => {
      kept.push(before);
      return memory(2_000, 31);
    });
    expect(device).toEqual({ lastSeen: 1_500, qualityState: memory(1_500, 30) });
    // Against the version it knew (2), then as the first time: its memory as the record holds it is the last one run.
    expect(kept).toEqual([undefined, memory(1_500, 30)]);
    expect(updates().map((u) => u.ExpressionAttributeValues![':version'])).toEqual([
      undefined,
      2,
      undefined,
      undefined,
    ]);
    expect(updates()[2]!.ConditionExpression).toContain('lastSeen < :seen');
    expect(updates()[3]!.UpdateExpression).toBe(
      'SET qualityState = :state, qualityStateAt = :newest ADD seenVersion :one',
    );
  });

  it('forgets the record of a device gone or retired meanwhile: undefined, nothing written', async () => {
    const devices = store();
    db.on(UpdateCommand)
      .resolvesOnce({ Attributes: { id: 'd1', seenVersion: 1 } })
      .rejects(conditionFailed());
    await devices.markSeen('d1', seen);
    expect(await devices.markSeen('d1', seen, () => memory(1_000, 1))).toBeUndefined();
    expect(updates()).toHaveLength(4);
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
