/**
 * The rules of an alert's condition that both sides read (docs/alerts.md): the defaults a rule leaves out (the clear
 * level 10 % back from the limit, the clear duration equal to the fire duration, the silence learned from the
 * device's interval) and the bounds of each number. The API evaluates with them; the rule form shows them.
 */

export const SECOND_MS = 1_000;
export const MINUTE_MS = 60 * SECOND_MS;
export const DAY_MS = 24 * 60 * MINUTE_MS;

/** How far back from the limit a threshold clears when the rule names no clear level: 10 % of the limit. */
export const DEFAULT_CLEAR_FRACTION = 0.1;
/** The longest `forSeconds`, `clearForSeconds` and `afterSeconds`: a week. */
export const MAX_DURATION_SECONDS = 7 * 24 * 60 * 60;
/** A person may set a silence down to a minute (the sweep runs every minute). */
export const MIN_SILENCE_SECONDS = 60;
/** A learned silence is never under five minutes, however often the device reports. */
export const MIN_LEARNED_SILENCE_MS = 5 * MINUTE_MS;
/**
 * Before a device's interval is known (fewer than three batches to learn from), its learned silence is an hour: a
 * device that reports every quarter of an hour must not be called silent while nobody knows it yet.
 */
export const UNKNOWN_INTERVAL_SILENCE_MS = 60 * MINUTE_MS;
/** A reminder repeats no more often than every five minutes. */
export const MIN_REMIND_SECONDS = 5 * 60;
/** `daysBefore` of a subscription rule: up to 90 days. */
export const MAX_DAYS_BEFORE = 90;
/** At most this many recipients a rule (persons and roles together; the notification's audience has 20 places). */
export const MAX_RECIPIENTS = 17;
/** A preview reads at most this many readings of the device (about 7 days of one reading a minute). */
export const MAX_PREVIEW_READINGS = 20_000;
/** The preview's range when the request names none: the last 7 days. */
export const DEFAULT_PREVIEW_MS = 7 * DAY_MS;

export type Direction = 'above' | 'below';

/** What a threshold condition says, as the rule's JSON has it. */
export interface ThresholdInput {
  measurement: string;
  above?: number;
  below?: number;
  forSeconds?: number;
  clearAbove?: number;
  clearBelow?: number;
  clearForSeconds?: number;
}

/** A threshold with every default applied: what evaluation and preview run on. */
export interface ThresholdLevels {
  measurement: string;
  direction: Direction;
  limit: number;
  /** The value it must come back past to clear (hysteresis). */
  clear: number;
  forMs: number;
  clearForMs: number;
}

/** Rounds away float noise (35 × 0.9 is 31.499999…): six decimals, more than any sensor reports. */
const tidy = (value: number) => Math.round(value * 1e6) / 1e6;

/** The default clear level: 10 % of the limit back from it (`above: 35` clears below 31.5). */
export const defaultClearLevel = (direction: Direction, limit: number): number =>
  tidy(
    direction === 'above'
      ? limit - Math.abs(limit) * DEFAULT_CLEAR_FRACTION
      : limit + Math.abs(limit) * DEFAULT_CLEAR_FRACTION,
  );

export const thresholdLevels = (condition: ThresholdInput): ThresholdLevels => {
  const direction: Direction = condition.above !== undefined ? 'above' : 'below';
  const limit = (direction === 'above' ? condition.above : condition.below) ?? 0;
  const given = direction === 'above' ? condition.clearBelow : condition.clearAbove;
  const forSeconds = condition.forSeconds ?? 0;
  return {
    measurement: condition.measurement,
    direction,
    limit,
    clear: given ?? defaultClearLevel(direction, limit),
    forMs: forSeconds * SECOND_MS,
    clearForMs: (condition.clearForSeconds ?? forSeconds) * SECOND_MS,
  };
};

/** Is the value past the limit (the condition that fires)? */
export const isPast = (levels: Pick<ThresholdLevels, 'direction' | 'limit'>, value: number): boolean =>
  levels.direction === 'above' ? value > levels.limit : value < levels.limit;

/** Is the value back past the clear level (the condition that resolves)? */
export const isCleared = (levels: Pick<ThresholdLevels, 'direction' | 'clear'>, value: number): boolean =>
  levels.direction === 'above' ? value < levels.clear : value > levels.clear;

/**
 * How long a device may stay silent before the rule fires: what the rule sets, else twice the device's usual interval
 * and never under five minutes (an unknown interval: an hour).
 */
export const silenceAfterMs = (afterSeconds: number | undefined, intervalMs: number | undefined): number => {
  if (afterSeconds !== undefined) return afterSeconds * SECOND_MS;
  if (intervalMs === undefined) return UNKNOWN_INTERVAL_SILENCE_MS;
  return Math.max(2 * intervalMs, MIN_LEARNED_SILENCE_MS);
};

/** "above 35 µg/m³", "below 10 °C": the condition in words. */
export const thresholdWords = (levels: Pick<ThresholdLevels, 'direction' | 'limit'>, unit?: string): string =>
  `${levels.direction} ${levels.limit}${unit ? ` ${unit}` : ''}`;

/** "5 min", "1 h 30 min", "45 s": a duration as a person reads it. */
export const durationWords = (ms: number): string => {
  const seconds = Math.round(ms / SECOND_MS);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours < 48) return rest ? `${hours} h ${rest} min` : `${hours} h`;
  return `${Math.round(hours / 24)} days`;
};
