import { createMigrationRunner, LEASE_MS, LeaseLost, type MigrationRecord, type MigrationStore } from './runner';

const CATALOGUE = [
  { id: 'm1', description: 'first' },
  { id: 'm2', description: 'second' },
];

/** The store's contract as the DynamoDB one keeps it: claims refused while a live lease holds. */
const memoryStore = (): MigrationStore & { rows: Map<string, MigrationRecord> } => {
  const rows = new Map<string, MigrationRecord>();
  return {
    rows,
    all: async () => [...rows.values()].map((row) => ({ ...row })),
    claim: async (id, by, now, leaseUntil) => {
      const row = rows.get(id);
      if (row && !(row.status === 'failed' || (row.status === 'running' && row.leaseUntil <= now))) return undefined;
      const { error: _e, finishedAt: _f, ...rest } = row ?? ({} as Partial<MigrationRecord>);
      const next = {
        ...rest,
        id,
        status: 'running' as const,
        runBy: by,
        startedAt: now,
        leaseUntil,
        counts: row?.counts ?? { scanned: 0, updated: 0, skipped: 0 },
      } as MigrationRecord;
      rows.set(id, next);
      return { ...next };
    },
    progress: async (record) => {
      const row = rows.get(record.id);
      if (!row || row.runBy !== record.runBy || row.startedAt !== record.startedAt) throw new LeaseLost(record.id);
      rows.set(record.id, { ...record });
    },
  };
};

/** A migration of `pages` pages, 10 rows each; `failAt` throws on that page. */
const paged = (pages: number, calls: (string | undefined)[], failAt?: number) => async (cursor: string | undefined) => {
  calls.push(cursor);
  const page = cursor === undefined ? 0 : Number(cursor);
  if (page === failAt) throw new Error(`page ${page} broke`);
  return {
    scanned: 10,
    updated: 2,
    skipped: 1,
    ...(page + 1 < pages ? { nextCursor: String(page + 1) } : {}),
  };
};

describe('the migration runner', () => {
  it('runs each pending migration to the end, in order, once: a second run does nothing', async () => {
    const store = memoryStore();
    const m1: (string | undefined)[] = [];
    const m2: (string | undefined)[] = [];
    let clock = 1_000;
    const runner = createMigrationRunner({
      store,
      steps: { m1: paged(3, m1), m2: paged(1, m2) } as never,
      now: () => clock++,
      catalogue: CATALOGUE,
    });
    const first = await runner.runPending({ by: 'deploy', budgetMs: 60_000 });
    expect(first.finished).toEqual(['m1', 'm2']);
    expect(first.more).toBe(false);
    expect(m1).toEqual([undefined, '1', '2']);
    expect(first.migrations.map((m) => [m.id, m.status, m.counts.scanned, m.runBy])).toEqual([
      ['m1', 'succeeded', 30, 'deploy'],
      ['m2', 'succeeded', 10, 'deploy'],
    ]);

    const second = await runner.runPending({ by: 'someone', budgetMs: 60_000 });
    expect(second.finished).toEqual([]);
    expect(m1).toHaveLength(3);
    expect(m2).toHaveLength(1);
  });

  it('stops at its budget and goes on from where it stopped', async () => {
    const store = memoryStore();
    const calls: (string | undefined)[] = [];
    let clock = 0;
    const runner = createMigrationRunner({
      store,
      steps: {
        m1: async (cursor: string | undefined) => {
          clock += 400;
          return paged(5, calls)(cursor);
        },
        m2: paged(1, []),
      } as never,
      now: () => clock,
      catalogue: CATALOGUE,
    });
    const first = await runner.runPending({ by: 'http', budgetMs: 1_000 });
    expect(first).toMatchObject({ finished: [], more: true });
    expect(calls).toEqual([undefined, '1', '2']);
    expect(store.rows.get('m1')).toMatchObject({ status: 'running', cursor: '3' });

    // Its lease was given back when it stopped, so the next run may take it at once.
    const second = await runner.runPending({ by: 'http', budgetMs: 10_000 });
    expect(second.finished).toEqual(['m1', 'm2']);
    expect(calls).toEqual([undefined, '1', '2', '3', '4']);
    expect(second.migrations[0]!.counts.scanned).toBe(50);
  });

  it('records a failure with its message, stops the run there, and runs it again next time', async () => {
    const store = memoryStore();
    const calls: (string | undefined)[] = [];
    let broken = true;
    const m2: (string | undefined)[] = [];
    const runner = createMigrationRunner({
      store,
      steps: {
        m1: (cursor: string | undefined) => paged(3, calls, broken ? 1 : undefined)(cursor),
        m2: paged(1, m2),
      } as never,
      now: () => 5_000,
      catalogue: CATALOGUE,
    });
    const failed = await runner.runPending({ by: 'deploy', budgetMs: 60_000 });
    expect(failed).toMatchObject({ finished: [], failed: 'm1', more: false });
    expect(failed.migrations[0]).toMatchObject({ status: 'failed', error: 'page 1 broke' });
    expect(failed.migrations[1]!.status).toBe('pending');
    expect(m2).toEqual([]);

    broken = false;
    const again = await runner.runPending({ by: 'deploy', budgetMs: 60_000 });
    expect(again.finished).toEqual(['m1', 'm2']);
    // It went on from the page that broke, not from the start.
    expect(calls).toEqual([undefined, '1', '1', '2']);
    expect(again.migrations[0]!.error).toBeUndefined();
  });

  it('leaves a migration another runner holds, and takes it over once that lease has run out', async () => {
    const store = memoryStore();
    store.rows.set('m1', {
      id: 'm1',
      status: 'running',
      counts: { scanned: 0, updated: 0, skipped: 0 },
      startedAt: 0,
      runBy: 'other',
      leaseUntil: LEASE_MS,
    });
    let clock = 5_000;
    const runner = createMigrationRunner({
      store,
      steps: { m1: paged(1, []), m2: paged(1, []) } as never,
      now: () => clock,
      catalogue: CATALOGUE,
    });
    expect(await runner.runPending({ by: 'me', budgetMs: 60_000 })).toMatchObject({ finished: [], more: true });
    clock = LEASE_MS;
    expect((await runner.runPending({ by: 'me', budgetMs: 60_000 })).finished).toEqual(['m1', 'm2']);
  });

  it('a runner whose migration was taken over stops without writing', async () => {
    const store = memoryStore();
    const runner = createMigrationRunner({
      store,
      steps: {
        m1: async () => {
          // Another runner takes it over mid-step.
          store.rows.set('m1', { ...store.rows.get('m1')!, runBy: 'other', startedAt: 99 });
          return { scanned: 1, updated: 1, skipped: 0, nextCursor: 'x' };
        },
        m2: paged(1, []),
      } as never,
      now: () => 1,
      catalogue: CATALOGUE,
    });
    expect(await runner.runPending({ by: 'me', budgetMs: 60_000 })).toMatchObject({ finished: [], more: true });
    expect(store.rows.get('m1')).toMatchObject({ runBy: 'other', counts: { scanned: 0 } });
  });
});
