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
  // Per line: the buckets inside a silence (null there), and the neighbouring buckets that need a break row between.
  const silent = lines.map(() => new Set<number>());
  const breakAfter = new Map<number, Set<number>>();
  lines.forEach((line, l) => {
    let before = -1;
    line.mean.forEach((value, k) => {
      if (value === null || value === undefined) return;
      if (before >= 0 && line.gapMs !== null && t[k]! - t[before]! > line.gapMs) {
        if (k === before + 1) breakAfter.set(before, (breakAfter.get(before) ?? new Set()).add(l));
        else for (let between = before + 1; between < k; between++) silent[l]!.add(between);
      }
      before = k;
    });
  });

  const half = bucketMs / 2;
  const xs: number[] = [];
  const columns: (number | null | undefined)[][] = lines.map(() => []);
  t.forEach((start, k) => {
    xs.push((start + half) / 1000);
    lines.forEach((line, l) => {
      const value = line.mean[k];
      columns[l]!.push(value ?? (silent[l]!.has(k) ? null : undefined));
    });
    const breaks = breakAfter.get(k);
    if (breaks) {
      // Midway to the next bucket, so the x axis stays ascending.
      xs.push((start + bucketMs / 2 + (t[k + 1]! - start) / 2) / 1000);
      lines.forEach((_, l) => {
        columns[l]!.push(breaks.has(l) ? null : undefined);
      });
    }
  });

  const isolated = columns.map((column) => {
    const defined = column.flatMap((value, row) => (value === undefined ? [] : [{ value, row }]));
    return defined.flatMap(({ value, row }, i) =>
      value !== null && (defined[i - 1]?.value ?? null) === null && (defined[i + 1]?.value ?? null) === null
        ? [row]
        : [],
    );
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
