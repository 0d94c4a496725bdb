import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { jest } from '@jest/globals';
import { createTable } from '../table-indexes';
import { levelIterators, startDynamoDb } from './dynamodb';
import { LOCAL_CREDENTIALS } from './listen';

describe('the dynalite emulator under many reads', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'dynalite-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('closes the LevelDB iterator of every Query and Scan, whole or stopped early (issue 19: they stayed open)', async () => {
    const emulator = await startDynamoDb({ dataDir, port: 0 });
    try {
      const dynamo = new DynamoDBClient({
        region: 'us-west-2',
        endpoint: emulator.url,
        credentials: LOCAL_CREDENTIALS,
      });
      const db = DynamoDBDocumentClient.from(dynamo);
      await createTable(
        dynamo,
        new CreateTableCommand({
          TableName: 'readings',
          KeySchema: [
            { AttributeName: 'pk', KeyType: 'HASH' },
            { AttributeName: 'ts', KeyType: 'RANGE' },
          ],
          AttributeDefinitions: [
            { AttributeName: 'pk', AttributeType: 'S' },
            { AttributeName: 'ts', AttributeType: 'N' },
          ],
          BillingMode: 'PAY_PER_REQUEST',
        }),
        'readings',
      );
      await db.send(
        new BatchWriteCommand({
          RequestItems: {
            readings: Array.from({ length: 25 }, (_, i) => ({ PutRequest: { Item: { pk: 'd1', ts: i, v: i } } })),
          },
        }),
      );
      // Counted on the class dynalite's read iterators come from (its values streams).
      const closed = jest.spyOn(levelIterators.AbstractValueIterator.prototype, 'close');
      const reads = 40;
      for (let i = 0; i < reads; i++) {
        const page = await db.send(
          new QueryCommand({
            TableName: 'readings',
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': 'd1' },
            // Half stop early at a limit, half read the partition to its end.
            ...(i % 2 ? { Limit: 5 } : {}),
          }),
        );
        expect(page.Items).toHaveLength(i % 2 ? 5 : 25);
      }
      await db.send(new ScanCommand({ TableName: 'readings', Limit: 3 }));
      await new Promise((resolve) => setTimeout(resolve, 50));
      // Every read's iterator (and the table look-ups' own) closed: none left holding items and a snapshot.
      expect(closed.mock.calls.length).toBeGreaterThanOrEqual(reads + 1);
      closed.mockRestore();
    } finally {
      await emulator.stop();
    }
  });
});
