/**
 * The chart-data files (docs/sensor-data.md, "Roll-ups and chart data"): where each lies in the chart-data bucket and
 * which period it covers. The sensor-data area writes and reads them; the system area lists, rebuilds and evicts
 * them (docs/system.md, "Cache files"), so both spell a key the same way.
 */

/** The two roll-up resolutions the chart-data objects hold. */
export type ChartResolution = 'hour' | 'day';

export const HOUR_MS = 60 * 60 * 1000;
export const DAY_MS = 24 * HOUR_MS;

export const hourStart = (time: number): number => Math.floor(time / HOUR_MS) * HOUR_MS;
export const dayStart = (time: number): number => Math.floor(time / DAY_MS) * DAY_MS;

/** The distinct hour starts (UTC) of some timestamps, ascending: the hours a roll-up message lists. */
export const hoursOf = (times: Iterable<number>): number[] =>
  [...new Set([...times].map(hourStart))].sort((a, b) => a - b);

export const bucketSize = (resolution: ChartResolution): number => (resolution === 'hour' ? HOUR_MS : DAY_MS);

/** The period (object) a bucket start falls in. */
export const periodOf = (resolution: ChartResolution, time: number): string =>
  new Date(time).toISOString().slice(0, resolution === 'hour' ? 7 : 4);

/** The first and last ms of a period. */
export const periodRange = (period: string): { from: number; to: number } => {
  const [year, month] = period.split('-').map(Number) as [number, number | undefined];
  if (month === undefined) return { from: Date.UTC(year, 0, 1), to: Date.UTC(year + 1, 0, 1) - 1 };
  return { from: Date.UTC(year, month - 1, 1), to: Date.UTC(year, month, 1) - 1 };
};

/** Every period of a resolution that overlaps `[fromMs, toMs]`, oldest first. */
export const periodsBetween = (resolution: ChartResolution, fromMs: number, toMs: number): string[] => {
  const periods: string[] = [];
  if (toMs < fromMs) return periods;
  let cursor = periodRange(periodOf(resolution, fromMs)).from;
  while (cursor <= toMs) {
    const period = periodOf(resolution, cursor);
    periods.push(period);
    cursor = periodRange(period).to + 1;
  }
  return periods;
};

/** Every chart-data file of a device lies under this prefix. */
export const chartFilesPrefix = (deviceId: string): string => `charts/${deviceId}/`;

export const chartObjectKey = (deviceId: string, resolution: ChartResolution, period: string): string =>
  `${chartFilesPrefix(deviceId)}${resolution}/${period}.json`;

const KEY = /^charts\/([^/]+)\/(hour|day)\/(\d{4}(?:-\d{2})?)\.json$/;

/** The device, resolution and period of a chart-data key; undefined for any other key. */
export const parseChartObjectKey = (
  key: string,
): { deviceId: string; resolution: ChartResolution; period: string } | undefined => {
  const match = KEY.exec(key);
  if (!match) return undefined;
  const [, deviceId, resolution, period] = match as unknown as [string, string, ChartResolution, string];
  // An hour file covers a month (YYYY-MM), a day file a year (YYYY).
  if ((resolution === 'hour') !== (period.length === 7)) return undefined;
  return { deviceId, resolution, period };
};
