import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { type KeyRead, readKey, readTogether } from './read-ahead';

describe('reading ahead', () => {
  const dynamo = mockClient(DynamoDBDocumentClient);
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-west-2' }));
  beforeEach(() => dynamo.reset());
  afterAll(() => dynamo.restore());

  const session: KeyRead = { table: 'sessions', key: { userId: 'u1' }, consistent: true };
  const device: KeyRead = { table: 'devices', key: { id: 'd1' }, consistent: true, attributes: ['name', 'state'] };
  const subscription: KeyRead = { table: 'subs', key: { deviceId: 'd1' }, consistent: true };
  const relation = (id: string): KeyRead => ({ table: 'relations', key: { id }, consistent: false });

  it('reads the keys of several tables in one BatchGetItem, each table as its reads ask', async () => {
    dynamo.on(BatchGetCommand).resolves({
      Responses: {
        sessions: [{ userId: 'u1', version: 3 }],
        devices: [{ id: 'd1', name: 'Buoy', state: 'active' }],
        relations: [{ id: 'r2', type: 'device-user' }],
      },
    });
    const ahead = await readTogether(db, [
      session,
      device,
      subscription,
      relation('r1'),
      relation('r2'),
      relation('r2'),
    ]);

    const calls = dynamo.commandCalls(BatchGetCommand);
    expect(calls).toHaveLength(1);
    const items = calls[0]!.args[0].input.RequestItems!;
    expect(items.sessions).toEqual({ Keys: [{ userId: 'u1' }], ConsistentRead: true });
    expect(items.devices).toEqual({
      Keys: [{ id: 'd1' }],
      ConsistentRead: true,
      ProjectionExpression: '#p0, #p1, #p2',
      ExpressionAttributeNames: { '#p0': 'id', '#p1': 'name', '#p2': 'state' },
    });
    expect(items.relations).toEqual({ Keys: [{ id: 'r1' }, { id: 'r2' }], ConsistentRead: false });

    expect(ahead.item(session)).toEqual({ userId: 'u1', version: 3 });
    expect(ahead.item(device)).toMatchObject({ name: 'Buoy' });
    expect(ahead.item(relation('r2'))).toMatchObject({ type: 'device-user' });
    // Read, and not there: known to be missing, so nobody reads it again.
    expect([ahead.has(subscription), ahead.item(subscription)]).toEqual([true, undefined]);
    expect([ahead.has(relation('r1')), ahead.item(relation('r1'))]).toEqual([true, undefined]);
  });

  it('does not answer for a key it did not read, less consistently, or without the attributes asked', async () => {
    dynamo.on(BatchGetCommand).resolves({ Responses: { devices: [{ id: 'd1', name: 'Buoy', state: 'active' }] } });
    const ahead = await readTogether(db, [device, relation('r1')]);
    expect(ahead.has({ ...device, key: { id: 'd2' } })).toBe(false);
    expect(ahead.has({ ...relation('r1'), consistent: true })).toBe(false);
    expect(ahead.has({ ...device, attributes: ['name', 'lastSeen'] })).toBe(false);
    expect(ahead.has({ ...device, attributes: undefined })).toBe(false);
    expect(ahead.has({ ...device, attributes: ['state'] })).toBe(true);
  });

  it('reads one key with a GetItem, and readKey takes what was read ahead before reading itself', async () => {
    dynamo.on(GetCommand).resolves({ Item: { userId: 'u1', version: 1 } });
    const ahead = await readTogether(db, [session]);
    expect(dynamo.commandCalls(GetCommand)[0]!.args[0].input).toEqual({
      TableName: 'sessions',
      Key: { userId: 'u1' },
      ConsistentRead: true,
    });
    expect(dynamo.commandCalls(BatchGetCommand)).toHaveLength(0);

    expect(await readKey(db, session, ahead)).toEqual({ userId: 'u1', version: 1 });
    expect(dynamo.commandCalls(GetCommand)).toHaveLength(1);
    await readKey(db, device, ahead);
    expect(dynamo.commandCalls(GetCommand)[1]!.args[0].input).toMatchObject({
      TableName: 'devices',
      Key: { id: 'd1' },
    });
  });

  it('reads nothing for no keys', async () => {
    const ahead = await readTogether(db, []);
    expect(ahead.has(session)).toBe(false);
    expect(dynamo.calls()).toHaveLength(0);
  });
});
