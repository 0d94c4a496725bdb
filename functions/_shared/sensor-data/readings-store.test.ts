import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { createReadingsStore, dayOf } from './readings-store';

describe('the readings store', () => {
  const dynamo = mockClient(DynamoDBDocumentClient);
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-west-2' }));
  const store = createReadingsStore({ db, tableName: 'readings' });
  const day = (n: number) => Date.UTC(2026, 10, n);
  beforeEach(() => dynamo.reset());
  afterAll(() => dynamo.restore());

  it('keys a reading by device and UTC day, and writes one item per timestamp (the last of a batch wins)', async () => {
    dynamo.on(BatchWriteCommand).resolves({});
    await store.write(
      'dev-1',
      [
        { timestamp: day(3) + 5, values: { co2: 400 } },
        { timestamp: day(3) + 5, values: { co2: 410 } },
        { timestamp: day(4) - 1, values: { co2: 420 } },
      ],
      99,
    );
    const items = dynamo.commandCalls(BatchWriteCommand).flatMap((c) => c.args[0].input.RequestItems!.readings!);
    expect(items.map((r) => (r as { PutRequest: { Item: unknown } }).PutRequest.Item)).toEqual([
      { pk: 'dev-1#2026-11-03', ts: day(3) + 5, v: { co2: 410 }, rcv: 99 },
      { pk: 'dev-1#2026-11-03', ts: day(4) - 1, v: { co2: 420 }, rcv: 99 },
    ]);
    expect(dayOf(day(4))).toBe('2026-11-04');
  });

  it('reads newest first day by day, within the range, and stops at the limit', async () => {
    dynamo.on(QueryCommand).callsFake((input) => {
      const pk = input.ExpressionAttributeValues[':pk'] as string;
      const items = pk.endsWith('2026-11-05')
        ? [
            { ts: day(5) + 2, v: { a: 2 } },
            { ts: day(5) + 1, v: { a: 1 } },
          ]
        : [{ ts: day(4) + 9, v: { a: 0 } }];
      return { Items: items };
    });
    const readings = await store.query('dev-1', { from: day(3) + 10, to: day(5) + 100, limit: 3 });
    expect(readings.map((r) => r.timestamp)).toEqual([day(5) + 2, day(5) + 1, day(4) + 9]);
    const inputs = dynamo.commandCalls(QueryCommand).map((c) => c.args[0].input);
    expect(inputs.map((i) => i.ExpressionAttributeValues![':pk'])).toEqual(['dev-1#2026-11-05', 'dev-1#2026-11-04']);
    expect(inputs[0]).toMatchObject({
      ScanIndexForward: false,
      ExpressionAttributeValues: { ':from': day(5), ':to': day(5) + 100 },
    });
  });

  it('answers nothing for an empty or reversed range without reading', async () => {
    expect(await store.query('dev-1', { from: day(5), to: day(4), limit: 10 })).toEqual([]);
    expect(dynamo.commandCalls(QueryCommand)).toHaveLength(0);
  });

  it('scans oldest first across days and pages', async () => {
    dynamo
      .on(QueryCommand)
      .resolvesOnce({ Items: [{ ts: day(3) + 1, v: {} }], LastEvaluatedKey: { pk: 'x', ts: 1 } })
      .resolvesOnce({ Items: [{ ts: day(3) + 2, v: {} }] })
      .resolves({ Items: [{ ts: day(4) + 1, v: {} }] });
    const seen: number[] = [];
    for await (const chunk of store.scan('dev-1', { from: day(3), to: day(4) + 5 }))
      seen.push(...chunk.map((r) => r.timestamp));
    expect(seen).toEqual([day(3) + 1, day(3) + 2, day(4) + 1]);
  });
});
