import { ownValue } from '../objects/own-value';

/**
 * Data quality (docs/data-quality.md): every stored value carries a quality and the reasons for it, from one fixed
 * vocabulary (the names of LwM2M object 509's reasons where it has one). Both sides read these words: the API
 * answers them, the web app draws and explains them.
 */
export const QUALITY_REASONS = [
  'under_range',
  'over_range',
  'step_too_high',
  'stuck_value',
  'gap_before',
  'excluded',
] as const;
export type QualityReason = (typeof QUALITY_REASONS)[number];

export const QUALITIES = ['good', 'suspect', 'bad'] as const;
export type Quality = (typeof QUALITIES)[number];

/** Reasons that make a value bad: it cannot be true (outside the sensor's limits) or a person took it out. */
const BAD_REASONS: ReadonlySet<QualityReason> = new Set(['under_range', 'over_range', 'excluded']);

/** A value's quality from its reasons: none is good, any bad reason is bad, the rest suspect. */
export const qualityOf = (reasons: readonly QualityReason[] | undefined): Quality =>
  !reasons || reasons.length === 0 ? 'good' : reasons.some((r) => BAD_REASONS.has(r)) ? 'bad' : 'suspect';

/** Which values a reader keeps: every one, good ones only, or all but the bad. */
export const QUALITY_FILTERS = ['all', 'good', 'no-bad'] as const;
export type QualityFilter = (typeof QUALITY_FILTERS)[number];

/** Which values a reader answers: the calibrated ones (where a calibration exists), the raw ones, or both. */
export const VALUE_CHOICES = ['corrected', 'raw', 'both'] as const;
export type ValueChoice = (typeof VALUE_CHOICES)[number];

export const keeps = (filter: QualityFilter, quality: Quality): boolean =>
  filter === 'all' || (filter === 'good' ? quality === 'good' : quality !== 'bad');

/** What each reason means, in the words a chart's legend and the docs use. */
export const REASON_TEXT: Record<QualityReason, string> = {
  under_range: 'below what the sensor can measure',
  over_range: 'above what the sensor can measure',
  step_too_high: "a jump from the device's recent values",
  stuck_value: 'the same value for too long',
  gap_before: 'the first value after a silence',
  excluded: 'excluded by a person',
};

/**
 * One measurement kind's checks, kept as data (docs/data-quality.md "The checks"): the sensor's physical limits
 * (outside: `under_range` / `over_range`, bad), the largest step from the device's last accepted value that is not a
 * spike (`step_too_high`, suspect), and how long the same value may repeat where the measurement should vary
 * (`stuck_value`, suspect; absent where a constant value is normal, as a full battery's).
 */
export interface QualityRule {
  min: number;
  max: number;
  maxStep?: number;
  stuckMs?: number;
}

const HOUR = 3_600_000;

/**
 * The checks of the catalogue's measurements. The limits are what low-cost sensors of each kind can measure (PM2.5
 * 0–1,000 µg/m³, RH 0–100 %): narrower than what ingest refuses outright (shared/sensor-data/measurements.ts), so a
 * value a sensor cannot have measured is kept, flagged bad, rather than lost. Measurements outside the catalogue get
 * only the gap check.
 */
export const QUALITY_RULES: Readonly<Record<string, QualityRule>> = {
  pm1: { min: 0, max: 1_000, maxStep: 150, stuckMs: 2 * HOUR },
  pm2_5: { min: 0, max: 1_000, maxStep: 150, stuckMs: 2 * HOUR },
  pm10: { min: 0, max: 2_000, maxStep: 250, stuckMs: 2 * HOUR },
  temperature: { min: -40, max: 85, maxStep: 8, stuckMs: 6 * HOUR },
  humidity: { min: 0, max: 100, maxStep: 25, stuckMs: 6 * HOUR },
  pressure: { min: 300, max: 1_100, maxStep: 15 },
  co2: { min: 350, max: 10_000, maxStep: 1_000, stuckMs: 4 * HOUR },
  voc: { min: 0, max: 500, maxStep: 200 },
  no2: { min: 0, max: 2_000, maxStep: 300, stuckMs: 4 * HOUR },
  o3: { min: 0, max: 2_000, maxStep: 300, stuckMs: 4 * HOUR },
  battery: { min: 0, max: 100 },
  rssi: { min: -130, max: -20 },
};

export const qualityRuleOf = (name: string): QualityRule | undefined => ownValue(QUALITY_RULES, name);

/**
 * A value whose measurement was silent before it for longer than this, and longer than GAP_INTERVALS times the
 * device's usual spacing, is `gap_before`: a device reporting every minute after 20 minutes, one reporting hourly
 * after 4 hours.
 */
export const GAP_MIN_MS = 20 * 60_000;
export const GAP_INTERVALS = 4;
