import type { SQSClient } from '@aws-sdk/client-sqs';
import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createSensorDataSender } from '../../functions/_shared/sensor-data/queue-messages';
import { createReadingsStore, type StoredReading } from '../../functions/_shared/sensor-data/readings-store';
import type { TierId } from '../../shared/sensor-data/tiers';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/**
 * How much history the demo devices start with, and how dense (the first start of a data directory): more than
 * the 30 days their tiers show, so every range preset charts a full line.
 */
export const DEMO_HISTORY_DAYS = 35;
export const DEMO_READING_INTERVAL_MS = 10 * 60 * 1000;

/** The rooftop station was off for 6 hours three days before the first start: the charts show a real gap. */
export const DEMO_OUTAGE = { deviceId: 'demo-device-1', beforeEndMs: 3 * DAY, lengthMs: 6 * HOUR } as const;

/** The demo devices' data: which measurements each sends, and the tier its subscription record gives it. */
export const DEMO_SENSOR_DATA: readonly { deviceId: string; tier: TierId; profile: 'air' | 'water' }[] = [
  { deviceId: 'demo-device-1', tier: 'tier2', profile: 'air' },
  { deviceId: 'demo-device-2', tier: 'tier1', profile: 'water' },
];

/** A smooth day-night cycle with a little deterministic noise: charts look like a sensor's, tests can recompute it. */
const wave = (time: number, base: number, amplitude: number, noise: number, phase = 0) => {
  const day = Math.sin(((time % DAY) / DAY) * 2 * Math.PI + phase);
  const jitter = Math.sin(time / 7_919_000) * Math.cos(time / 3_137_000);
  return Math.round((base + amplitude * day + noise * jitter) * 10) / 10;
};

export const demoReading = (profile: 'air' | 'water', timestamp: number): StoredReading => ({
  timestamp,
  values:
    profile === 'air'
      ? {
          temperature: wave(timestamp, 14, 6, 1.5, -Math.PI / 2),
          humidity: wave(timestamp, 62, 15, 4, Math.PI / 2),
          pm2_5: Math.max(0, wave(timestamp, 9, 4, 5, 1)),
          pm10: Math.max(0, wave(timestamp, 16, 6, 7, 1)),
          co2: wave(timestamp, 430, 25, 15, 2),
        }
      : {
          temperature: wave(timestamp, 11, 1.5, 0.4, -Math.PI / 2),
          battery: Math.round(100 - ((timestamp / HOUR) % 240) / 4),
          rssi: wave(timestamp, -85, 4, 6),
        },
});

interface DemoDeps {
  db: DynamoDBDocumentClient;
  sqs: SQSClient;
  tables: Record<string, string>;
  sensorDataQueueUrl: string;
  now?: number;
}

/** Readings every DEMO_READING_INTERVAL_MS in `(after, end]`, on the interval's grid, none from `silentFrom` for the outage. */
const demoSeries = (profile: 'air' | 'water', after: number, end: number, silentFrom = Number.NaN): StoredReading[] => {
  const series: StoredReading[] = [];
  const first = (Math.floor(after / DEMO_READING_INTERVAL_MS) + 1) * DEMO_READING_INTERVAL_MS;
  for (let t = first; t <= end; t += DEMO_READING_INTERVAL_MS) {
    if (t >= silentFrom && t < silentFrom + DEMO_OUTAGE.lengthMs) continue;
    series.push(demoReading(profile, t));
  }
  return series;
};

/** Stores readings and asks the sensor-data worker for their hours' roll-ups and chart data, as ingest would. */
const store = async (
  { db, sqs, tables, sensorDataQueueUrl }: DemoDeps,
  deviceId: string,
  series: StoredReading[],
  now: number,
) => {
  if (series.length === 0) return;
  await createReadingsStore({ db, tableName: tables.readings! }).write(deviceId, series, now);
  const hours = [...new Set(series.map((r) => Math.floor(r.timestamp / HOUR) * HOUR))];
  await createSensorDataSender({ sqs, queueUrl: sensorDataQueueUrl }).send([{ kind: 'rollup', deviceId, hours }]);
};

/**
 * Gives the demo devices DEMO_HISTORY_DAYS of readings (with the outage), their tiers and measurement names.
 * Runs on the first start of a data directory, with the demo accounts.
 */
export const seedDemoReadings = async (deps: DemoDeps) => {
  const { db, tables, now = Date.now() } = deps;
  const end = Math.floor(now / DEMO_READING_INTERVAL_MS) * DEMO_READING_INTERVAL_MS;
  for (const { deviceId, tier, profile } of DEMO_SENSOR_DATA) {
    const outage = deviceId === DEMO_OUTAGE.deviceId ? end - DEMO_OUTAGE.beforeEndMs : undefined;
    const series = demoSeries(profile, end - DEMO_HISTORY_DAYS * DAY - 1, end, outage);
    await db.send(
      new PutCommand({
        TableName: tables.deviceSubscriptions,
        Item: { deviceId, tier, status: 'active', updated: now },
      }),
    );
    await db.send(
      new UpdateCommand({
        TableName: tables.devices,
        Key: { id: deviceId },
        UpdateExpression: 'ADD measurementNames :names',
        ExpressionAttributeValues: { ':names': new Set(Object.keys(series[0]!.values)) },
      }),
    );
    await store(deps, deviceId, series, now);
  }
};

/**
 * On a later start, fills each demo device's readings from its newest one (at most DEMO_HISTORY_DAYS back) up to
 * now, so "Last 24 h" is never empty on a demo kept for days. A retired or deleted demo device gets nothing.
 */
export const topUpDemoReadings = async (
  deps: DemoDeps,
  devices: readonly Pick<(typeof DEMO_SENSOR_DATA)[number], 'deviceId' | 'profile'>[] = DEMO_SENSOR_DATA,
) => {
  const { db, tables, now = Date.now() } = deps;
  const readings = createReadingsStore({ db, tableName: tables.readings! });
  const end = Math.floor(now / DEMO_READING_INTERVAL_MS) * DEMO_READING_INTERVAL_MS;
  for (const { deviceId, profile } of devices) {
    const { Item: device } = await db.send(new GetCommand({ TableName: tables.devices, Key: { id: deviceId } }));
    if (!device || device.state === 'retired') continue;
    const from = end - DEMO_HISTORY_DAYS * DAY;
    const [newest] = await readings.query(deviceId, { from, to: now, order: 'desc', limit: 1 });
    await store(deps, deviceId, demoSeries(profile, newest?.timestamp ?? from, end), now);
  }
};
