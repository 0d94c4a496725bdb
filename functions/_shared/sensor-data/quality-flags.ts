import {
  GAP_INTERVALS,
  GAP_MIN_MS,
  QUALITY_REASONS,
  type QualityReason,
  type QualityRule,
  qualityRuleOf,
} from '../../../shared/sensor-data/quality';
import type { StoredReading } from './readings-store';

/** Values of each measurement a device's record keeps between batches: the checks' memory (docs/data-quality.md). */
export const STATE_POINTS = 4;

/**
 * One measurement's recent history as the device record keeps it: its last few values, oldest first, as
 * `[time, value, spike]` (spike 1: flagged as a step or out of range, so no later value is measured against it), and
 * the value of its last run of equal values with the time the run began.
 */
export interface MeasurementState {
  p: [number, number, 0 | 1][];
  r?: [number, number];
  /** The last batch that changed it, told by its values of the measurement: first time, last time, how many. */
  b?: [number, number, number];
  /** The history that batch was checked against: that batch sent again is checked against it again. */
  q?: Pick<MeasurementState, 'p' | 'r'>;
}

/** Each measurement's history, by name: `qualityState` on the device record. */
export type QualityState = Record<string, MeasurementState>;

interface Point {
  t: number;
  v: number;
  /** The batch's reading this value belongs to; undefined for a value of the kept history. */
  reading?: number;
  spike: boolean;
  runStart: number;
}

const median = (values: number[]): number | undefined => {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * How long a silence before a value makes it `gap_before`: GAP_INTERVALS times the usual spacing of the values before
 * it (the last few), and never less than GAP_MIN_MS. Undefined with fewer than two values before it (no spacing yet).
 */
const gapLimit = (before: readonly Point[]): number | undefined => {
  const recent = before.slice(-STATE_POINTS);
  const spacing = median(recent.slice(1).map((point, i) => point.t - recent[i]!.t));
  return spacing === undefined ? undefined : Math.max(GAP_MIN_MS, GAP_INTERVALS * spacing);
};

/**
 * One measurement's values in time order, each checked against the values before it: the kept history and the
 * batch's own earlier values. A value that arrives after later ones is checked against what lies before it in time.
 */
const checkMeasurement = (
  points: Point[],
  rule: QualityRule | undefined,
  flag: (reading: number, reason: QualityReason) => void,
) => {
  for (let i = 0; i < points.length; i++) {
    const point = points[i]!;
    const previous = points[i - 1];
    const limit = gapLimit(points.slice(Math.max(0, i - STATE_POINTS), i));
    const afterGap = previous !== undefined && limit !== undefined && point.t - previous.t > limit;
    if (point.reading === undefined) {
      // A kept value: its run carries on as the record says (the newest) or as its neighbours show.
      if (previous && !afterGap && previous.v === point.v) point.runStart = Math.min(point.runStart, previous.runStart);
      continue;
    }
    const out = rule !== undefined && (point.v < rule.min || point.v > rule.max);
    if (rule && point.v < rule.min) flag(point.reading, 'under_range');
    if (rule && point.v > rule.max) flag(point.reading, 'over_range');
    let step = false;
    if (rule?.maxStep !== undefined && previous && !afterGap) {
      let reference: Point | undefined;
      for (let j = i - 1; j >= 0 && !reference; j--) if (!points[j]!.spike) reference = points[j];
      // Measured against the last value that was not a spike; a value close to a spike just before it means the level
      // itself moved (two in a row), not another spike.
      const levelMoved = previous.spike && Math.abs(point.v - previous.v) <= rule.maxStep;
      step =
        reference !== undefined &&
        point.t - reference.t <= (limit ?? GAP_MIN_MS) &&
        !levelMoved &&
        Math.abs(point.v - reference.v) > rule.maxStep;
      if (step) flag(point.reading, 'step_too_high');
    }
    point.spike = step || out;
    point.runStart = previous && !afterGap && previous.v === point.v ? previous.runStart : point.t;
    if (rule?.stuckMs !== undefined && point.t - point.runStart >= rule.stuckMs) flag(point.reading, 'stuck_value');
    if (afterGap) flag(point.reading, 'gap_before');
  }
};

/**
 * Flags a batch's values (docs/data-quality.md "The checks"): out of the sensor's range (bad), a spike against the
 * device's recent values, the same value for too long, the first value after a silence (suspect). What came before
 * the batch is the device record's `qualityState`, read in the write ingest makes anyway, so the checks cost no read
 * of their own; `state` is what the record keeps afterwards (undefined: unchanged). Raw values are never changed.
 */
export const flagReadings = (
  readings: readonly StoredReading[],
  kept?: QualityState,
): { readings: StoredReading[]; state?: QualityState } => {
  const sorted = [...readings].sort((a, b) => a.timestamp - b.timestamp);
  const flags = sorted.map(() => new Map<string, Set<QualityReason>>());
  const names = [...new Set(sorted.flatMap((reading) => Object.keys(reading.values)))];
  const state: QualityState = { ...(kept ?? {}) };
  let changed = false;
  for (const name of names) {
    const stored = kept && Object.hasOwn(kept, name) ? kept[name] : undefined;
    const batch: Point[] = [];
    sorted.forEach((reading, index) => {
      const v = reading.values[name];
      if (v !== undefined)
        batch.push({ t: reading.timestamp, v, reading: index, spike: false, runStart: reading.timestamp });
    });
    const told: [number, number, number] = [batch[0]!.t, batch[batch.length - 1]!.t, batch.length];
    // The batch sent again after its readings write failed (the record kept its values in the same write as the device
    // seen, before the readings: decision 102) is checked against what it was checked against the first time, so it
    // gets the flags it had; else it would find its own values in the history and the run or spike before them gone.
    const again = stored?.q !== undefined && stored.b?.every((part, i) => part === told[i]) === true;
    const memory = again ? stored.q : stored;
    const times = new Set(batch.map((point) => point.t));
    const newestKept = memory?.p[memory.p.length - 1];
    // A value the batch sends again replaces the kept one of the same time.
    const history: Point[] = (memory?.p ?? [])
      .filter(([t]) => !times.has(t))
      .map(([t, v, spike]) => ({
        t,
        v,
        spike: spike === 1,
        runStart: t === newestKept?.[0] && memory?.r && memory.r[0] === v ? memory.r[1] : t,
      }));
    const points = [...history, ...batch].sort((a, b) => a.t - b.t);
    checkMeasurement(points, qualityRuleOf(name), (reading, reason) => {
      const byName = flags[reading]!;
      if (!byName.has(name)) byName.set(name, new Set());
      byName.get(name)!.add(reason);
    });
    const newest = points[points.length - 1]!;
    const next: Pick<MeasurementState, 'p' | 'r'> = {
      p: points.slice(-STATE_POINTS).map((point) => [point.t, point.v, point.spike ? 1 : 0]),
      r: [newest.v, newest.runStart],
    };
    // A batch that leaves the history as it was (values the record holds already, that batch sent again) writes nothing.
    if (JSON.stringify(next) !== JSON.stringify({ p: stored?.p, r: stored?.r })) {
      state[name] = {
        ...next,
        b: told,
        ...(memory ? { q: { p: memory.p, ...(memory.r ? { r: memory.r } : {}) } } : {}),
      };
      changed = true;
    }
  }
  const flagged = sorted.map((reading, index): StoredReading => {
    const byName = flags[index]!;
    if (byName.size === 0) return { timestamp: reading.timestamp, values: reading.values };
    const reasons: Record<string, QualityReason[]> = {};
    for (const [name, set] of byName) reasons[name] = QUALITY_REASONS.filter((reason) => set.has(reason));
    return { timestamp: reading.timestamp, values: reading.values, flags: reasons };
  });
  return changed ? { readings: flagged, state } : { readings: flagged };
};
