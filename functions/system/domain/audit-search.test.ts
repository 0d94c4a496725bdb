import { AUDIT_RETENTION_MS } from '../../../shared/audit/audit-entry';
import { type AuditItem, toAuditItem } from '../../_shared/audit/audit-item';
import type { AuditRecord } from '../../_shared/audit/audit-trail';
import { BadRequest } from '../../_shared/errors';
import { type AuditQuery, type AuditSearchStore, createAuditSearch, monthsBetween, planSearch } from './audit-search';

/** Away from month and day boundaries: 2026-11-18T10:00:00Z. */
const NOW = Date.UTC(2026, 10, 18, 10);
const MINUTE = 60_000;

const record = (id: string, minutesAgo: number, fields: Partial<AuditRecord> = {}): AuditRecord => ({
  phase: 'attempt',
  id,
  time: NOW - minutesAgo * MINUTE,
  action: 'user.group.add',
  label: 'Added a person to a group',
  area: 'users',
  route: 'addUserToGroup',
  method: 'GET',
  path: `/addUserToGroup/${id}`,
  actor: { id: 'admin-1', groups: ['Administrators'] },
  target: { kind: 'user', id: `person-${id}` },
  change: {},
  ...fields,
});

/** Both records of a call that finished. */
const call = (id: string, minutesAgo: number, fields: Partial<AuditRecord> = {}): AuditRecord[] => [
  record(id, minutesAgo, fields),
  record(id, minutesAgo, {
    ...fields,
    phase: 'outcome',
    outcome: 'succeeded',
    status: 200,
    before: { a: 1 },
    after: { a: 2 },
  }),
];

/** DynamoDB's Query as the search uses it: one partition, a sort-key range, newest first, Limit before the filter. */
const memoryStore = (records: AuditRecord[]): AuditSearchStore & { queries: AuditQuery[] } => {
  const items = records.map(toAuditItem);
  const partitionOf: Record<AuditQuery['index'], (item: AuditItem) => string | undefined> = {
    byMonth: (item) => item.month,
    byActor: (item) => item.actorId,
    byTarget: (item) => item.targetId,
    byAction: (item) => item.action,
  };
  const queries: AuditQuery[] = [];
  return {
    queries,
    query: async (query, startKey, limit) => {
      queries.push(query);
      const matching = items
        .filter((item) => partitionOf[query.index](item) === query.partition)
        .filter((item) => item.at >= query.lowest && item.at <= query.highest)
        .sort((a, b) => (a.at < b.at ? 1 : -1));
      const start = startKey ? matching.findIndex((item) => item.at === startKey.at) + 1 : 0;
      const read = matching.slice(start, start + limit);
      const passes = (item: AuditItem) =>
        Object.entries(query.filters).every(
          ([name, value]) => (item as unknown as Record<string, unknown>)[name] === value,
        );
      const more = start + limit < matching.length;
      return {
        items: read.filter(passes),
        ...(more ? { lastKey: { at: read.at(-1)!.at, month: read.at(-1)!.month } } : {}),
      };
    },
    keyOf: (_query, item) => ({ at: item.at, month: item.month }),
  };
};

const allPages = async (search: ReturnType<typeof createAuditSearch>, filters = {}, limit = 2) => {
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    const page = await search.search(filters, { limit, cursor });
    pages.push(page.items.map((entry) => `${entry.id}:${entry.outcome}`));
    cursor = page.nextCursor;
  } while (cursor && pages.length < 20);
  return pages;
};

describe('the audit log search', () => {
  it('lists each call once, newest first, with its outcome; an attempt without one as unknown', async () => {
    const store = memoryStore([...call('c1', 50), ...call('c2', 40), record('c3', 30), ...call('c4', 20)]);
    const search = createAuditSearch({ store, now: () => NOW });
    const page = await search.search({}, { limit: 10 });
    expect(page.items.map((entry) => [entry.id, entry.outcome])).toEqual([
      ['c4', 'succeeded'],
      ['c3', 'unknown'],
      ['c2', 'succeeded'],
      ['c1', 'succeeded'],
    ]);
    expect(page.items[0]).toMatchObject({
      before: { a: 1 },
      after: { a: 2 },
      status: 200,
      target: { kind: 'user', id: 'person-c4' },
    });
  });

  it('pages without showing an attempt whose outcome ended the page before, nor losing any call', async () => {
    const store = memoryStore([
      ...call('c1', 50),
      ...call('c2', 40),
      record('c3', 30),
      ...call('c4', 20),
      ...call('c5', 10),
    ]);
    const search = createAuditSearch({ store, now: () => NOW });
    for (const limit of [1, 2, 3]) {
      const shown = (await allPages(search, {}, limit)).flat();
      expect([limit, shown]).toEqual([
        limit,
        ['c5:succeeded', 'c4:succeeded', 'c3:unknown', 'c2:succeeded', 'c1:succeeded'],
      ]);
    }
  });

  it('searches by target, actor or action on its index, the other filters applied on the way', async () => {
    const store = memoryStore([
      ...call('a', 30, { target: { kind: 'parameter', id: 'banner' }, action: 'parameter.update' }),
      ...call('b', 20, { actor: { id: 'admin-2', groups: ['Administrators'] } }),
      ...call('c', 10, { target: { kind: 'parameter', id: 'banner' }, action: 'parameter.delete' }),
    ]);
    const search = createAuditSearch({ store, now: () => NOW });
    expect((await search.search({ target: 'banner' }, { limit: 10 })).items.map((e) => e.id)).toEqual(['c', 'a']);
    expect(
      (await search.search({ target: 'banner', action: 'parameter.update' }, { limit: 10 })).items.map((e) => e.id),
    ).toEqual(['a']);
    expect((await search.search({ actor: 'admin-2' }, { limit: 10 })).items.map((e) => e.id)).toEqual(['b']);
    expect((await search.search({ action: 'parameter.delete' }, { limit: 10 })).items.map((e) => e.id)).toEqual(['c']);
    expect(store.queries.map((q) => q.index)).toEqual(['byTarget', 'byTarget', 'byActor', 'byAction']);
    expect(store.queries[1]!.filters).toEqual({ action: 'parameter.update' });
  });

  it('keeps to the time range, from inclusive and to exclusive', async () => {
    const store = memoryStore([...call('old', 30), ...call('mid', 20), ...call('new', 10)]);
    const search = createAuditSearch({ store, now: () => NOW });
    const page = await search.search({ from: NOW - 20 * MINUTE, to: NOW - 10 * MINUTE }, { limit: 10 });
    expect(page.items.map((e) => e.id)).toEqual(['mid']);
  });

  it('walks the months back, newest first, never past the retention', () => {
    expect(monthsBetween(Date.UTC(2026, 8, 20), Date.UTC(2026, 10, 18))).toEqual(['2026-11', '2026-10', '2026-09']);
    const plan = planSearch({}, NOW);
    expect(plan[0]!.partition).toBe('2026-11');
    expect(plan.at(-1)!.partition).toBe(new Date(NOW - AUDIT_RETENTION_MS).toISOString().slice(0, 7));
    expect(plan).toHaveLength(25);
    expect(planSearch({ to: NOW - AUDIT_RETENTION_MS - 1 }, NOW)).toEqual([]);
  });

  it('finds calls of an earlier month on a later page when this month has too few', async () => {
    const store = memoryStore([...call('sept', 60 * 24 * 65), ...call('nov', 10)]);
    const search = createAuditSearch({ store, now: () => NOW });
    expect((await allPages(search, {}, 5)).flat()).toEqual(['nov:succeeded', 'sept:succeeded']);
  });

  it('refuses a cursor it did not make', async () => {
    const search = createAuditSearch({ store: memoryStore([]), now: () => NOW });
    await expect(search.search({}, { limit: 5, cursor: 'not-a-cursor' })).rejects.toBeInstanceOf(BadRequest);
    const forged = Buffer.from(JSON.stringify({ q: 99 })).toString('base64url');
    await expect(search.search({}, { limit: 5, cursor: forged })).rejects.toBeInstanceOf(BadRequest);
  });
});
