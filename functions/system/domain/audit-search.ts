import { AUDIT_RETENTION_MS, type AuditEntry, type AuditSearch } from '../../../shared/audit/audit-entry';
import { MESSAGES } from '../../../shared/messages';
import { type AuditItem, monthOf, sortTime, toAuditEntry } from '../../_shared/audit/audit-item';
import { decodeCursor, encodeCursor } from '../../_shared/cursor';
import { BadRequest } from '../../_shared/errors';

type Key = Record<string, unknown>;

/** Which key the search reads by: one of the indexes, or the table's month partitions. */
export type AuditIndex = 'byActor' | 'byTarget' | 'byAction' | 'byMonth';

/** One Query of the search: a partition of the table or of an index, a time range in it, and filters on the rest. */
export interface AuditQuery {
  index: AuditIndex;
  /** The partition: an actor's id, a target's id, an action, or a month (`YYYY-MM`). */
  partition: string;
  /** Sort-key bounds (inclusive), in the `at` format. */
  lowest: string;
  highest: string;
  /** The filters the key does not apply (each optional). */
  filters: { actorId?: string; targetId?: string; targetKind?: string; action?: string };
}

/** What the search needs of the table (functions/system/store/audit-search-store.ts): Queries only, newest first. */
export interface AuditSearchStore {
  query(query: AuditQuery, startKey: Key | undefined, limit: number): Promise<{ items: AuditItem[]; lastKey?: Key }>;
  /** Where a Query continues after this item. */
  keyOf(query: AuditQuery, item: AuditItem): Key;
}

export interface AuditSearchDeps {
  store: AuditSearchStore;
  now: () => number;
}

/** Queries one page may make before it answers with what it found and a cursor: more than the months of the retention. */
const MAX_ROUNDS = 30;
/** Entries may carry a time a little ahead of this function's clock (another Lambda's). */
const CLOCK_SLACK_MS = 5 * 60 * 1000;

/** The months from the one holding `to` back to the one holding `from`, newest first. */
export const monthsBetween = (from: number, to: number): string[] => {
  const months: string[] = [];
  const cursor = new Date(Date.UTC(new Date(to).getUTCFullYear(), new Date(to).getUTCMonth(), 1));
  const first = monthOf(from);
  while (months.length < 1200) {
    const month = monthOf(cursor.getTime());
    months.push(month);
    if (month <= first) break;
    cursor.setUTCMonth(cursor.getUTCMonth() - 1);
  }
  return months;
};

/**
 * The Queries a search makes, in order (docs/audit.md, "Search"): by the most selective key it names (a target, then
 * an actor, then an action), or month by month newest first; always within the time range, which is clipped to the
 * retention: what is older is treated as gone even where the emulator (which has no TTL) still holds it.
 */
export const planSearch = (search: AuditSearch, now: number): AuditQuery[] => {
  const from = Math.max(search.from ?? 0, now - AUDIT_RETENTION_MS);
  const to = Math.min(search.to ?? Number.MAX_SAFE_INTEGER, now + CLOCK_SLACK_MS);
  if (from >= to) return [];
  const lowest = sortTime(from);
  // `to` is exclusive: every key of an earlier millisecond sorts below this bound.
  const highest = `${sortTime(to - 1)}~`;
  const filters = {
    ...(search.actor ? { actorId: search.actor } : {}),
    ...(search.target ? { targetId: search.target } : {}),
    ...(search.targetKind ? { targetKind: search.targetKind } : {}),
    ...(search.action ? { action: search.action } : {}),
  };
  const by = (index: AuditIndex, partition: string, keyFilter: keyof typeof filters): AuditQuery => {
    const { [keyFilter]: _applied, ...rest } = filters;
    return { index, partition, lowest, highest, filters: rest };
  };
  if (search.target) return [by('byTarget', search.target, 'targetId')];
  if (search.actor) return [by('byActor', search.actor, 'actorId')];
  if (search.action) return [by('byAction', search.action, 'action')];
  return monthsBetween(from, to - 1).map((month) => ({ index: 'byMonth', partition: month, lowest, highest, filters }));
};

interface Position {
  /** Which Query of the plan. */
  q: number;
  /** Where in it. */
  k?: Key;
  /** The request id of the last entry shown when it was an outcome: its attempt, next in the Query, is not shown. */
  s?: string;
}

const readPosition = (cursor: string | undefined): Position => {
  const decoded = decodeCursor(cursor);
  if (!decoded) return { q: 0 };
  const { q, k, s } = decoded as unknown as Position;
  if (
    typeof q !== 'number' ||
    !Number.isInteger(q) ||
    q < 0 ||
    (k !== undefined && (typeof k !== 'object' || k === null)) ||
    (s !== undefined && typeof s !== 'string')
  ) {
    throw new BadRequest(MESSAGES.invalidCursor);
  }
  return { q, k, s };
};

/**
 * The audit log's search (system area): entries newest first, each call once. A call has two records, the attempt
 * (before the change) and the outcome (after); read newest first the outcome comes just before its attempt, which is
 * then left out. An attempt with no outcome is shown alone, as outcome `unknown`.
 */
export const createAuditSearch = ({ store, now }: AuditSearchDeps) => ({
  search: async (
    search: AuditSearch,
    { limit, cursor }: { limit: number; cursor?: string },
  ): Promise<{ items: AuditEntry[]; nextCursor?: string }> => {
    const plan = planSearch(search, now());
    let { q, k, s } = readPosition(cursor);
    if (q > plan.length) throw new BadRequest(MESSAGES.invalidCursor);
    const items: AuditEntry[] = [];
    for (let round = 0; round < MAX_ROUNDS && q < plan.length && items.length < limit; round += 1) {
      const query = plan[q]!;
      // One more than the page needs, so an outcome's attempt is usually read with it.
      const page = await store.query(query, k, limit - items.length + 1);
      let stoppedEarly = false;
      for (const item of page.items) {
        if (item.phase === 'attempt' && item.id === s) {
          k = store.keyOf(query, item);
          s = undefined;
          continue;
        }
        if (items.length === limit) {
          stoppedEarly = true;
          break;
        }
        items.push(toAuditEntry(item));
        s = item.phase === 'outcome' ? item.id : undefined;
        k = store.keyOf(query, item);
      }
      if (stoppedEarly) break;
      if (page.lastKey) {
        k = page.lastKey;
      } else {
        q += 1;
        k = undefined;
      }
    }
    const more = q < plan.length;
    return {
      items,
      ...(more ? { nextCursor: encodeCursor({ q, ...(k ? { k } : {}), ...(s ? { s } : {}) }) } : {}),
    };
  },
});

export type AuditSearchUseCase = ReturnType<typeof createAuditSearch>;
