import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { DAY_MS, dayStart, hourStart } from '../../../shared/sensor-data/chart-files';
import type { QualityReason } from '../../../shared/sensor-data/quality';
import { isConditionFailure, queryPage } from '../dynamodb';
import { ServiceUnavailable } from '../errors';
import { inLanes } from '../in-lanes';
import { eachPage } from '../paging';

/**
 * One stored reading: the device's timestamp (ms), its measurements (raw, as the device sent them: nothing ever
 * changes them) and, for the values ingest's checks flagged, their reasons (docs/data-quality.md).
 */
export interface StoredReading {
  timestamp: number;
  values: Record<string, number>;
  flags?: Record<string, QualityReason[]>;
}

/** `YYYY-MM-DD` (UTC) of a time in ms: the readings table's day partition. */
export const dayOf = (time: number): string => new Date(time).toISOString().slice(0, 10);

type Key = Record<string, unknown>;

/**
 * Readings one item holds at most: a minute of a once-a-second device. With every measurement that is about 40 KB,
 * far under DynamoDB's 400 KB, and it bounds what a merge rewrites.
 */
export const READINGS_PER_ITEM = 60;
/**
 * Tries of a merge before the write fails (and the batch is sent again). A try fails only when another writer of the
 * same item succeeded since it read the item, so n writers at once need at most n tries.
 */
const MERGE_TRIES = 8;
/** Readings still wanted at or below which a query reads the days left side by side (see `query`). */
const PROBE_REMAINING = 10;
/** Days a query reads side by side once few readings are still wanted. */
const PROBE_DAYS = 8;
const WRITE_LANES = 8;

export const READINGS_MESSAGES = {
  busy: 'The readings could not be stored just now; please send them again',
};

/**
 * An item of the readings table: the readings of one batch within one UTC hour (`rs`), keyed by the first one's
 * timestamp. `v` is the format before 2026-11-28, one reading an item, still read.
 */
export type ReadingsItem = {
  pk: string;
  ts: number;
  /** `q`: the reasons of the reading's flagged values (absent when every value is good). */
  rs?: { t: number; v: Record<string, number>; q?: Record<string, QualityReason[]> }[];
  v?: Record<string, number>;
  /** When the batch was received (ms): of two copies of a reading, the later one's values stand. */
  rcv?: number;
  /** Rewrites of the item (merges), for the next merge's condition. */
  ver?: number;
};

/** The readings an item holds, in either format. */
export const readingsOf = (item: ReadingsItem): StoredReading[] =>
  item.rs
    ? item.rs.map(({ t, v, q }) => (q ? { timestamp: t, values: v, flags: q } : { timestamp: t, values: v }))
    : item.v
      ? [{ timestamp: item.ts, values: item.v }]
      : [];

/** The items a batch is stored as: sorted, one timestamp once (the last wins), split by UTC hour and size. */
export const readingItems = (
  deviceId: string,
  readings: readonly StoredReading[],
  receivedAt: number,
): ReadingsItem[] => {
  const byTime = new Map(readings.map((reading) => [reading.timestamp, reading]));
  const sorted = [...byTime.values()].sort((a, b) => a.timestamp - b.timestamp);
  const items: ReadingsItem[] = [];
  let current: StoredReading[] = [];
  const close = () => {
    if (current.length === 0) return;
    const first = current[0]!.timestamp;
    items.push({
      pk: `${deviceId}#${dayOf(first)}`,
      ts: first,
      rs: current.map(({ timestamp, values, flags }) =>
        flags && Object.keys(flags).length > 0 ? { t: timestamp, v: values, q: flags } : { t: timestamp, v: values },
      ),
      rcv: receivedAt,
    });
    current = [];
  };
  for (const reading of sorted) {
    const full = current.length === READINGS_PER_ITEM;
    if (full || (current.length > 0 && hourStart(reading.timestamp) !== hourStart(current[0]!.timestamp))) close();
    current.push(reading);
  }
  close();
  return items;
};

export interface ReadingsQuery {
  from: number;
  to: number;
  /** @default 'desc' (newest first) */
  order?: 'asc' | 'desc';
  /** At most this many readings. */
  limit: number;
}

/**
 * The readings table (docs/sensor-data.md, docs/decisions/044-readings-by-the-batch.md): a partition per device and
 * UTC day, an item per batch and hour, sorted by its first reading's timestamp. A timestamp's reading is one reading
 * however often it is sent: a batch sent again lands on its own items, and the reader keeps one copy of each
 * timestamp (the last received), so resends and backfills never show a reading twice.
 */
export const createReadingsStore = ({ db, tableName }: { db: DynamoDBDocumentClient; tableName: string }) => {
  /**
   * Writes one item, or merges it into the item already at its key (a batch sent again with more or other
   * readings): a conditional put, so nothing a concurrent writer stored is lost.
   */
  const putItem = async (deviceId: string, item: ReadingsItem): Promise<void> => {
    for (let attempt = 0; attempt < MERGE_TRIES; attempt += 1) {
      try {
        await db.send(
          new PutCommand({ TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(ts)' }),
        );
        return;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
      const existing = (
        await db.send(new GetCommand({ TableName: tableName, Key: { pk: item.pk, ts: item.ts }, ConsistentRead: true }))
      ).Item as ReadingsItem | undefined;
      if (!existing) continue;
      // Of two copies of a timestamp the later received stands, as when each reading was its own item.
      const newer = (item.rcv ?? 0) >= (existing.rcv ?? 0);
      const [under, over] = newer ? [existing, item] : [item, existing];
      const [merged, ...overflow] = readingItems(
        deviceId,
        [...readingsOf(under), ...readingsOf(over)],
        Math.max(item.rcv ?? 0, existing.rcv ?? 0),
      );
      try {
        await db.send(
          new PutCommand({
            TableName: tableName,
            Item: { ...merged, ver: (existing.ver ?? 0) + 1 },
            ...(existing.ver === undefined
              ? { ConditionExpression: 'attribute_not_exists(ver)' }
              : { ConditionExpression: 'ver = :ver', ExpressionAttributeValues: { ':ver': existing.ver } }),
          }),
        );
      } catch (error) {
        if (isConditionFailure(error)) continue;
        throw error;
      }
      for (const rest of overflow) await putItem(deviceId, rest);
      return;
    }
    throw new ServiceUnavailable(READINGS_MESSAGES.busy);
  };

  /** One page of one day's items that may hold readings in `[from, to]` (clipped to the day by the caller). */
  const dayPage = (
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
  ) =>
    queryPage<ReadingsItem>(
      db,
      {
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND ts BETWEEN :from AND :to',
        // An item starting earlier in `from`'s hour may hold readings from `from` on; items never span two hours.
        ExpressionAttributeValues: { ':pk': `${deviceId}#${dayOf(day)}`, ':from': hourStart(from), ':to': to },
        ProjectionExpression: 'ts, rs, v, rcv',
        ScanIndexForward: order === 'asc',
        ...(consistent === undefined ? {} : { ConsistentRead: consistent }),
      },
      { limit, startKey },
    );

  /**
   * The readings in `[from, to]` an hour at a time, in `order`, one copy of each timestamp. An hour is complete once
   * the query has moved past its items, which sort together. `pageSize`: items to ask for next (the readings still
   * wanted; each item holds at least one).
   */
  const hours = async function* (
    deviceId: string,
    { from, to, order, consistent }: { from: number; to: number; order: 'asc' | 'desc'; consistent?: boolean },
    pageSize: () => number | undefined,
  ): AsyncGenerator<StoredReading[]> {
    const first = dayStart(from);
    const last = dayStart(to);
    for (
      let day = order === 'desc' ? last : first;
      order === 'desc' ? day >= first : day <= last;
      day += order === 'desc' ? -DAY_MS : DAY_MS
    ) {
      let copies = new Map<number, { reading: StoredReading; rcv: number }>();
      let hour: number | undefined;
      const complete = (): StoredReading[] => {
        const readings = [...copies]
          .filter(([timestamp]) => timestamp >= from && timestamp <= to)
          .map(([, { reading }]) => reading)
          .sort((a, b) => (order === 'asc' ? a.timestamp - b.timestamp : b.timestamp - a.timestamp));
        copies = new Map();
        return readings;
      };
      const pages = eachPage((startKey) => {
        const size = pageSize();
        return dayPage(deviceId, day, {
          from: Math.max(from, day),
          to: Math.min(to, day + DAY_MS - 1),
          order,
          limit: size === undefined ? undefined : Math.min(Math.max(size, 1), 1_000),
          startKey,
          consistent,
        });
      });
      for await (const items of pages) {
        for (const item of items) {
          if (hour !== undefined && hourStart(item.ts) !== hour) {
            const readings = complete();
            if (readings.length) yield readings;
          }
          hour = hourStart(item.ts);
          const rcv = item.rcv ?? 0;
          for (const reading of readingsOf(item)) {
            const seen = copies.get(reading.timestamp);
            if (!seen || rcv >= seen.rcv) copies.set(reading.timestamp, { reading, rcv });
          }
        }
      }
      const readings = complete();
      if (readings.length) yield readings;
    }
  };

  return {
    /**
     * Writes readings (any number, any days) as items of a batch and hour; the same timestamp twice in a batch is
     * one reading, the last.
     */
    write: async (deviceId: string, readings: readonly StoredReading[], receivedAt: number): Promise<void> => {
      await inLanes(readingItems(deviceId, readings, receivedAt), WRITE_LANES, (item) => putItem(deviceId, item));
    },

    /**
     * Readings in `[from, to]` (ms, both included), newest first unless asked otherwise, day by day. Once only a few
     * are still wanted after the first day (a page's one more, read to learn whether another page follows), the days
     * left are read PROBE_DAYS at a time side by side, each for that few: a range of empty days costs a round trip per
     * PROBE_DAYS days, not one per day, for at most PROBE_DAYS × PROBE_REMAINING items read past what was needed.
     */
    query: async (deviceId: string, { from, to, order = 'desc', limit }: ReadingsQuery): Promise<StoredReading[]> => {
      const items: StoredReading[] = [];
      if (to < from || limit <= 0) return items;
      const days: { from: number; to: number }[] = [];
      for (let day = dayStart(from); day <= to; day += DAY_MS) {
        days.push({ from: Math.max(from, day), to: Math.min(to, day + DAY_MS - 1) });
      }
      if (order === 'desc') days.reverse();
      const readDay = async (range: { from: number; to: number }, wanted: number) => {
        const found: StoredReading[] = [];
        for await (const readings of hours(deviceId, { ...range, order }, () => wanted - found.length)) {
          found.push(...readings);
          if (found.length >= wanted) break;
        }
        return found;
      };
      for (let next = 0; next < days.length && items.length < limit; ) {
        const wanted = limit - items.length;
        const batch = days.slice(next, next + (next > 0 && wanted <= PROBE_REMAINING ? PROBE_DAYS : 1));
        next += batch.length;
        for (const found of await Promise.all(batch.map((range) => readDay(range, wanted)))) {
          items.push(...found);
          if (items.length >= limit) break;
        }
      }
      return items.slice(0, limit);
    },

    /**
     * Every reading in `[from, to]`, oldest first, an hour at a time (exports and roll-ups walk ranges this way).
     * `consistent`: every write that completed before the scan is in it (a roll-up that tells later messages they
     * are done).
     */
    scan: (deviceId: string, { from, to, consistent }: { from: number; to: number; consistent?: boolean }) =>
      hours(deviceId, { from, to, order: 'asc', consistent }, () => undefined),
  };
};

export type ReadingsStore = ReturnType<typeof createReadingsStore>;
