/**
 * When a chart's line is broken (docs/sensor-data.md, "Gaps"): only where a measurement was silent for longer than
 * GAP_FACTOR times its usual spacing, the median distance between its values in the range. Empty buckets alone
 * mean nothing: a device reporting every 10 minutes fills one 2-minute bucket in five.
 */
export const GAP_FACTOR = 3;

/** The median distance between consecutive ascending times; undefined for fewer than two. */
export const medianSpacing = (times: ArrayLike<number>): number | undefined => {
  if (times.length < 2) return undefined;
  const steps = new Float64Array(times.length - 1);
  for (let i = 1; i < times.length; i++) steps[i - 1] = times[i]! - times[i - 1]!;
  steps.sort();
  const middle = steps.length >> 1;
  return steps.length % 2 ? steps[middle]! : (steps[middle - 1]! + steps[middle]!) / 2;
};

/**
 * How far apart (ms) two consecutive values of a measurement may lie and still be joined by its line; null when
 * there are fewer than two values (nothing to join). The median is taken over the values as charted (bucket
 * starts), so it is never finer than a bucket: at a year's scale an hour's silence is no gap.
 */
export const gapThreshold = (times: ArrayLike<number>): number | null => {
  const spacing = medianSpacing(times);
  return spacing === undefined ? null : spacing * GAP_FACTOR;
};
