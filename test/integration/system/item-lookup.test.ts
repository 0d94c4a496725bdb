import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { freshDevice, type TestDevice } from '../../support/sensor-data';
import { apiAs, apiRejection, documentClient, stack, tokenOf, uniqueId } from '../../support/stack';

/**
 * POST /system/batchGetDdbItems through the local gateway (docs/system.md, "Item look-up"): items by key from the
 * allowed tables, named by their platform key, never a secret, whatever the stored item holds.
 */

const day = (time: number) => new Date(time).toISOString().slice(0, 10);

describe('the item look-up through the local gateway', () => {
  let employee: ReturnType<typeof apiAs<'system'>>;
  let device: TestDevice;
  let readingAt: number;

  beforeAll(async () => {
    employee = apiAs('system', await tokenOf('employee@example.com'));
    device = await freshDevice();
    // Half a minute before now, away from any hour's start: one stored reading, and the device's measurement set.
    readingAt = Math.floor(Date.now() / 60_000) * 60_000 - 30_000;
    await apiAs('data-ingress', device.credential).ingestReadings({
      body: { readings: [{ timestamp: readingAt, values: { pm2_5: 7.5, co2: 420 } }] },
    });
  });

  it("answers a device's record without the claim code's hash the table holds", async () => {
    const stored = await documentClient().send(
      new GetCommand({ TableName: stack().tables.devices!, Key: { id: device.id } }),
    );
    expect(typeof stored.Item!.claimCodeHash).toBe('string');

    const result = await employee.batchGetDdbItems({
      body: { params: { RequestItems: { devices: { Keys: [{ id: device.id }, { id: 'no-such-device' }] } } } },
    });
    const [item] = result.Responses.devices!;
    expect(item).toMatchObject({ id: device.id, productLine: 'sd1' });
    expect(item).not.toHaveProperty('claimCodeHash');
    expect(JSON.stringify(result)).not.toContain(String(stored.Item!.claimCodeHash));
    // DynamoDB's string set comes back as a sorted list.
    expect(item!.measurementNames).toEqual(['co2', 'pm2_5']);
    expect(result.withheld.devices).toEqual(['claimCodeHash']);
    expect(result.missing.devices).toEqual([{ id: 'no-such-device' }]);
    expect(result.UnprocessedKeys).toEqual({});
  });

  it('reads several tables at once, composite keys included', async () => {
    const id = uniqueId('lookup');
    const admin = apiAs('system', await tokenOf('admin@example.com'));
    await admin.createParameter({ body: { id, value: { on: true } } });
    const result = await employee.batchGetDdbItems({
      body: {
        params: {
          RequestItems: {
            parameters: { Keys: [{ id }] },
            readings: { Keys: [{ pk: `${device.id}#${day(readingAt)}`, ts: readingAt }] },
          },
        },
      },
    });
    expect(result.Responses.parameters).toEqual([expect.objectContaining({ id, value: { on: true } })]);
    expect(result.Responses.readings).toEqual([
      expect.objectContaining({
        pk: `${device.id}#${day(readingAt)}`,
        ts: readingAt,
        rs: [{ t: readingAt, v: { pm2_5: 7.5, co2: 420 } }],
      }),
    ]);
    await admin.deleteParameter({ params: { id } });
  });

  it('refuses the tables that hold secrets, with the reason, and an unknown or deployed table name', async () => {
    for (const [table, key] of [
      ['deviceCredentials', { credentialId: 'dc_x' }],
      ['apiKeys', { keyId: 'k' }],
      ['notificationPreferences', { userId: 'u' }],
    ] as const) {
      const refused = await apiRejection(
        employee.batchGetDdbItems({ body: { params: { RequestItems: { [table]: { Keys: [key] } } } } }),
      );
      expect([table, refused.status]).toEqual([table, 403]);
      expect(refused.message).toMatch(new RegExp(`^Items of ${table} cannot be looked up\\. `));
    }
    const deployed = await apiRejection(
      employee.batchGetDdbItems({
        body: { params: { RequestItems: { [stack().tables.devices!]: { Keys: [{ id: device.id }] } } } },
      }),
    );
    expect(deployed.status).toBe(400);
    expect(deployed.message).toMatch(/can be looked up; the tables are: .*devices/);
  });

  it('refuses keys of the wrong shape, naming each, and more than 100 keys', async () => {
    const shape = await apiRejection(
      employee.batchGetDdbItems({
        body: { params: { RequestItems: { readings: { Keys: [{ pk: 'x' }, { pk: 'x', ts: 'one' }] } } } },
      }),
    );
    expect(shape.status).toBe(400);
    expect(shape.body.issues).toEqual([
      { path: 'body.params.RequestItems.readings.Keys.0', message: 'A key of this table has exactly pk and ts' },
      { path: 'body.params.RequestItems.readings.Keys.1', message: 'ts must be a number' },
    ]);
    const many = Array.from({ length: 101 }, (_, i) => ({ id: `d-${i}` }));
    const tooMany = await apiRejection(
      employee.batchGetDdbItems({ body: { params: { RequestItems: { devices: { Keys: many } } } } }),
    );
    expect([tooMany.status, tooMany.message]).toEqual([
      400,
      'At most 100 keys can be looked up at once; 101 were asked',
    ]);
  });

  it('lists the tables it reads with their keys and what each withholds, and none that holds secrets', async () => {
    const { items } = await employee.listLookupTables({});
    const byName = new Map(items.map((table) => [table.table, table]));
    expect(byName.get('devices')).toMatchObject({
      partitionKey: { name: 'id', type: 'S' },
      withheld: ['claimCodeHash'],
    });
    expect(byName.get('readings')).toMatchObject({
      partitionKey: { name: 'pk', type: 'S' },
      sortKey: { name: 'ts', type: 'N' },
    });
    for (const table of ['deviceCredentials', 'apiKeys', 'notificationPreferences'])
      expect(byName.has(table)).toBe(false);
  });

  it('is for staff only', async () => {
    const user = apiAs('system', await tokenOf('user@example.com'));
    const request = { body: { params: { RequestItems: { devices: { Keys: [{ id: device.id }] } } } } };
    expect((await apiRejection(user.batchGetDdbItems(request))).status).toBe(403);
    expect((await apiRejection(apiAs('system').batchGetDdbItems(request))).status).toBe(401);
  });
});
