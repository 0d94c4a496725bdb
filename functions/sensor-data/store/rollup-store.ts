import { DeleteCommand, type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { batchGetKeys, queryPage, updateIf } from '../../_shared/dynamodb';
import { readAll } from '../../_shared/paging';
import { isEmpty, type RollupBucket, type RollupItem } from '../domain/rollups';
import type { RollupStore } from '../domain/rollups-recompute';
import type { ChartResolution } from './chart-data-store';

export const rollupKey = (deviceId: string, resolution: ChartResolution, ts: number) => ({
  pk: `${deviceId}#${resolution}`,
  ts,
});

/**
 * The rollups table: one item per device, resolution and bucket start, `m` = aggregates by measurement, with their
 * quality split, raw values, calibration versions and profile version where they have them (domain/rollups.ts).
 */
export const createRollupStore = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): RollupStore => ({
  /** Writes a recomputed bucket; a bucket without any value is removed so a recompute leaves no stale item. */
  put: async (deviceId: string, resolution: ChartResolution, ts: number, bucket: RollupBucket): Promise<void> => {
    if (isEmpty(bucket)) {
      await db.send(new DeleteCommand({ TableName: tableName, Key: rollupKey(deviceId, resolution, ts) }));
      return;
    }
    await db.send(
      new PutCommand({ TableName: tableName, Item: { ...rollupKey(deviceId, resolution, ts), ...bucket } }),
    );
  },

  /** Buckets starting in `[from, to]`, oldest first. */
  range: (deviceId: string, resolution: ChartResolution, from: number, to: number): Promise<RollupItem[]> =>
    readAll((startKey) =>
      queryPage(
        db,
        {
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND ts BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':pk': `${deviceId}#${resolution}`, ':from': from, ':to': to },
          // Reads what it just wrote (the day from its hours, the objects from both).
          ConsistentRead: true,
        },
        { startKey },
        ({ pk: _pk, doneAt: _doneAt, ...item }) => item as unknown as RollupItem,
      ),
    ),

  markDone: async (deviceId, hours, at) => {
    await Promise.all(
      hours.map((hour) =>
        // An hour without values has no bucket: the condition keeps the mark from creating an empty one.
        updateIf(db, {
          TableName: tableName,
          Key: rollupKey(deviceId, 'hour', hour),
          UpdateExpression: 'SET doneAt = :at',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':at': at },
        }),
      ),
    );
  },

  doneAt: async (deviceId, hours) => {
    if (hours.length === 0) return new Map();
    const found = await batchGetKeys(db, {
      [tableName]: {
        Keys: hours.map((hour) => rollupKey(deviceId, 'hour', hour)),
        ConsistentRead: true,
        ProjectionExpression: 'ts, doneAt',
      },
    });
    return new Map(
      (found.get(tableName) ?? [])
        .filter((item) => typeof item.doneAt === 'number')
        .map((item) => [item.ts as number, item.doneAt as number]),
    );
  },
});
