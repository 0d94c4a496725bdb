/**
 * What the cache tools and the item look-up answer in their own words (docs/system.md). Kept beside the system
 * area's domain, not in shared/messages.ts: only the API says them, and that module ships in the web app's first
 * page (its 170 kB budget).
 */
export const SYSTEM_MESSAGES = {
  cacheRangeOrder: 'The range must end after it starts (from before to)',
  cacheRangeTooLong: (days: number) => `One rebuild covers at most ${days} days: split the range`,
  lookupUnknownTable: (table: string, tables: readonly string[]) =>
    `No table ${table} can be looked up; the tables are: ${tables.join(', ')}`,
  lookupTableRefused: (table: string, reason: string) => `Items of ${table} cannot be looked up. ${reason}`,
  lookupTooManyKeys: (max: number, asked: number) =>
    `At most ${max} keys can be looked up at once; ${asked} were asked`,
  lookupKeyShape: (names: readonly string[]) => `A key of this table has exactly ${names.join(' and ')}`,
  lookupKeyType: (name: string, type: 'S' | 'N') => `${name} must be ${type === 'S' ? 'text' : 'a number'}`,
} as const;
