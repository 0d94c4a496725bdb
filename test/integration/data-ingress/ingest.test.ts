import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { MAX_CLOCK_SKEW_MS } from '../../../shared/sensor-data/measurements';
import { wellInsideDay } from '../../support/clock';
import {
  chartObject,
  connectDevice,
  eventually,
  freshDevice,
  storedReadings,
  type TestDevice,
} from '../../support/sensor-data';
import { apiAs, apiRejection, areaUrl, documentClient, sqsClient, stack, tokenOf } from '../../support/stack';

/**
 * Data ingress through its real entry points, against the emulators: HTTPS through the local gateway with a
 * device credential, and MQTT through the broker and its rule bridge; then the roll-ups the worker computes
 * from the sensor-data queue, in the rollups table and the chart-data bucket.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ingressAs = (device: TestDevice) => apiAs('data-ingress', device.credential);
const day = (time: number) => new Date(time).toISOString().slice(0, 10);

const statsOf = async (deviceId: string, time = Date.now()) =>
  (
    await documentClient().send(
      new GetCommand({ TableName: stack().tables.ingestStats!, Key: { deviceId, day: day(time) } }),
    )
  ).Item ?? {};

const deviceRecord = async (deviceId: string) =>
  (await documentClient().send(new GetCommand({ TableName: stack().tables.devices!, Key: { id: deviceId } }))).Item!;

const rollup = async (deviceId: string, resolution: 'hour' | 'day', ts: number) =>
  (
    await documentClient().send(
      new GetCommand({ TableName: stack().tables.rollups!, Key: { pk: `${deviceId}#${resolution}`, ts } }),
    )
  ).Item;

// Readings of the last minutes are read back from "today's" partition and counts: no test runs across midnight.
beforeEach(() => wellInsideDay(2 * 60_000), 3 * 60_000);

describe('HTTPS ingest', () => {
  it('stores good readings, names each refused one, and counts both per device and day', async () => {
    const device = await freshDevice();
    const now = Date.now();
    const result = await ingressAs(device).ingestReadings({
      body: {
        readings: [
          { timestamp: now - 60_000, values: { pm2_5: 4.5, co2: 420 } },
          { timestamp: new Date(now - 30_000).toISOString(), values: { pm2_5: 5, soil_moisture: 31 } },
          { timestamp: now + MAX_CLOCK_SKEW_MS + 60_000, values: { pm2_5: 1 } },
          { timestamp: Math.floor(now / 1000), values: { pm2_5: 1 } },
          { timestamp: now - 10_000, values: { humidity: 140 } },
          { timestamp: now - 5_000, values: { pm2_5: 'high' } },
        ],
        units: { soil_moisture: '%vol' },
      },
    });
    expect(result.accepted).toBe(2);
    expect(result.rejected.map((r) => [r.index, r.reason])).toEqual([
      [2, 'future'],
      [3, 'too-old'],
      [4, 'out-of-range'],
      [5, 'malformed'],
    ]);
    expect(result.rejected[3]!.message).toMatch(/pm2_5/);

    const stored = await storedReadings(device.id, now);
    expect(stored.map((r) => r.ts).sort()).toEqual([now - 60_000, now - 30_000]);
    expect(await statsOf(device.id)).toMatchObject({
      accepted: 2,
      future: 1,
      'too-old': 1,
      'out-of-range': 1,
      malformed: 1,
    });

    const record = await deviceRecord(device.id);
    expect(record.lastSeen).toBe(now - 30_000);
    expect([...(record.measurementNames as Set<string>)].sort()).toEqual(['co2', 'pm2_5', 'soil_moisture']);
    expect(record.measurementUnits).toEqual({ soil_moisture: '%vol' });
  });

  it('answers 400 with every reason when nothing was stored, and still counts the refusals', async () => {
    const device = await freshDevice();
    const refused = await apiRejection(
      ingressAs(device).ingestReadings({ body: { readings: [{ timestamp: 1_000, values: { co2: 1 } }] } }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.issues).toEqual([{ path: 'body.readings.0', message: expect.stringMatching(/^too-old: /) }]);
    expect(await statsOf(device.id)).toMatchObject({ 'too-old': 1 });
    expect((await deviceRecord(device.id)).lastSeen).toBeUndefined();
  });

  it('refuses a bad envelope whole: too many readings, or none', async () => {
    const device = await freshDevice();
    const many = Array.from({ length: 501 }, (_, i) => ({ timestamp: Date.now() - i, values: { co2: 400 } }));
    expect((await apiRejection(ingressAs(device).ingestReadings({ body: { readings: many } }))).status).toBe(400);
    expect((await apiRejection(ingressAs(device).ingestReadings({ body: { readings: [] } }))).status).toBe(400);
  });

  it('stores a resent batch once, and lastSeen never moves back for an older batch', async () => {
    const device = await freshDevice();
    const now = Date.now();
    const batch = {
      readings: Array.from({ length: 50 }, (_, i) => ({ timestamp: now - i * 1_000, values: { co2: 400 + i } })),
    };
    await ingressAs(device).ingestReadings({ body: batch });
    await ingressAs(device).ingestReadings({ body: batch });
    const stored = await storedReadings(device.id, now);
    expect(stored.filter((r) => r.ts > now - 50_000)).toHaveLength(
      batch.readings.filter((r) => day(r.timestamp) === day(now)).length,
    );
    // Sent twice, stored once: the count says what arrived, the table what is kept.
    expect((await statsOf(device.id)).accepted).toBe(100);

    await ingressAs(device).ingestReadings({ body: { readings: [{ timestamp: now - DAY, values: { co2: 1 } }] } });
    expect((await deviceRecord(device.id)).lastSeen).toBe(now);
  });

  it('takes a backfill of old readings, rolled up into hours, days and the chart-data objects', async () => {
    const device = await freshDevice();
    // Three readings in one hour ten days ago, one in the next hour, one on the next day. 10:00 UTC, whatever the
    // time of the run, so the next hour is on the same day (a run at 23:xx once put it on the next).
    const hour = Math.floor((Date.now() - 10 * DAY) / DAY) * DAY + 10 * HOUR;
    const result = await ingressAs(device).ingestReadings({
      body: {
        readings: [
          { timestamp: hour + 1_000, values: { pm2_5: 2, temperature: 20 } },
          { timestamp: hour + 2_000, values: { pm2_5: 4 } },
          { timestamp: hour + 3_000, values: { pm2_5: 9 } },
          { timestamp: hour + HOUR + 5, values: { pm2_5: 1 } },
          { timestamp: hour + DAY, values: { temperature: 30 } },
        ],
      },
    });
    expect(result.accepted).toBe(5);

    const first = await eventually(() => rollup(device.id, 'hour', hour));
    expect(first.m).toEqual({ pm2_5: { n: 3, s: 15, lo: 2, hi: 9 }, temperature: { n: 1, s: 20, lo: 20, hi: 20 } });
    const dayStart = Math.floor(hour / DAY) * DAY;
    const dayRollup = await eventually(async () => {
      const item = await rollup(device.id, 'day', dayStart);
      return item && (item.m.pm2_5?.n ?? 0) >= 4 ? item : undefined;
    });
    expect(dayRollup.m.pm2_5.lo).toBe(1);
    expect(dayRollup.m.pm2_5.hi).toBe(9);

    const month = new Date(hour).toISOString().slice(0, 7);
    const hourly = await eventually(async () => {
      const object = await chartObject(device.id, 'hour', month);
      return object?.t.includes(hour) ? object : undefined;
    });
    const i = hourly.t.indexOf(hour);
    expect(hourly).toMatchObject({ deviceId: device.id, resolution: 'hour', period: month });
    expect([hourly.m.pm2_5!.min[i], hourly.m.pm2_5!.max[i], hourly.m.pm2_5!.mean[i], hourly.m.pm2_5!.count[i]]).toEqual(
      [2, 9, 5, 3],
    );
    // temperature has no value in the next hour: null there, not 0.
    expect(hourly.m.temperature!.mean[hourly.t.indexOf(hour + HOUR)]).toBeNull();

    const yearly = await eventually(async () => {
      const object = await chartObject(device.id, 'day', new Date(hour).toISOString().slice(0, 4));
      return object?.t.includes(dayStart) ? object : undefined;
    });
    expect(yearly.m.pm2_5!.max[yearly.t.indexOf(dayStart)]).toBe(9);
  });

  it('keeps a day and its month whole when all its hours arrive at once', async () => {
    const { Attributes } = await sqsClient().send(
      new GetQueueAttributesCommand({ QueueUrl: stack().queues.sensorData!, AttributeNames: ['FifoQueue'] }),
    );
    expect(Attributes?.FifoQueue).toBe('true');
    const device = await freshDevice();
    const dayStart = Math.floor((Date.now() - 20 * DAY) / DAY) * DAY;
    const hours = Array.from({ length: 24 }, (_, i) => dayStart + i * HOUR);
    // A day of batches sent side by side: a roll-up message each, for one device. Its FIFO group keeps the
    // recomputes apart (the poller test in local-stack.test.ts shows a group is never worked twice at once);
    // here every hour must end up in the day and the month.
    await Promise.all(
      hours.map((hour, i) =>
        ingressAs(device).ingestReadings({ body: { readings: [{ timestamp: hour + 60_000, values: { pm10: i } }] } }),
      ),
    );
    const whole = await eventually(async () => {
      const item = await rollup(device.id, 'day', dayStart);
      return item?.m.pm10?.n === hours.length ? item : undefined;
    });
    expect(whole.m.pm10).toEqual({ n: 24, s: 276, lo: 0, hi: 23 });
    const hourly = await eventually(async () => {
      const object = await chartObject(device.id, 'hour', new Date(dayStart).toISOString().slice(0, 7));
      return hours.every((hour) => object?.t.includes(hour)) ? object : undefined;
    });
    expect(hours.map((hour) => hourly.m.pm10!.mean[hourly.t.indexOf(hour)])).toEqual(hours.map((_, i) => i));
  });

  it("refuses a person's token, a missing and a forged credential with 401, and a retired device", async () => {
    const device = await freshDevice();
    const body = { readings: [{ timestamp: Date.now(), values: { co2: 400 } }] };
    const asPerson = await apiRejection(
      apiAs('data-ingress', await tokenOf('admin@example.com')).ingestReadings({ body }),
    );
    expect(asPerson.status).toBe(401);
    expect((await apiRejection(apiAs('data-ingress').ingestReadings({ body }))).status).toBe(401);
    const forged = `${device.credential.slice(0, -4)}AAAA`;
    expect((await apiRejection(apiAs('data-ingress', forged).ingestReadings({ body }))).status).toBe(401);

    // Retiring revokes the credentials; the instance's credential cache may still know this one, so the
    // device record's state refuses it at once either way.
    await ingressAs(device).ingestReadings({ body });
    await apiAs('devices', device.ownerToken).retire({ params: { id: device.id } });
    const retired = await fetch(`${areaUrl('data-ingress')}/readings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${device.credential}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect([401, 403]).toContain(retired.status);
  });
});

describe('MQTT ingest', () => {
  it('stores a batch published on the device topic through the same checks, counting refusals', async () => {
    const device = await freshDevice();
    const client = await connectDevice(device);
    try {
      const now = Date.now();
      await client.publishAsync(
        `devices/${device.id}/readings`,
        JSON.stringify({
          readings: [
            { timestamp: now - 2_000, values: { co2: 500 } },
            { timestamp: now - 1_000, values: { co2: -5 } },
          ],
        }),
        { qos: 1 },
      );
      const stored = await eventually(async () => {
        const items = await storedReadings(device.id, now);
        return items.length ? items : undefined;
      });
      expect(stored.map((r) => [r.ts, r.v])).toEqual([[now - 2_000, { co2: 500 }]]);
      const stats = await eventually(async () => {
        const item = await statsOf(device.id, now);
        return item['out-of-range'] ? item : undefined;
      });
      expect(stats).toMatchObject({ accepted: 1, 'out-of-range': 1 });
      expect((await deviceRecord(device.id)).lastSeen).toBe(now - 2_000);
      await eventually(() => rollup(device.id, 'hour', Math.floor((now - 2_000) / HOUR) * HOUR));
    } finally {
      await client.endAsync();
    }
  });
});
