import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchWriteAll } from '../dynamodb';

/** One stored reading: the device's timestamp (ms) and its measurements. */
export interface StoredReading {
  timestamp: number;
  values: Record<string, number>;
}

/** `YYYY-MM-DD` (UTC) of a time in ms: the readings table's day partition. */
export const dayOf = (time: number): string => new Date(time).toISOString().slice(0, 10);

const DAY = 24 * 60 * 60 * 1000;

type Key = Record<string, unknown>;
const startOfDay = (time: number): number => Math.floor(time / DAY) * DAY;

export const readingsKey = (deviceId: string, time: number) => ({ pk: `${deviceId}#${dayOf(time)}`, ts: time });

export interface ReadingsQuery {
  from: number;
  to: number;
  /** @default 'desc' (newest first) */
  order?: 'asc' | 'desc';
  /** At most this many readings. */
  limit: number;
}

/**
 * The readings table (docs/sensor-data.md): a partition per device and UTC day, sorted by timestamp. A reading's
 * key is (device, timestamp): writing one again replaces it with itself, so resends and backfills never store
 * a reading twice.
 */
export const createReadingsStore = ({ db, tableName }: { db: DynamoDBDocumentClient; tableName: string }) => {
  /** One page of one day's readings in `[from, to]` (clipped to the day by the caller). */
  const queryPage = async (
    deviceId: string,
    day: number,
    {
      from,
      to,
      order,
      limit,
      startKey,
      consistent,
    }: { from: number; to: number; order: 'asc' | 'desc'; limit?: number; startKey?: Key; consistent?: boolean },
  ) => {
    const result = await db.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND ts BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': `${deviceId}#${dayOf(day)}`, ':from': from, ':to': to },
        ProjectionExpression: 'ts, v',
        ScanIndexForward: order === 'asc',
        Limit: limit,
        ExclusiveStartKey: startKey,
        ConsistentRead: consistent,
      }),
    );
    const readings: StoredReading[] = (result.Items ?? []).map((item) => ({
      timestamp: item.ts as number,
      values: item.v as Record<string, number>,
    }));
    return { readings, next: result.LastEvaluatedKey };
  };

  const dayRange = (day: number, from: number, to: number) => ({
    from: Math.max(from, day),
    to: Math.min(to, day + DAY - 1),
  });

  return {
    /** Writes readings (any number, any devices' days) in batches; the same (device, timestamp) is one item. */
    write: async (deviceId: string, readings: readonly StoredReading[], receivedAt: number): Promise<void> => {
      // Within one batch the last reading of a timestamp wins, as it would across batches; BatchWriteItem
      // refuses two requests for one key.
      const byTime = new Map(readings.map((reading) => [reading.timestamp, reading]));
      await batchWriteAll(
        db,
        tableName,
        [...byTime.values()].map((reading) => ({
          PutRequest: {
            Item: { ...readingsKey(deviceId, reading.timestamp), v: reading.values, rcv: receivedAt },
          },
        })),
        { concurrency: 8 },
      );
    },

    /** Readings in `[from, to]` (ms, both included), newest first unless asked otherwise, day by day. */
    query: async (deviceId: string, { from, to, order = 'desc', limit }: ReadingsQuery): Promise<StoredReading[]> => {
      const items: StoredReading[] = [];
      if (to < from || limit <= 0) return items;
      const first = startOfDay(from);
      const last = startOfDay(to);
      for (
        let day = order === 'desc' ? last : first;
        order === 'desc' ? day >= first : day <= last;
        day += order === 'desc' ? -DAY : DAY
      ) {
        let startKey: Key | undefined;
        do {
          const page = await queryPage(deviceId, day, {
            ...dayRange(day, from, to),
            order,
            limit: Math.min(limit - items.length, 1_000),
            startKey,
          });
          items.push(...page.readings);
          startKey = page.next;
        } while (startKey && items.length < limit);
        if (items.length >= limit) break;
      }
      return items;
    },

    /**
     * Every reading in `[from, to]`, oldest first, in chunks (exports and roll-ups walk ranges this way). `consistent`:
     * every write that completed before the scan is in it (a roll-up that tells later messages they are done).
     */
    scan: async function* (
      deviceId: string,
      { from, to, consistent }: { from: number; to: number; consistent?: boolean },
    ) {
      for (let day = startOfDay(from); day <= startOfDay(to); day += DAY) {
        let startKey: Key | undefined;
        do {
          const page = await queryPage(deviceId, day, {
            ...dayRange(day, from, to),
            order: 'asc',
            startKey,
            consistent,
          });
          if (page.readings.length) yield page.readings;
          startKey = page.next;
        } while (startKey);
      }
    },
  };
};

export type ReadingsStore = ReturnType<typeof createReadingsStore>;
