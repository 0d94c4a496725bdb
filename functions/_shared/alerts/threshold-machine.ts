import { isCleared, isPast, type ThresholdLevels } from '../../../shared/alerts/alert-rules';
import type { PreviewPeriod } from '../../../shared/contracts/alerts';
import type { Phase } from './alert-model';

/** A threshold's phase on one device, as the machine reads and returns it. */
export interface ThresholdPhase {
  phase: Phase;
  since?: number;
}

/** What one reading changed: an alert became pending, fired, was withdrawn (never fired), or resolved. */
export type ThresholdChange =
  | { kind: 'pending'; at: number; value: number }
  | { kind: 'fired'; at: number; value: number }
  | { kind: 'withdrawn'; at: number }
  | { kind: 'resolved'; at: number; value: number };

/**
 * One reading through a threshold (docs/alerts.md, "Threshold"): it fires once the value has been past the limit for
 * `forMs` (at once when 0), and clears only once it has been back past the separate clear level for `clearForMs`.
 * Between the two levels nothing changes while firing, so a value hovering around the limit fires once (hysteresis);
 * a pending alert whose value comes back before `forMs` is withdrawn. Durations are measured between readings'
 * timestamps: the condition is judged at each reading.
 */
export const stepThreshold = (
  levels: ThresholdLevels,
  current: ThresholdPhase,
  reading: { timestamp: number; value: number },
): ThresholdPhase & { change?: ThresholdChange } => {
  const { timestamp: at, value } = reading;
  const past = isPast(levels, value);
  switch (current.phase) {
    case 'ok':
      if (!past) return current;
      return levels.forMs === 0
        ? { phase: 'firing', change: { kind: 'fired', at, value } }
        : { phase: 'pending', since: at, change: { kind: 'pending', at, value } };
    case 'pending':
      if (!past) return { phase: 'ok', change: { kind: 'withdrawn', at } };
      return at - (current.since ?? at) >= levels.forMs
        ? { phase: 'firing', change: { kind: 'fired', at, value } }
        : current;
    case 'firing':
      if (!isCleared(levels, value)) return current;
      return levels.clearForMs === 0
        ? { phase: 'ok', change: { kind: 'resolved', at, value } }
        : { phase: 'clearing', since: at };
    case 'clearing':
      if (!isCleared(levels, value)) return { phase: 'firing' };
      return at - (current.since ?? at) >= levels.clearForMs
        ? { phase: 'ok', change: { kind: 'resolved', at, value } }
        : current;
  }
};

/**
 * The periods a threshold would have fired in over past readings (the rule form's preview): the same machine the
 * live evaluation runs, from "ok" at the first reading. A period still firing at the last reading has no `clearedAt`.
 */
export const backtestThreshold = (
  levels: ThresholdLevels,
  readings: readonly { timestamp: number; value: number }[],
): PreviewPeriod[] => {
  const periods: PreviewPeriod[] = [];
  let state: ThresholdPhase = { phase: 'ok' };
  let open: PreviewPeriod | undefined;
  const further = (a: number, b: number) => (levels.direction === 'above' ? Math.max(a, b) : Math.min(a, b));
  for (const reading of readings) {
    const next = stepThreshold(levels, state, reading);
    state = { phase: next.phase, ...(next.since === undefined ? {} : { since: next.since }) };
    if (next.change?.kind === 'fired') {
      open = { firedAt: reading.timestamp, value: reading.value, peak: reading.value };
      periods.push(open);
    } else if (open && next.change?.kind === 'resolved') {
      open.clearedAt = reading.timestamp;
      open = undefined;
    } else if (open) {
      open.peak = further(open.peak ?? reading.value, reading.value);
    }
  }
  return periods;
};

/**
 * The periods a silence would have fired in: every gap between two readings longer than `afterMs` fires `afterMs`
 * after the first and clears at the second; a device silent at `to` is still firing.
 */
export const backtestSilence = (afterMs: number, timestamps: readonly number[], to: number): PreviewPeriod[] => {
  const periods: PreviewPeriod[] = [];
  const times = [...timestamps].sort((a, b) => a - b);
  times.forEach((time, i) => {
    const next = times[i + 1];
    if (next !== undefined && next - time > afterMs) periods.push({ firedAt: time + afterMs, clearedAt: next });
    if (next === undefined && to - time > afterMs) periods.push({ firedAt: time + afterMs });
  });
  return periods;
};
