import type { CampaignSeries, ComparedDevice } from '../../../../shared/contracts/sensor-data-campaigns';

/** Colours of the palette (`--chart-compare-1` … in app/tokens.css): past them, the dash pattern changes. */
export const PALETTE_SIZE = 10;

/**
 * Dash patterns (canvas `setLineDash`, CSS px) taken in turn once the colours run out: 10 colours × 5 patterns keep
 * 50 devices apart, and a person told two lines apart by pattern alone still has the names on hover and in the
 * legend.
 */
export const DASHES: readonly (readonly number[])[] = [[], [10, 4], [2, 3], [10, 3, 2, 3], [16, 4, 4, 4]];

export interface LineStyle {
  /** The design token of the line's colour. */
  token: `--chart-compare-${number}`;
  dash: readonly number[];
}

/** The style of the `index`-th charted device (in the answer's order, so a device keeps its style across charts). */
export const styleOf = (index: number): LineStyle => ({
  token: `--chart-compare-${(index % PALETTE_SIZE) + 1}`,
  dash: DASHES[Math.floor(index / PALETTE_SIZE) % DASHES.length]!,
});

/** The devices with lines to draw, in the answer's order: the order that gives each its style. */
export const chartedDevices = (answer: Pick<CampaignSeries, 'devices'>): ComparedDevice[] =>
  answer.devices.filter((device) => device.status === 'shown');

/**
 * uPlot's aligned data for one measurement's chart: x in seconds (bucket middles, plus a break row where a line
 * must break between two neighbouring buckets), then one column per device that has the measurement. In a column,
 * a number is a value; `undefined` is a bucket where the device has no value but its line carries on (uPlot joins
 * over it); `null` is inside a real silence (uPlot breaks the line from the value before to the value after).
 */
export interface ComparisonLines {
  data: [Float64Array, ...(number | null | undefined)[][]];
  /** The device of each column after x, in order. */
  deviceIds: string[];
  /** Per device column, the rows drawn as a point: a value with no neighbour on its line. */
  isolated: number[][];
}

/**
 * The lines of one measurement (docs/sensor-data.md, "Campaign comparison"): each device's means on the shared
 * time axis, broken only where that device was silent for longer than its own `gapMs` (the "Gaps" rule of a
 * device's chart), never because another device has a value in between.
 */
export const comparisonLines = (
  answer: Pick<CampaignSeries, 't' | 'bucketMs' | 'devices'>,
  measurement: string,
): ComparisonLines => {
  const { t, bucketMs } = answer;
  const lines = chartedDevices(answer).flatMap((device) => {
    const line = device.series[measurement];
    return line ? [{ deviceId: device.deviceId, mean: line.mean, gapMs: line.gapMs }] : [];
  });
  // Plain loops and typed arrays: 50 devices × 720 buckets × 4 charts run on every answer, on the main thread.
  const silentAfter = (line: (typeof lines)[number], before: number, k: number) =>
    before >= 0 && line.gapMs !== null && t[k]! - t[before]! > line.gapMs;
  // Where a silence has no bucket inside it, a break row goes between its two buckets (for every line: undefined).
  const breakAfter = new Uint8Array(t.length);
  for (const line of lines) {
    let before = -1;
    for (let k = 0; k < t.length; k++) {
      if (line.mean[k] === null || line.mean[k] === undefined) continue;
      if (k === before + 1 && silentAfter(line, before, k)) breakAfter[before] = 1;
      before = k;
    }
  }
  const rowOf = new Int32Array(t.length);
  const xs: number[] = [];
  const half = bucketMs / 2;
  for (let k = 0; k < t.length; k++) {
    rowOf[k] = xs.length;
    xs.push((t[k]! + half) / 1000);
    // Midway to the next bucket, so the x axis stays ascending.
    if (breakAfter[k]) xs.push((t[k]! + half + (t[k + 1]! - t[k]!) / 2) / 1000);
  }

  const columns = lines.map((line) => {
    const column: (number | null | undefined)[] = new Array(xs.length).fill(undefined);
    let before = -1;
    for (let k = 0; k < t.length; k++) {
      const value = line.mean[k];
      if (value === null || value === undefined) continue;
      if (silentAfter(line, before, k)) {
        if (k === before + 1) column[rowOf[before]! + 1] = null;
        else for (let between = before + 1; between < k; between++) column[rowOf[between]!] = null;
      }
      column[rowOf[k]!] = value;
      before = k;
    }
    return column;
  });

  const isolated = columns.map((column) => {
    const points: number[] = [];
    // The last row holding a value or a break, and whether it held a value; the row before it likewise.
    let last = -1;
    let lastIsValue = false;
    let beforeLastIsValue = false;
    const settle = (nextIsValue: boolean) => {
      if (lastIsValue && !beforeLastIsValue && !nextIsValue) points.push(last);
    };
    for (let row = 0; row < column.length; row++) {
      const value = column[row];
      if (value === undefined) continue;
      if (last >= 0) settle(value !== null);
      beforeLastIsValue = last >= 0 && lastIsValue;
      last = row;
      lastIsValue = value !== null;
    }
    if (last >= 0) settle(false);
    return points;
  });
  return { data: [Float64Array.from(xs), ...columns], deviceIds: lines.map((line) => line.deviceId), isolated };
};

/** Does any device have a value of any measurement in the answer? */
export const hasComparisonData = (answer: Pick<CampaignSeries, 'devices'>): boolean =>
  chartedDevices(answer).some((device) =>
    Object.values(device.series).some((line) => line.mean.some((value) => value !== null)),
  );

/** What the hover line says of one value: the device by name, the value with its unit, and when. */
export const readoutText = (device: string, value: number, unit: string | undefined, time: string): string =>
  `${device}: ${value}${unit ? ` ${unit}` : ''} at ${time}`;
