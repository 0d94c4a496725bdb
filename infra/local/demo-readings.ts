import type { SQSClient } from '@aws-sdk/client-sqs';
import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { flagReadings } from '../../functions/_shared/sensor-data/quality-flags';
import { createSensorDataSender } from '../../functions/_shared/sensor-data/queue-messages';
import { createReadingsStore, type StoredReading } from '../../functions/_shared/sensor-data/readings-store';
import type { TierId } from '../../shared/sensor-data/tiers';
import { seedDemoCalibration, withDemoFlaws } from './demo-quality';
import {
  createDemoSignal,
  type DemoProfile,
  localHour,
  machineUtcOffsetMinutes,
  round,
  seededRandom,
} from './demo-shapes';
import type { DeviceLink, SilenceSchedule } from './demo-simulator';

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

/**
 * A smoggy morning (an inversion holding the rush hour's particles) five to six days before the first start: the
 * rooftop station's PM2.5 rises smoothly to about 22 µg/m³ at 08:00 local time and stays over 15 for more than an
 * hour and a half. The demo's PM2.5 rule (over 15 for 30 minutes) has then fired and resolved in its week of history
 * whatever the day and hour the demo starts: an ordinary morning peaks near 15, and whether one holds over it for 30
 * minutes depended on the start (docs/alerts.md, "Demo data"). Clear of the outage, the stuck run and the spike.
 */
export const DEMO_SMOG = {
  deviceId: 'demo-device-1',
  /** The morning is the one whose `peakHour` falls in `[end − daysBeforeEnd, end − daysBeforeEnd + 1 day)`. */
  daysBeforeEnd: 6,
  peakHour: 8,
  /** PM2.5 is at least `base + rise · e^(−Δh² / 2w²)`, Δh the hours from the peak and w `widthHours`. */
  base: 6,
  rise: 16,
  widthHours: 0.8,
} as const;

/** The smog morning's peak: the local `peakHour` o'clock in the day `daysBeforeEnd` before `end`. */
export const smogPeakOf = (end: number, utcOffsetMinutes: number): number => {
  const dayStart = end - DEMO_SMOG.daysBeforeEnd * DAY;
  const hoursToPeak = (((DEMO_SMOG.peakHour - localHour(dayStart, utcOffsetMinutes)) % 24) + 24) % 24;
  return dayStart + Math.round(hoursToPeak * HOUR);
};

/** PM2.5 (and PM10 with it) raised to the smog morning's floor where the readings were under it. */
const withSmogMorning = (series: readonly StoredReading[], end: number, utcOffsetMinutes: number): StoredReading[] => {
  const peak = smogPeakOf(end, utcOffsetMinutes);
  return series.map((reading) => {
    const { pm2_5, pm10 } = reading.values;
    const hours = (reading.timestamp - peak) / HOUR;
    if (pm2_5 === undefined || Math.abs(hours) > 4) return reading;
    const floor = round(
      DEMO_SMOG.base + DEMO_SMOG.rise * Math.exp(-(hours * hours) / (2 * DEMO_SMOG.widthHours ** 2)),
      1,
    );
    if (floor <= pm2_5) return reading;
    // The coarse particles rise with the fine ones, so PM10 stays the larger.
    const values: Record<string, number> = { ...reading.values, pm2_5: floor };
    if (pm10 !== undefined) values.pm10 = Math.max(pm10, round((pm10 * floor) / Math.max(pm2_5, 0.1), 1));
    return { ...reading, values };
  });
};

export interface DemoSensorData {
  deviceId: string;
  /** The tier its subscription record gives it. */
  tier: TierId;
  profile: DemoProfile;
  /** How it sends while `npm start` runs (infra/local/demo-simulator.ts). */
  link: DeviceLink['kind'];
  /** When it says nothing, so a person sees a device fall silent and come back. */
  silence?: SilenceSchedule;
}

/**
 * The demo devices' data: which measurements each sends, its tier, and how it reports while the stack runs. The
 * rooftop station posts over HTTPS (a Wi-Fi station); the lake buoy publishes over MQTT (a cellular modem) and loses
 * its link for 20 minutes every 3 hours, at 01:40, 04:40, … UTC.
 */
export const DEMO_SENSOR_DATA: readonly DemoSensorData[] = [
  { deviceId: 'demo-device-1', tier: 'tier2', profile: 'air', link: 'https' },
  {
    deviceId: 'demo-device-2',
    tier: 'tier1',
    profile: 'water',
    link: 'mqtt',
    silence: { everyMs: 3 * HOUR, lengthMs: 20 * 60_000, offsetMs: HOUR + 40 * 60_000 },
  },
];

/** The seeded history's noise: the same for a device on every first start. */
const seedOf = (deviceId: string) => [...deviceId].reduce((hash, c) => (hash * 31 + c.charCodeAt(0)) | 0, 7);

interface DemoDeps {
  db: DynamoDBDocumentClient;
  sqs: SQSClient;
  tables: Record<string, string>;
  sensorDataQueueUrl: string;
  now?: number;
  /** Who made the demo calibration (the rooftop station's owner's id); absent: no calibration is seeded. */
  calibratedBy?: string;
}

/** Readings every DEMO_READING_INTERVAL_MS in `(after, end]`, on the interval's grid, none from `silentFrom` for the outage. */
const demoSeries = (
  { deviceId, profile }: Pick<DemoSensorData, 'deviceId' | 'profile'>,
  after: number,
  end: number,
  silentFrom = Number.NaN,
  utcOffsetMinutes = machineUtcOffsetMinutes(end),
): StoredReading[] => {
  const signal = createDemoSignal(profile, utcOffsetMinutes, seededRandom(seedOf(deviceId)));
  const series: StoredReading[] = [];
  const first = (Math.floor(after / DEMO_READING_INTERVAL_MS) + 1) * DEMO_READING_INTERVAL_MS;
  for (let t = first; t <= end; t += DEMO_READING_INTERVAL_MS) {
    if (t >= silentFrom && t < silentFrom + DEMO_OUTAGE.lengthMs) continue;
    series.push(signal(t));
  }
  return series;
};

/**
 * A demo device's seeded history up to `end` (on the reading grid): DEMO_HISTORY_DAYS of its signal, with the outage,
 * the smog morning and the quality flaws where they are its, flagged as ingest flags.
 */
export const demoHistory = (
  device: Pick<DemoSensorData, 'deviceId' | 'profile'>,
  end: number,
  utcOffsetMinutes = machineUtcOffsetMinutes(end),
): StoredReading[] => {
  const { deviceId } = device;
  const outage = deviceId === DEMO_OUTAGE.deviceId ? end - DEMO_OUTAGE.beforeEndMs : undefined;
  const series = demoSeries(device, end - DEMO_HISTORY_DAYS * DAY - 1, end, outage, utcOffsetMinutes);
  return withDemoFlaws(
    deviceId,
    deviceId === DEMO_SMOG.deviceId ? withSmogMorning(series, end, utcOffsetMinutes) : series,
    end,
  );
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
  const { db, tables, now = Date.now(), calibratedBy } = deps;
  const end = Math.floor(now / DEMO_READING_INTERVAL_MS) * DEMO_READING_INTERVAL_MS;
  if (calibratedBy) await seedDemoCalibration({ db, tables, calibratedBy }, end);
  for (const device of DEMO_SENSOR_DATA) {
    const { deviceId, tier } = device;
    const series = demoHistory(device, end);
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
 * `until` (now, or where the simulator's own backfill through ingest takes over), so "Last 24 h" is never empty on a
 * demo kept for days. A retired or deleted demo device gets nothing.
 */
export const topUpDemoReadings = async (
  deps: DemoDeps,
  devices: readonly Pick<DemoSensorData, 'deviceId' | 'profile'>[] = DEMO_SENSOR_DATA,
  until = deps.now ?? Date.now(),
) => {
  const { db, tables, now = Date.now() } = deps;
  const readings = createReadingsStore({ db, tableName: tables.readings! });
  const end = Math.floor(until / DEMO_READING_INTERVAL_MS) * DEMO_READING_INTERVAL_MS;
  for (const sensor of devices) {
    const { deviceId } = sensor;
    const { Item: device } = await db.send(new GetCommand({ TableName: tables.devices, Key: { id: deviceId } }));
    if (!device || device.state === 'retired') continue;
    const from = end - DEMO_HISTORY_DAYS * DAY;
    const [newest] = await readings.query(deviceId, { from, to: now, order: 'desc', limit: 1 });
    await store(deps, deviceId, flagReadings(demoSeries(sensor, newest?.timestamp ?? from, end)).readings, now);
  }
};
