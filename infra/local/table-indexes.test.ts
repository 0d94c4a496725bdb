import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DescribeTableCommand, DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { TableDefinition } from '../../functions/_shared/tables';
import { startDynamoDb } from './emulators/dynamodb';
import { LOCAL_CREDENTIALS } from './emulators/listen';
import { addMissingIndexes, createTable, createTableInput, rebuildName } from './table-indexes';

const before: TableDefinition = {
  constructId: 'TargetsTable',
  area: 'code-releases',
  entity: 'targets',
  envVar: 'TARGETS_TABLE',
  partitionKey: { name: 'rolloutId', type: 'S' },
  sortKey: { name: 'deviceId', type: 'S' },
};
const after: TableDefinition = {
  ...before,
  indexes: [
    { name: 'progress', partitionKey: { name: 'rolloutId', type: 'S' }, sortKey: { name: 'progress', type: 'S' } },
  ],
};

describe('an index added to a table that exists on this machine (dynalite cannot add one)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'table-indexes-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('makes the table again with its indexes, every item kept, and finishes a rebuild a stopped start left', async () => {
    const emulator = await startDynamoDb({ dataDir, port: 0 });
    try {
      const dynamo = new DynamoDBClient({
        region: 'us-west-2',
        endpoint: emulator.url,
        credentials: LOCAL_CREDENTIALS,
      });
      const db = DynamoDBDocumentClient.from(dynamo);
      const items = Array.from({ length: 60 }, (_, i) => ({
        rolloutId: 'r1',
        deviceId: `d${String(i).padStart(2, '0')}`,
        progress: `00#${i % 2 ? 'failed' : 'succeeded'}#${i}`,
      }));
      const fill = async (table: string) => {
        for (let i = 0; i < items.length; i += 25) {
          await db.send(
            new BatchWriteCommand({
              RequestItems: { [table]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) },
            }),
          );
        }
      };
      // Active before it is filled: dynalite answers a create before the table is (under load, a write could come first).
      await createTable(dynamo, createTableInput('targets', before), 'targets');
      await fill('targets');

      expect(await addMissingIndexes(dynamo, 'targets', after)).toEqual(['progress']);
      const failed = await db.send(
        new QueryCommand({
          TableName: 'targets',
          IndexName: 'progress',
          KeyConditionExpression: 'rolloutId = :r AND begins_with(progress, :p)',
          ExpressionAttributeValues: { ':r': 'r1', ':p': '00#failed#' },
        }),
      );
      expect(failed.Items).toHaveLength(30);
      expect((await db.send(new ScanCommand({ TableName: 'targets' }))).Items).toHaveLength(60);
      expect((await dynamo.send(new ListTablesCommand({}))).TableNames).not.toContain(rebuildName('targets'));
      // Nothing to do the next time.
      expect(await addMissingIndexes(dynamo, 'targets', after)).toEqual([]);

      // A start that stopped after deleting the table: the copy aside is whole, and the table comes back from it.
      await createTable(
        dynamo,
        createTableInput(rebuildName('other'), before, { indexes: false }),
        rebuildName('other'),
      );
      await fill(rebuildName('other'));
      await addMissingIndexes(dynamo, 'other', after);
      const other = await dynamo.send(new DescribeTableCommand({ TableName: 'other' }));
      expect(other.Table?.GlobalSecondaryIndexes?.map((i) => i.IndexName)).toEqual(['progress']);
      expect((await db.send(new ScanCommand({ TableName: 'other' }))).Items).toHaveLength(60);
    } finally {
      await emulator.stop();
    }
  });
});
