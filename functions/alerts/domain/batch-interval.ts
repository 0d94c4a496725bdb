/** Fewer gaps than this say nothing of a device's interval. */
const MIN_GAPS = 3;

/**
 * A device's usual interval (ms) from the times of its recent batches: the median gap between them, so a silence or
 * a burst of resends leaves it as it is. Undefined with fewer than three gaps.
 */
export const medianGap = (times: readonly number[]): number | undefined => {
  const sorted = [...new Set(times)].sort((a, b) => a - b);
  const gaps = sorted.slice(1).map((time, i) => time - sorted[i]!);
  if (gaps.length < MIN_GAPS) return undefined;
  gaps.sort((a, b) => a - b);
  const middle = Math.floor(gaps.length / 2);
  return gaps.length % 2 ? gaps[middle]! : Math.round((gaps[middle - 1]! + gaps[middle]!) / 2);
};
