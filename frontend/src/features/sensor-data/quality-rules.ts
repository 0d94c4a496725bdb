import type { Reprocessing } from '../../../../shared/contracts/sensor-data-quality';
import type { MeasurementSeries, Series } from '../../../../shared/contracts/sensor-data-readings';

/** The marks' colours (docs/data-quality.md "Screens"): a hollow amber ring for suspect, a red dot for bad. */
export const MARK_COLOURS = { suspect: '#b45309', bad: '#dc2626' } as const;

/** A bucket with flagged readings, where the chart marks it: at its highest value, where a spike shows. */
export interface QualityMark {
  /** ms, the bucket's middle. */
  x: number;
  y: number;
  /** Bad wins over suspect: a bucket with both is marked bad. */
  kind: 'suspect' | 'bad';
}

/** The marks of one measurement's chart (docs/data-quality.md "On the chart"): one per bucket holding a flag. */
export const qualityMarks = (series: Pick<Series, 't' | 'bucketMs'>, columns: MeasurementSeries): QualityMark[] => {
  const half = series.bucketMs / 2;
  return series.t.flatMap((start, i): QualityMark[] => {
    const y = columns.max[i] ?? columns.mean[i];
    if (y === null || y === undefined) return [];
    if ((columns.bad[i] ?? 0) > 0) return [{ x: start + half, y, kind: 'bad' }];
    if ((columns.suspect[i] ?? 0) > 0) return [{ x: start + half, y, kind: 'suspect' }];
    return [];
  });
};

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** "3 of 8 days", or in hours for a run under two days (a run's ranges are whole hours). */
const spanText = (doneMs: number, totalMs: number) => {
  const [unit, ms] = totalMs >= 2 * DAY_MS ? ['days', DAY_MS] : ['hours', HOUR_MS];
  return `${Math.floor(doneMs / ms)} of ${Math.max(1, Math.round(totalMs / ms))} ${unit}`;
};

/**
 * The quality panel's reprocessing line (docs/data-quality.md "Screens"): how far a run is while one is under way; once
 * the panel has seen one under way (or its person started one), that it is done; else that the charts hold every change.
 */
export const reprocessingText = (state: Reprocessing | undefined, watched: boolean): string => {
  if (!state) return '';
  if (state.status === 'running') {
    const span =
      state.doneMs !== undefined && state.totalMs
        ? ` — ${spanText(state.doneMs, state.totalMs)}`
        : ' — waiting to start';
    return `Reprocessing: ${state.progress} %${span}`;
  }
  return watched
    ? 'Reprocessing done: the charts show every change.'
    : 'Charts and roll-ups include every calibration and exclusion.';
};
