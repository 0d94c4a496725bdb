import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { flagReadings } from '../../functions/_shared/sensor-data/quality-flags';
import { PROFILE_SK } from '../../functions/_shared/sensor-data/quality-profile';
import type { StoredReading } from '../../functions/_shared/sensor-data/readings-store';
import { createQualityStore } from '../../functions/sensor-data/store/quality-store';
import { EPA_PURPLEAIR_PRESET } from '../../shared/sensor-data/calibration';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/**
 * What the demo shows of data quality (docs/data-quality.md "Demo data"): the rooftop station's seeded history has a
 * PM2.5 spike 2 days before the first start, PM2.5 stuck for 3 hours 4 days before it, and the EPA correction in force
 * from 10 days before it, so a newcomer sees a ring, stuck points and a corrected line.
 */
export const DEMO_QUALITY = {
  deviceId: 'demo-device-1',
  spikeBeforeEndMs: 2 * DAY,
  spikeValue: 280,
  stuckBeforeEndMs: 4 * DAY,
  stuckLengthMs: 3 * HOUR,
  stuckValue: 8,
  calibratedBeforeEndMs: 10 * DAY,
  calibrationId: 'cal_demo00000001',
} as const;

/**
 * The seeded history with the spike and the stuck period put in, flagged as ingest would have flagged it (the seed
 * writes to the readings table directly, not through ingest). Other devices' histories are only flagged.
 */
export const withDemoFlaws = (deviceId: string, series: readonly StoredReading[], end: number): StoredReading[] => {
  if (deviceId !== DEMO_QUALITY.deviceId) return flagReadings(series).readings;
  const spikeAt = end - DEMO_QUALITY.spikeBeforeEndMs;
  const stuckFrom = end - DEMO_QUALITY.stuckBeforeEndMs;
  const flawed = series.map((reading) => {
    if (reading.values.pm2_5 === undefined) return reading;
    if (reading.timestamp === spikeAt)
      return { ...reading, values: { ...reading.values, pm2_5: DEMO_QUALITY.spikeValue } };
    if (reading.timestamp >= stuckFrom && reading.timestamp < stuckFrom + DEMO_QUALITY.stuckLengthMs) {
      return { ...reading, values: { ...reading.values, pm2_5: DEMO_QUALITY.stuckValue } };
    }
    return reading;
  });
  return flagReadings(flawed).readings;
};

/**
 * The rooftop station's calibration (the EPA preset, version 1, made by its owner) and the profile that puts it in
 * force, written before its readings' roll-ups are asked for, so they are computed corrected (nothing pending).
 */
export const seedDemoCalibration = async (
  { db, tables, calibratedBy }: { db: DynamoDBDocumentClient; tables: Record<string, string>; calibratedBy: string },
  end: number,
) => {
  const store = createQualityStore({ db, tableName: tables.dataQuality! });
  const { deviceId, calibrationId: id } = DEMO_QUALITY;
  const effectiveFrom = end - DEMO_QUALITY.calibratedBeforeEndMs;
  const { formula, measurement, source } = EPA_PURPLEAIR_PRESET;
  await store.putCalibration({
    id,
    deviceId,
    measurement,
    version: 1,
    formula,
    effectiveFrom,
    note: 'Collocated with the city reference monitor for two weeks',
    source,
    createdBy: calibratedBy,
    created: end,
  });
  await store.saveProfile(
    { deviceId, sk: PROFILE_SK, version: 1, cal: { [measurement]: [{ v: 1, id, f: formula, from: effectiveFrom }] } },
    0,
  );
};
