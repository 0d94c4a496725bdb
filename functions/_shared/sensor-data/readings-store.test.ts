import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { createReadingsStore, dayOf, READINGS_PER_ITEM, readingItems } from './readings-store';

const conditionFailed = () =>
  Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' });

describe('the readings store', () => {
  const dynamo = mockClient(DynamoDBDocumentClient);
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-west-2' }));
  const store = createReadingsStore({ db, tableName: 'readings' });
  const day = (n: number) => Date.UTC(2026, 10, n);
  const HOUR = 3_600_000;
  beforeEach(() => dynamo.reset());
  /** The first put finds `item` at its key (a batch sent again); the merge's put then succeeds. */
  const foundAtKey = (item: Record<string, unknown>) =>
    dynamo.on(PutCommand).rejectsOnce(conditionFailed()).resolves({}).on(GetCommand).resolves({ Item: item });
  afterAll(() => dynamo.restore());

  it('stores a batch as an item per UTC hour, keyed by its first reading, one reading per timestamp (the last wins)', () => {
    const items = readingItems(
      'dev-1',
      [
        { timestamp: day(3) + HOUR + 5, values: { co2: 430 } },
        { timestamp: day(3) + 5, values: { co2: 400 } },
        { timestamp: day(3) + 5, values: { co2: 410 } },
        { timestamp: day(3) + 9, values: { co2: 415 } },
        { timestamp: day(4) - 1, values: { co2: 420 } },
      ],
      99,
    );
    expect(items).toEqual([
      {
        pk: 'dev-1#2026-11-03',
        ts: day(3) + 5,
        rs: [
          { t: day(3) + 5, v: { co2: 410 } },
          { t: day(3) + 9, v: { co2: 415 } },
        ],
        rcv: 99,
      },
      { pk: 'dev-1#2026-11-03', ts: day(3) + HOUR + 5, rs: [{ t: day(3) + HOUR + 5, v: { co2: 430 } }], rcv: 99 },
      { pk: 'dev-1#2026-11-03', ts: day(4) - 1, rs: [{ t: day(4) - 1, v: { co2: 420 } }], rcv: 99 },
    ]);
    expect(dayOf(day(4))).toBe('2026-11-04');
  });

  it('splits an hour of many readings into items of at most READINGS_PER_ITEM', () => {
    const readings = Array.from({ length: 2 * READINGS_PER_ITEM + 1 }, (_, i) => ({
      timestamp: day(3) + i * 1_000,
      values: { co2: i },
    }));
    const items = readingItems('dev-1', readings, 1);
    expect(items.map((item) => item.rs!.length)).toEqual([READINGS_PER_ITEM, READINGS_PER_ITEM, 1]);
    expect(items.map((item) => item.ts)).toEqual([day(3), day(3) + READINGS_PER_ITEM * 1_000, day(3) + 120_000]);
  });

  it('writes each item only where none is, and merges a batch sent again into the item at its key', async () => {
    const first = day(3) + 10;
    foundAtKey({
      pk: 'dev-1#2026-11-03',
      ts: first,
      rs: [
        { t: first, v: { co2: 1 } },
        { t: first + 1, v: { co2: 2 } },
      ],
      rcv: 50,
    });
    await store.write(
      'dev-1',
      [
        { timestamp: first, values: { co2: 10 } },
        { timestamp: first + 2, values: { co2: 30 } },
      ],
      60,
    );
    const puts = dynamo.commandCalls(PutCommand).map((call) => call.args[0].input);
    expect(puts[0]).toMatchObject({ ConditionExpression: 'attribute_not_exists(ts)' });
    // Nothing the earlier batch stored is lost; the later received copy of `first` stands.
    expect(puts[1]).toMatchObject({
      ConditionExpression: 'attribute_not_exists(ver)',
      Item: {
        ts: first,
        ver: 1,
        rcv: 60,
        rs: [
          { t: first, v: { co2: 10 } },
          { t: first + 1, v: { co2: 2 } },
          { t: first + 2, v: { co2: 30 } },
        ],
      },
    });
  });

  it('keeps the later received copy when an older batch arrives last', async () => {
    const first = day(3) + 10;
    foundAtKey({ pk: 'dev-1#2026-11-03', ts: first, rs: [{ t: first, v: { co2: 1 } }], rcv: 80, ver: 2 });
    await store.write('dev-1', [{ timestamp: first, values: { co2: 10 } }], 60);
    expect(dynamo.commandCalls(PutCommand)[1]!.args[0].input).toMatchObject({
      ConditionExpression: 'ver = :ver',
      ExpressionAttributeValues: { ':ver': 2 },
      Item: { ver: 3, rcv: 80, rs: [{ t: first, v: { co2: 1 } }] },
    });
  });

  it('merges again when another writer changed the item in between, and refuses with 503 when it never settles', async () => {
    const first = day(3) + 10;
    dynamo
      .on(PutCommand)
      .rejects(conditionFailed())
      .on(GetCommand)
      .resolves({ Item: { pk: 'dev-1#2026-11-03', ts: first, rs: [{ t: first, v: { co2: 1 } }], rcv: 1, ver: 1 } });
    await expect(store.write('dev-1', [{ timestamp: first + 5, values: { co2: 10 } }], 60)).rejects.toMatchObject({
      status: 503,
    });
    expect(dynamo.commandCalls(GetCommand)).toHaveLength(8);
  });

  it('reads newest first day by day, within the range, one copy per timestamp, and stops at the limit', async () => {
    dynamo.on(QueryCommand).callsFake((input) => {
      const pk = input.ExpressionAttributeValues[':pk'] as string;
      const items = pk.endsWith('2026-11-05')
        ? [
            // A batch sent again later with another value for +2, and an item of the format before batches.
            { ts: day(5) + 2, rs: [{ t: day(5) + 2, v: { a: 20 } }], rcv: 9 },
            {
              ts: day(5) + 1,
              rs: [
                { t: day(5) + 1, v: { a: 1 } },
                { t: day(5) + 2, v: { a: 2 } },
              ],
              rcv: 5,
            },
            { ts: day(5), v: { a: 0 }, rcv: 1 },
          ]
        : [{ ts: day(4) + 9, rs: [{ t: day(4) + 9, v: { a: -1 } }], rcv: 1 }];
      return { Items: items };
    });
    const readings = await store.query('dev-1', { from: day(3) + 10, to: day(5) + 100, limit: 4 });
    expect(readings).toEqual([
      { timestamp: day(5) + 2, values: { a: 20 } },
      { timestamp: day(5) + 1, values: { a: 1 } },
      { timestamp: day(5), values: { a: 0 } },
      { timestamp: day(4) + 9, values: { a: -1 } },
    ]);
    const inputs = dynamo.commandCalls(QueryCommand).map((c) => c.args[0].input);
    // The one reading still wanted after the first day is looked for in the days left side by side (see below).
    expect(inputs.map((i) => i.ExpressionAttributeValues![':pk'])).toEqual([
      'dev-1#2026-11-05',
      'dev-1#2026-11-04',
      'dev-1#2026-11-03',
    ]);
    expect(inputs[0]).toMatchObject({
      ScanIndexForward: false,
      Limit: 4,
      ExpressionAttributeValues: { ':from': day(5), ':to': day(5) + 100 },
    });
  });

  it('reads the days left side by side once few readings are still wanted, and keeps their order', async () => {
    let inFlight = 0;
    let most = 0;
    dynamo.on(QueryCommand).callsFake(async (input) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight -= 1;
      const pk = input.ExpressionAttributeValues[':pk'] as string;
      // The newest day holds all but one of the page, then nine empty days, then one reading eleven days back.
      if (pk.endsWith('2026-11-20')) {
        return {
          Items: Array.from({ length: 5 }, (_, i) => ({
            ts: day(20) + 100 - i,
            rs: [{ t: day(20) + 100 - i, v: { a: i } }],
          })),
        };
      }
      if (pk.endsWith('2026-11-09')) return { Items: [{ ts: day(9) + 7, rs: [{ t: day(9) + 7, v: { a: 9 } }] }] };
      return { Items: [] };
    });
    const readings = await store.query('dev-1', { from: day(1), to: day(20) + 100, limit: 6 });
    expect(readings.map((r) => r.timestamp)).toEqual([...[100, 99, 98, 97, 96].map((t) => day(20) + t), day(9) + 7]);
    const pks = dynamo.commandCalls(QueryCommand).map((c) => c.args[0].input.ExpressionAttributeValues![':pk']);
    // One day alone while many are wanted, then eight at a time for the one more: 2026-11-19 … 12, then 11 … 04.
    expect(pks).toEqual(
      [20, ...Array.from({ length: 16 }, (_, i) => 19 - i)].map((d) => `dev-1#2026-11-${String(d).padStart(2, '0')}`),
    );
    expect(most).toBe(8);
    // Each day read for the one reading still wanted.
    expect(dynamo.commandCalls(QueryCommand)[1]!.args[0].input.Limit).toBe(1);
  });

  it('reads from the start of `from`’s hour, where an item may begin, and leaves out its readings before `from`', async () => {
    dynamo.on(QueryCommand).resolves({
      Items: [
        {
          ts: day(5) + HOUR,
          rs: [
            { t: day(5) + HOUR, v: { a: 1 } },
            { t: day(5) + HOUR + 60_000, v: { a: 2 } },
          ],
          rcv: 1,
        },
      ],
    });
    const readings = await store.query('dev-1', {
      from: day(5) + HOUR + 30_000,
      to: day(5) + 2 * HOUR,
      order: 'asc',
      limit: 10,
    });
    expect(readings).toEqual([{ timestamp: day(5) + HOUR + 60_000, values: { a: 2 } }]);
    expect(dynamo.commandCalls(QueryCommand)[0]!.args[0].input.ExpressionAttributeValues).toMatchObject({
      ':from': day(5) + HOUR,
    });
  });

  it('answers nothing for an empty or reversed range without reading', async () => {
    expect(await store.query('dev-1', { from: day(5), to: day(4), limit: 10 })).toEqual([]);
    expect(dynamo.commandCalls(QueryCommand)).toHaveLength(0);
  });

  it('scans oldest first across days and pages, an hour at a time, an hour split over pages whole', async () => {
    dynamo
      .on(QueryCommand)
      .resolvesOnce({
        Items: [{ ts: day(3) + 1, rs: [{ t: day(3) + 1, v: {} }], rcv: 1 }],
        LastEvaluatedKey: { pk: 'x', ts: 1 },
      })
      .resolvesOnce({
        Items: [
          { ts: day(3) + 2, rs: [{ t: day(3) + 2, v: {} }], rcv: 1 },
          { ts: day(3) + HOUR, rs: [{ t: day(3) + HOUR, v: {} }], rcv: 1 },
        ],
      })
      .resolves({ Items: [{ ts: day(4) + 1, v: {}, rcv: 1 }] });
    const seen: number[][] = [];
    for await (const chunk of store.scan('dev-1', { from: day(3), to: day(4) + 5 }))
      seen.push(chunk.map((r) => r.timestamp));
    expect(seen).toEqual([[day(3) + 1, day(3) + 2], [day(3) + HOUR], [day(4) + 1]]);
  });
});
