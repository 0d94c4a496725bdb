/**
 * Campaign data windows (docs/campaigns.md): a campaign's views of data are limited to `[startsAt, endsAt]`
 * (ms, both ends included). A caller who reaches a device through several campaigns sees the union of their
 * windows; `null` stands for "unlimited" (staff, a direct device relation). Pure, for the access module and
 * for the sensor-data reads that clip a requested range.
 */

export interface Window {
  startsAt: number;
  endsAt: number;
}

/** A requested time range, ms, both ends included. */
export interface TimeRange {
  from: number;
  to: number;
}

/** `null`: no limit. An empty array: nothing may be seen. */
export type Windows = readonly Window[] | null;

/** Sorted by start, with overlapping or touching windows (no whole millisecond between them) joined. */
export const mergeWindows = (windows: readonly Window[]): Window[] => {
  const sorted = windows
    .filter((w) => w.endsAt >= w.startsAt)
    .map((w) => ({ startsAt: w.startsAt, endsAt: w.endsAt }))
    .sort((a, b) => a.startsAt - b.startsAt || a.endsAt - b.endsAt);
  const merged: Window[] = [];
  for (const window of sorted) {
    const last = merged[merged.length - 1];
    if (last && window.startsAt <= last.endsAt + 1) last.endsAt = Math.max(last.endsAt, window.endsAt);
    else merged.push(window);
  }
  return merged;
};

/** May a reading taken at `time` (ms) be shown? */
export const isInWindow = (time: number, windows: Windows): boolean =>
  windows === null || windows.some((w) => time >= w.startsAt && time <= w.endsAt);

/**
 * The parts of `range` that the windows let through, in time order: a read asks for each part (or for
 * `[first.from, last.to]` and filters with isInWindow). Empty when nothing of the range may be seen.
 */
export const clipToWindows = (range: TimeRange, windows: Windows): TimeRange[] => {
  if (range.to < range.from) return [];
  if (windows === null) return [{ from: range.from, to: range.to }];
  return mergeWindows(windows)
    .map((w) => ({ from: Math.max(range.from, w.startsAt), to: Math.min(range.to, w.endsAt) }))
    .filter((part) => part.from <= part.to);
};
