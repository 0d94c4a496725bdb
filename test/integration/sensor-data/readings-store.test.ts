import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { createReadingsStore, READINGS_PER_ITEM } from '../../../functions/_shared/sensor-data/readings-store';
import { storedItems, storedReadings } from '../../support/sensor-data';
import { documentClient, stack } from '../../support/stack';

/**
 * The readings table against the emulator (docs/decisions/044-readings-by-the-batch.md): a batch an item per hour,
 * batches sent again and sent at once merged without losing a reading, and items of the format before batches read
 * beside the new ones. Times are fixed, away from today, so the clock does not matter.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
// 10:00:00 UTC on a fixed day: readings below stay inside that day.
const T0 = Date.UTC(2026, 5, 10, 10);

const store = () => createReadingsStore({ db: documentClient(), tableName: stack().tables.readings! });
const device = () => `dev-store-${randomUUID().slice(0, 12)}`;
const minutes = (from: number, count: number, value = (i: number) => i) =>
  Array.from({ length: count }, (_, i) => ({ timestamp: from + i * MINUTE, values: { co2: value(i) } }));

describe('the readings table', () => {
  it('stores a 10-minute batch as one item, and reads it back reading by reading', async () => {
    const id = device();
    await store().write(id, minutes(T0 + 5 * MINUTE, 10), T0 + 16 * MINUTE);
    expect(await storedItems(id, T0)).toHaveLength(1);
    const readings = await store().query(id, { from: T0, to: T0 + HOUR, order: 'asc', limit: 100 });
    expect(readings.map((r) => r.values.co2)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('loses nothing when batches that start at the same reading arrive at once, and keeps each reading once', async () => {
    const id = device();
    // Six retries of one device, each starting at T0 with other readings after it: they all land on one key.
    await Promise.all(
      Array.from({ length: 6 }, (_, k) =>
        store().write(
          id,
          [{ timestamp: T0, values: { co2: 1 } }, ...minutes(T0 + (1 + k * 5) * MINUTE, 5, (i) => 100 * k + i)],
          T0 + HOUR + k,
        ),
      ),
    );
    const readings = await store().query(id, { from: T0, to: T0 + HOUR - 1, order: 'asc', limit: 1_000 });
    expect(readings.map((r) => r.timestamp)).toEqual(minutes(T0, 31).map((r) => r.timestamp));
    expect(readings.slice(1, 6).map((r) => r.values.co2)).toEqual([0, 1, 2, 3, 4]);
    // Stored once, not only shown once.
    expect(await storedReadings(id, T0)).toHaveLength(31);
  });

  it('shows the later received copy of a reading sent again in another batch', async () => {
    const id = device();
    await store().write(id, minutes(T0, 10), T0 + 20 * MINUTE);
    await store().write(id, [{ timestamp: T0 + 4 * MINUTE, values: { co2: 44 } }], T0 + 30 * MINUTE);
    const readings = await store().query(id, { from: T0, to: T0 + HOUR, order: 'asc', limit: 100 });
    expect(readings).toHaveLength(10);
    expect(readings[4]).toEqual({ timestamp: T0 + 4 * MINUTE, values: { co2: 44 } });
  });

  it('splits a backfill at hours and at READINGS_PER_ITEM, and walks it back in order', async () => {
    const id = device();
    // Three hours of a reading every 30 s: 360 readings, newest first in the batch.
    const backfill = Array.from({ length: 360 }, (_, i) => ({
      timestamp: T0 + (359 - i) * 30_000,
      values: { co2: 359 - i },
    }));
    await store().write(id, backfill, T0 + 4 * HOUR);
    expect(await storedReadings(id, T0)).toHaveLength(360);
    const hours: number[][] = [];
    for await (const chunk of store().scan(id, { from: T0, to: T0 + 3 * HOUR - 1, consistent: true }))
      hours.push(chunk.map((r) => r.values.co2!));
    expect(hours.map((hour) => hour.length)).toEqual([120, 120, 120]);
    expect(hours.flat()).toEqual(Array.from({ length: 360 }, (_, i) => i));
    // An hour's 120 readings are two items of READINGS_PER_ITEM.
    expect(await storedItems(id, T0)).toHaveLength(3 * Math.ceil(120 / READINGS_PER_ITEM));
    const newest = await store().query(id, { from: T0, to: T0 + 2 * HOUR + 30 * MINUTE, limit: 3 });
    expect(newest.map((r) => r.values.co2)).toEqual([300, 299, 298]);
  });

  it('reads items of the format before batches beside new ones, one copy per timestamp', async () => {
    const id = device();
    const pk = `${id}#2026-06-10`;
    for (const [ts, co2] of [
      [T0 + MINUTE, 1],
      [T0 + 2 * MINUTE, 2],
    ] as const) {
      await documentClient().send(
        new PutCommand({ TableName: stack().tables.readings!, Item: { pk, ts, v: { co2 }, rcv: T0 } }),
      );
    }
    // Sent again after the change: the item at T0 + 1 min is an old one, merged into the batch's.
    await store().write(
      id,
      minutes(T0 + MINUTE, 3, (i) => 10 + i),
      T0 + HOUR,
    );
    const readings = await store().query(id, { from: T0, to: T0 + HOUR, order: 'asc', limit: 100 });
    expect(readings).toEqual([
      { timestamp: T0 + MINUTE, values: { co2: 10 } },
      { timestamp: T0 + 2 * MINUTE, values: { co2: 11 } },
      { timestamp: T0 + 3 * MINUTE, values: { co2: 12 } },
    ]);
  });
});
