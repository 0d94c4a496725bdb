import type { CacheFile, CacheRebuild, ItemKey, LookupTable } from '../../../../shared/contracts/system';
import { LOOKUP_MAX_KEYS } from '../../../../shared/contracts/system';

/** The cache page's and the look-up page's own words (docs/system.md). */
export const CACHE_TEXT = {
  evictStaffOnly: 'Only Administrators can evict cache files.',
  evictConfirm: (count: number) =>
    `Evict ${count} file${count === 1 ? '' : 's'}? Charts show nothing for ${count === 1 ? 'its period' : 'their periods'} until rebuilt.`,
  noFiles: 'This device has no cache files: nothing has been charted for it yet, or they were evicted.',
  dateMissing: 'Choose both dates.',
  dateOrder: 'The start must not be after the end.',
  keysEmpty: 'Enter at least one key, one a line.',
  keysTooMany: `At most ${LOOKUP_MAX_KEYS} keys at once.`,
  keyNumber: (line: number, name: string) => `Line ${line}: ${name} must be a number.`,
  keyParts: (line: number, names: readonly string[]) =>
    `Line ${line}: give ${names.join(', then ')}, separated by a comma.`,
} as const;

const MONTHS = new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** What a file holds, in words: "Hours of November 2026", "Days of 2026". */
export const fileLabel = (file: Pick<CacheFile, 'resolution' | 'period'>): string => {
  if (file.resolution === 'day' && file.period) return `Days of ${file.period}`;
  if (file.resolution === 'hour' && file.period) {
    const [year, month] = file.period.split('-').map(Number) as [number, number];
    return `Hours of ${MONTHS.format(Date.UTC(year, month - 1, 1))}`;
  }
  return 'Not a chart-data file';
};

export const sizeText = (bytes: number): string =>
  bytes < 1000
    ? `${bytes} B`
    : bytes < 1_000_000
      ? `${(bytes / 1000).toFixed(1)} kB`
      : `${(bytes / 1e6).toFixed(1)} MB`;

/** The store keeps whole seconds: a file written in the second of the request counts as written by it. */
const writtenSince = (file: CacheFile | undefined, requestedAt: number) =>
  file !== undefined && file.lastModified >= Math.floor(requestedAt / 1000) * 1000;

/** How far a rebuild has come, read from the files listed now: each file it writes, written since it was asked. */
export const rebuildProgress = (rebuild: CacheRebuild, files: readonly CacheFile[]) => {
  const byKey = new Map(files.map((file) => [file.key, file]));
  const written = rebuild.files.filter((file) => writtenSince(byKey.get(file.key), rebuild.requestedAt)).length;
  return { written, total: rebuild.files.length, done: written === rebuild.files.length };
};

/** Whether a listed file is one a rebuild is still to write. */
export const awaitsRebuild = (rebuild: CacheRebuild | undefined, file: CacheFile): boolean =>
  (rebuild?.files.some((f) => f.key === file.key) ?? false) && !writtenSince(file, rebuild!.requestedAt);

export const rebuildText = (rebuild: CacheRebuild): string =>
  `Rebuild queued: ${rebuild.hours} hour${rebuild.hours === 1 ? '' : 's'} in ${rebuild.messages} message${
    rebuild.messages === 1 ? '' : 's'
  }; ${rebuild.files.length} file${rebuild.files.length === 1 ? '' : 's'} will be written.`;

/** A day as the date field gives it (YYYY-MM-DD), in UTC. */
const dayStart = (date: string): number | undefined => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  return match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : undefined;
};

export const dateOf = (time: number): string => new Date(time).toISOString().slice(0, 10);

/** The range of whole UTC days from one date to another, ending no later than now. */
export const rangeOfDates = (
  from: string,
  to: string,
  now: number,
): { ok: true; from: number; to: number } | { ok: false; error: string } => {
  const start = dayStart(from);
  const end = dayStart(to);
  if (start === undefined || end === undefined) return { ok: false, error: CACHE_TEXT.dateMissing };
  if (start > end) return { ok: false, error: CACHE_TEXT.dateOrder };
  return { ok: true, from: start, to: Math.min(end + 24 * 60 * 60 * 1000 - 1, now) };
};

/**
 * The keys typed one a line: the partition key's value, and for a table with a sort key a comma and its value (the
 * last comma splits, so a partition value may hold commas). Numbers are checked here, the rest by the API.
 */
export const parseKeys = (
  text: string,
  table: Pick<LookupTable, 'partitionKey' | 'sortKey'>,
): { ok: true; keys: ItemKey[] } | { ok: false; error: string } => {
  const lines = text
    .split('\n')
    .map((line, index) => ({ line: line.trim(), number: index + 1 }))
    .filter(({ line }) => line !== '');
  if (lines.length === 0) return { ok: false, error: CACHE_TEXT.keysEmpty };
  if (lines.length > LOOKUP_MAX_KEYS) return { ok: false, error: CACHE_TEXT.keysTooMany };
  const attributes = [table.partitionKey, ...(table.sortKey ? [table.sortKey] : [])];
  const keys: ItemKey[] = [];
  for (const { line, number } of lines) {
    const cut = line.lastIndexOf(',');
    const parts = table.sortKey ? (cut < 0 ? [line] : [line.slice(0, cut), line.slice(cut + 1)]) : [line];
    if (parts.length !== attributes.length || parts.some((part) => part.trim() === '')) {
      return {
        ok: false,
        error: CACHE_TEXT.keyParts(
          number,
          attributes.map((a) => a.name),
        ),
      };
    }
    const key: ItemKey = {};
    for (const [i, attribute] of attributes.entries()) {
      const part = parts[i]!.trim();
      if (attribute.type === 'N') {
        const value = Number(part);
        if (!Number.isFinite(value)) return { ok: false, error: CACHE_TEXT.keyNumber(number, attribute.name) };
        key[attribute.name] = value;
      } else key[attribute.name] = part;
    }
    keys.push(key);
  }
  return { ok: true, keys };
};

/** A key as one line of text, the way it is typed. */
export const keyText = (key: ItemKey): string => Object.values(key).join(', ');
