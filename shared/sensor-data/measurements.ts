import * as z from 'zod';
import { ownValue } from '../objects/own-value';

/**
 * What a reading measures. Devices may send any name that fits {@link MeasurementName}: names in the
 * catalogue get their unit, label and plausible range from it; other names are stored and charted as sent
 * (with the unit the batch declares, if any), so a new sensor needs no code change.
 */
export interface MeasurementInfo {
  label: string;
  unit: string;
  /** Physically possible values; a reading outside them is refused as out of range. */
  min: number;
  max: number;
}

export const MEASUREMENTS: Record<string, MeasurementInfo> = {
  pm1: { label: 'PM1', unit: 'µg/m³', min: 0, max: 10_000 },
  pm2_5: { label: 'PM2.5', unit: 'µg/m³', min: 0, max: 10_000 },
  pm10: { label: 'PM10', unit: 'µg/m³', min: 0, max: 10_000 },
  temperature: { label: 'Temperature', unit: '°C', min: -90, max: 100 },
  humidity: { label: 'Relative humidity', unit: '%', min: 0, max: 100 },
  pressure: { label: 'Pressure', unit: 'hPa', min: 300, max: 1_100 },
  co2: { label: 'CO₂', unit: 'ppm', min: 0, max: 40_000 },
  voc: { label: 'VOC index', unit: 'index', min: 0, max: 500 },
  no2: { label: 'NO₂', unit: 'ppb', min: 0, max: 10_000 },
  o3: { label: 'O₃', unit: 'ppb', min: 0, max: 10_000 },
  battery: { label: 'Battery', unit: '%', min: 0, max: 100 },
  rssi: { label: 'Signal (RSSI)', unit: 'dBm', min: -150, max: 0 },
};

export const MeasurementName = z
  .string({ error: 'Measurement name must be text' })
  .regex(
    /^[a-z][a-z0-9_]{0,39}$/,
    'Measurement names are 1 to 40 lower-case letters, digits and _, starting with a letter',
  );

export const Unit = z
  .string({ error: 'Unit must be text' })
  .min(1, 'Unit cannot be empty')
  .max(16, 'Unit is at most 16 characters')
  .regex(/^[^\p{Cc}<>]+$/u, 'Unit may not contain control characters or < >');

/** The unit shown for a measurement: the catalogue's, else the one the device declared. */
export const unitOf = (name: string, declared?: Record<string, string>): string | undefined =>
  ownValue(MEASUREMENTS, name)?.unit ?? (declared ? ownValue(declared, name) : undefined);

export const labelOf = (name: string): string => ownValue(MEASUREMENTS, name)?.label ?? name;

/** At most this many readings per HTTPS batch or MQTT message. */
export const MAX_BATCH_READINGS = 500;
/** At most this many measurements in one reading. */
export const MAX_MEASUREMENTS_PER_READING = 32;
/** A device clock may run this far ahead of ours; later timestamps are refused as from the future. */
export const MAX_CLOCK_SKEW_MS = 5 * 60 * 1000;
/** Readings before this are refused as too old (no device of ours predates it): 2015-01-01T00:00:00Z. */
export const EARLIEST_READING_MS = Date.UTC(2015, 0, 1);
