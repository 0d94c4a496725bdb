import type { LiveMessage } from '../../../../shared/contracts/sensor-data-live';
import { LiveMessage as LiveMessageSchema } from '../../../../shared/contracts/sensor-data-live';

/** How many recent readings the live panel lists. */
export const LIVE_LIST_LENGTH = 10;

/** Renew a watch this long before it ends. */
export const RENEW_BEFORE_MS = 5 * 60_000;

export type LiveReading = LiveMessage['readings'][number];

/** A live message's readings, or undefined for anything else on the topic. */
export const parseLiveMessage = (payload: string, deviceId: string): LiveReading[] | undefined => {
  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch {
    return undefined;
  }
  const parsed = LiveMessageSchema.safeParse(json);
  return parsed.success && parsed.data.deviceId === deviceId ? parsed.data.readings : undefined;
};

/** The newest readings first, each timestamp once, at most `LIVE_LIST_LENGTH`. */
export const mergeRecent = (recent: readonly LiveReading[], arrived: readonly LiveReading[]): LiveReading[] => {
  const byTime = new Map<number, LiveReading>();
  for (const reading of [...recent, ...arrived]) byTime.set(reading.timestamp, reading);
  return [...byTime.values()].sort((a, b) => b.timestamp - a.timestamp).slice(0, LIVE_LIST_LENGTH);
};

/** The latest value of each measurement across the readings, with the time it was measured. */
export const latestValues = (readings: readonly LiveReading[]): Map<string, { value: number; timestamp: number }> => {
  const latest = new Map<string, { value: number; timestamp: number }>();
  for (const reading of [...readings].sort((a, b) => a.timestamp - b.timestamp)) {
    for (const [name, value] of Object.entries(reading.values))
      latest.set(name, { value, timestamp: reading.timestamp });
  }
  return latest;
};

/** When to renew a watch that ends at `expiresAt` (never sooner than 10 s from now). */
export const renewDelay = (expiresAt: number, now: number): number =>
  Math.max(10_000, expiresAt - RENEW_BEFORE_MS - now);
