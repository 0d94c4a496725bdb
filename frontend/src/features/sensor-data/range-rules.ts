import type { DataSummary } from '../../../../shared/contracts/sensor-data-readings';
import { DAY_MS, unlockingTier, WINDOW_SLACK_MS } from '../../../../shared/sensor-data/tiers';
import { tierInWords } from '../../../../shared/text/product-words';

/** The range picker's choices: the last 24 hours, 7 days, 30 days, a year, or a custom from/to. */
export type RangePreset = '24h' | '7d' | '30d' | '1y' | 'custom';

export const PRESETS: { id: Exclude<RangePreset, 'custom'>; label: string; days: number }[] = [
  { id: '24h', label: 'Last 24 h', days: 1 },
  { id: '7d', label: '7 days', days: 7 },
  { id: '30d', label: '30 days', days: 30 },
  { id: '1y', label: '1 year', days: 365 },
];

export interface ChartRange {
  from: number;
  to: number;
}

/** A preset's range ending now. */
export const presetRange = (preset: Exclude<RangePreset, 'custom'>, now: number): ChartRange => {
  const days = PRESETS.find((p) => p.id === preset)!.days;
  return { from: now - days * DAY_MS, to: now };
};

/** How much the chart shows either side of a moment a link names (an alert's `?at=`). */
export const AROUND_MS = 3 * 60 * 60 * 1000;

/** The range around a moment (`/dashboard/devices/{id}?at={ms}`): three hours either side, never past now. */
export const rangeAround = (at: number, now: number): ChartRange => ({
  from: Math.min(at, now) - AROUND_MS,
  to: Math.min(at + AROUND_MS, now),
});

/** `<input type="datetime-local">` text (local time) to ms, undefined when empty or invalid. */
export const parseLocal = (text: string): number | undefined => {
  if (!text) return undefined;
  const ms = new Date(text).getTime();
  return Number.isFinite(ms) ? ms : undefined;
};

/** ms to `<input type="datetime-local">` text in local time, to the minute. */
export const formatLocal = (ms: number): string => {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

/** A custom from/to typed into the range fields, or the message saying what is wrong with it. */
export const customRange = (custom: { from: string; to: string }): ChartRange | string => {
  const from = parseLocal(custom.from);
  const to = parseLocal(custom.to);
  if (from === undefined || to === undefined) return 'Choose both a start and an end';
  if (from >= to) return 'The start must be before the end';
  return { from, to };
};

/**
 * Why a range cannot be charted under the device's tier, and which tier would chart it ("Tier 2 unlocks 365 days"),
 * or undefined when the range lies inside the view window. A minute of slack, as the API allows.
 */
export const lockedMessage = (
  summary: Pick<DataSummary, 'tier' | 'windows' | 'tiers'>,
  range: ChartRange,
  now: number,
): string | undefined => {
  const days = summary.windows.view.days;
  if (days === null) return `${tierInWords(summary.tier.name, true)} does not include charts`;
  if (range.from >= now - days * DAY_MS - WINDOW_SLACK_MS) return undefined;
  // The range was computed a moment ago: "30 days" needs a 30-day tier, not a 31-day one.
  const needed = Math.ceil((now - range.from - WINDOW_SLACK_MS) / DAY_MS);
  // The line's tiers as the API says they are now: administrators change what each unlocks without a deploy.
  const unlock = unlockingTier(summary.tiers, (f) => f.historicalDataAccessDays >= needed);
  const shown = `${tierInWords(summary.tier.name, true)} shows the last ${days} days`;
  return unlock
    ? `${shown}. ${unlock.name} unlocks ${unlock.features.historicalDataAccessDays} days.`
    : `${shown}; no tier of this product line reaches that far back.`;
};

/**
 * The part of a range this viewer may chart: a range reaching back past the tier's view window starts at the
 * window instead, so the panel charts what may be seen beside lockedMessage's "Tier 2 unlocks 365 days" rather
 * than an empty 403. A range wholly before the window stays as asked (the API's 403 then says why).
 */
export const viewableRange = (
  summary: Pick<DataSummary, 'windows'> | undefined,
  range: ChartRange,
  now: number,
): ChartRange => {
  const days = summary?.windows.view.days;
  if (days === null || days === undefined) return range;
  const start = now - days * DAY_MS;
  if (range.from >= start - WINDOW_SLACK_MS || range.to <= start) return range;
  return { from: start, to: range.to };
};

/** What a purpose's window says in the summary: "7 days", or "not included". */
export const windowText = (days: number | null): string =>
  days === null ? 'not included' : days === 1 ? '1 day' : `${days} days`;
