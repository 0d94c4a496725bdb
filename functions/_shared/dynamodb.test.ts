import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DynamoDBDocumentClient,
  QueryCommand,
  ScanCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { batchGetAll, batchGetWithLeftovers, batchWriteAll, deletePartition, queryPage, scanPage } from './dynamodb';

describe('batchGetAll', () => {
  const dynamo = mockClient(DynamoDBDocumentClient);
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-west-2' }));
  beforeEach(() => dynamo.reset());
  afterAll(() => dynamo.restore());

  it('reads each id once, at most 100 keys a request side by side, consistently, and retries what is left unprocessed', async () => {
    const ids = [...Array.from({ length: 150 }, (_, i) => `id-${i}`), 'id-0', 'id-1'];
    dynamo
      .on(BatchGetCommand)
      .resolvesOnce({ Responses: { t: [{ id: 'id-0' }] }, UnprocessedKeys: { t: { Keys: [{ id: 'id-1' }] } } })
      .resolves({ Responses: { t: [{ id: 'other' }] } });

    const items = await batchGetAll(db, 't', ids);

    const requests = dynamo.commandCalls(BatchGetCommand).map((call) => call.args[0].input.RequestItems!.t!);
    // Both requests go out before the retry, which waits for its back-off.
    expect(requests.map((r) => r.Keys!.length)).toEqual([100, 50, 1]);
    expect(requests[2]!.Keys).toEqual([{ id: 'id-1' }]);
    expect(requests.every((r) => r.ConsistentRead)).toBe(true);
    expect(new Set(requests.flatMap((r) => r.Keys!.map((k) => k.id))).size).toBe(150);
    expect(items).toHaveLength(3);
  });
});

describe('batchGetWithLeftovers', () => {
  const dynamo = mockClient(DynamoDBDocumentClient);
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-west-2' }));
  beforeEach(() => dynamo.reset());
  afterAll(() => dynamo.restore());

  it('answers the keys still unprocessed after its rounds (batchGetKeys throws for them)', async () => {
    dynamo
      .on(BatchGetCommand)
      .resolvesOnce({ Responses: { a: [{ id: 'x' }] }, UnprocessedKeys: { b: { Keys: [{ pk: 'p', ts: 1 }] } } })
      .resolves({ Responses: {}, UnprocessedKeys: { b: { Keys: [{ pk: 'p', ts: 1 }] } } });
    const request = { a: { Keys: [{ id: 'x' }] }, b: { Keys: [{ pk: 'p', ts: 1 }], ConsistentRead: true } };
    const { found, unprocessed } = await batchGetWithLeftovers(db, request, { rounds: 2 });
    expect(dynamo.commandCalls(BatchGetCommand)).toHaveLength(2);
    // The retry asks again only for what was left, with its table's own read settings.
    expect(dynamo.commandCalls(BatchGetCommand)[1]!.args[0].input.RequestItems).toEqual({
      b: { Keys: [{ pk: 'p', ts: 1 }], ConsistentRead: true },
    });
    expect(found.get('a')).toEqual([{ id: 'x' }]);
    expect(unprocessed).toEqual(new Map([['b', [{ pk: 'p', ts: 1 }]]]));
  });
});

describe('batchWriteAll', () => {
  const dynamo = mockClient(DynamoDBDocumentClient);
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-west-2' }));
  beforeEach(() => dynamo.reset());
  afterAll(() => dynamo.restore());
  const puts = (n: number) => Array.from({ length: n }, (_, i) => ({ PutRequest: { Item: { id: `id-${i}` } } }));

  it('writes 25 a request and retries exactly what is left unprocessed', async () => {
    const left = puts(2);
    dynamo
      .on(BatchWriteCommand)
      .resolvesOnce({ UnprocessedItems: { t: left } })
      .resolves({});
    await batchWriteAll(db, 't', puts(60), { concurrency: 1 });
    const sizes = dynamo.commandCalls(BatchWriteCommand).map((call) => call.args[0].input.RequestItems!.t!.length);
    expect(sizes).toEqual([25, 2, 25, 10]);
  });

  it('throws when items stay unprocessed, so nothing is reported written that was not', async () => {
    dynamo.on(BatchWriteCommand).resolves({ UnprocessedItems: { t: puts(1) } });
    await expect(batchWriteAll(db, 't', puts(1))).rejects.toThrow(/left items unprocessed/);
  }, 20_000);
});

describe('queryPage and scanPage', () => {
  const dynamo = mockClient(DynamoDBDocumentClient);
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-west-2' }));
  beforeEach(() => dynamo.reset());
  afterAll(() => dynamo.restore());

  const query = { TableName: 't', KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'a' } };

  it('continue from the key given, read at most the limit, and answer the items and where the page stopped', async () => {
    dynamo.on(QueryCommand).resolves({ Items: [{ pk: 'a', n: 2 }], LastEvaluatedKey: { pk: 'a', n: 2 } });
    const page = await queryPage(db, query, { limit: 1, startKey: { pk: 'a', n: 1 } }, (item) => item.n);
    expect(page).toEqual({ items: [2], lastKey: { pk: 'a', n: 2 } });
    expect(dynamo.commandCalls(QueryCommand)[0]!.args[0].input).toEqual({
      ...query,
      Limit: 1,
      ExclusiveStartKey: { pk: 'a', n: 1 },
    });
  });

  it('send neither a limit nor a start key they were not given (a first page, ended by DynamoDB at 1 MB)', async () => {
    dynamo.on(ScanCommand).resolves({});
    expect(await scanPage(db, { TableName: 't', ConsistentRead: true })).toEqual({ items: [], lastKey: undefined });
    expect(dynamo.commandCalls(ScanCommand)[0]!.args[0].input).toEqual({ TableName: 't', ConsistentRead: true });
  });
});

describe('deletePartition', () => {
  const dynamo = mockClient(DynamoDBDocumentClient);
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-west-2' }));
  beforeEach(() => dynamo.reset());
  afterAll(() => dynamo.restore());

  it("reads the partition's keys under the prefix page by page, consistently, and deletes them all by batches", async () => {
    const keys = Array.from({ length: 30 }, (_, i) => ({ webhookId: 'wh_1', sk: `p#d-${i}` }));
    dynamo
      .on(QueryCommand)
      .resolvesOnce({ Items: keys.slice(0, 20), LastEvaluatedKey: keys[19] })
      .resolvesOnce({ Items: keys.slice(20) });
    dynamo.on(BatchWriteCommand).resolves({});

    const count = await deletePartition(db, {
      tableName: 't',
      partition: ['webhookId', 'wh_1'],
      sortKey: 'sk',
      prefix: 'p#',
    });

    const queries = dynamo.commandCalls(QueryCommand).map((call) => call.args[0].input);
    expect(queries[0]).toMatchObject({
      TableName: 't',
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
      ExpressionAttributeNames: { '#pk': 'webhookId', '#sk': 'sk' },
      ExpressionAttributeValues: { ':pk': 'wh_1', ':prefix': 'p#' },
      ProjectionExpression: '#pk, #sk',
      ConsistentRead: true,
    });
    expect(queries[1]!.ExclusiveStartKey).toEqual(keys[19]);
    const deleted = dynamo
      .commandCalls(BatchWriteCommand)
      .flatMap((call) => call.args[0].input.RequestItems!.t!.map((request) => request.DeleteRequest!.Key));
    expect({ count, deleted }).toEqual({ count: 30, deleted: keys });
  });

  it('without a prefix, reads the whole partition', async () => {
    dynamo.on(QueryCommand).resolves({ Items: [] });
    expect(await deletePartition(db, { tableName: 't', partition: ['webhookId', 'wh_1'], sortKey: 'sk' })).toBe(0);
    const [query] = dynamo.commandCalls(QueryCommand).map((call) => call.args[0].input);
    expect(query).toMatchObject({ KeyConditionExpression: '#pk = :pk', ExpressionAttributeValues: { ':pk': 'wh_1' } });
    expect(dynamo.commandCalls(BatchWriteCommand)).toHaveLength(0);
  });
});
