import type { SQSClient } from '@aws-sdk/client-sqs';
import { type DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createSensorDataSender } from '../../functions/_shared/sensor-data/queue-messages';
import { createReadingsStore, type StoredReading } from '../../functions/_shared/sensor-data/readings-store';
import type { TierId } from '../../shared/sensor-data/tiers';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** How much history the demo devices start with, and how dense (the first start of a data directory). */
export const DEMO_HISTORY_DAYS = 14;
export const DEMO_READING_INTERVAL_MS = 10 * 60 * 1000;

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

/**
 * Gives the demo devices two weeks of readings, their tiers, and asks the sensor-data worker for their roll-ups
 * and chart data, as ingest would. Runs on the first start of a data directory, with the demo accounts.
 */
export const seedDemoReadings = async ({
  db,
  sqs,
  tables,
  sensorDataQueueUrl,
  now = Date.now(),
}: {
  db: DynamoDBDocumentClient;
  sqs: SQSClient;
  tables: Record<string, string>;
  sensorDataQueueUrl: string;
  now?: number;
}) => {
  const readings = createReadingsStore({ db, tableName: tables.readings! });
  const work = createSensorDataSender({ sqs, queueUrl: sensorDataQueueUrl });
  const end = Math.floor(now / DEMO_READING_INTERVAL_MS) * DEMO_READING_INTERVAL_MS;
  for (const { deviceId, tier, profile } of DEMO_SENSOR_DATA) {
    const series: StoredReading[] = [];
    for (let t = end - DEMO_HISTORY_DAYS * DAY; t <= end; t += DEMO_READING_INTERVAL_MS)
      series.push(demoReading(profile, t));
    await readings.write(deviceId, series, now);
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
    const hours = [...new Set(series.map((r) => Math.floor(r.timestamp / HOUR) * HOUR))];
    await work.send([{ kind: 'rollup', deviceId, hours }]);
  }
};
