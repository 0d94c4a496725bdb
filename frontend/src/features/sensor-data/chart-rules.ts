import type { MeasurementSeries, Series } from '../../../../shared/contracts/sensor-data-readings';

/** One charted value of a measurement: a bucket's middle (ms) and its min, max and mean. */
export interface ChartPoint {
  x: number;
  min: number;
  max: number;
  mean: number;
}

/** uPlot's aligned data for one measurement's chart: x in seconds (a typed array), then min, max and mean. */
export type LineData = [Float64Array, (number | null)[], (number | null)[], (number | null)[]];

export interface ChartLine {
  data: LineData;
  /**
   * Indices of values with no neighbour on the line (a lone reading, or one between two silences): drawn as a
   * point, since a line needs two values and a lone value would otherwise draw nothing.
   */
  isolated: number[];
}

/** A measurement's values as points, at each bucket's middle; buckets without a value of it are skipped. */
export const pointsOf = (series: Pick<Series, 't' | 'bucketMs'>, columns: MeasurementSeries): ChartPoint[] => {
  const half = series.bucketMs / 2;
  const points: ChartPoint[] = [];
  series.t.forEach((start, i) => {
    const mean = columns.mean[i];
    if (mean === null || mean === undefined) return;
    points.push({ x: start + half, min: columns.min[i] ?? mean, max: columns.max[i] ?? mean, mean });
  });
  return points;
};

/**
 * The line of a measurement: its points joined, except across a real silence (two points more than `gapMs`
 * apart), where one null row breaks it (docs/sensor-data.md, "Gaps"). uPlot breaks a line at a null, so empty
 * buckets never reach it.
 */
export const lineOf = (points: readonly ChartPoint[], gapMs: number | null): ChartLine => {
  const rows: (ChartPoint | null)[] = [];
  points.forEach((point, i) => {
    const before = points[i - 1];
    if (before && gapMs !== null && point.x - before.x > gapMs) rows.push(null);
    rows.push(point);
  });
  const xs = new Float64Array(rows.length);
  rows.forEach((row, i) => {
    // A break sits midway between its neighbours, so the x axis stays ascending.
    xs[i] = (row ? row.x : (rows[i - 1]!.x + rows[i + 1]!.x) / 2) / 1000;
  });
  const column = (pick: (point: ChartPoint) => number) => rows.map((row) => (row ? pick(row) : null));
  const isolated = rows.flatMap((row, i) => (row && !rows[i - 1] && !rows[i + 1] ? [i] : []));
  return {
    data: [xs, column((p) => p.min), column((p) => p.max), column((p) => p.mean)],
    isolated,
  };
};

/** Does any measurement of the series hold a value? */
export const hasData = (series: Series): boolean =>
  Object.values(series.series).some((columns) => columns.mean.some((v) => v !== null));
