import type { Migration, MigrationCounts, MigrationRun } from '../../../shared/contracts/migrate';
import { MIGRATIONS, type MigrationId } from '../migrations/catalogue';

/** One bounded page of a migration's work; `nextCursor` undefined when it is done. Must be idempotent. */
export type MigrationStep = (cursor: string | undefined) => Promise<MigrationCounts & { nextCursor?: string }>;

/** What the migrations table keeps of a migration's runs. */
export interface MigrationRecord {
  id: string;
  status: 'running' | 'succeeded' | 'failed';
  counts: MigrationCounts;
  startedAt: number;
  finishedAt?: number;
  runBy: string;
  error?: string;
  /** Where the work stopped, for the next run to go on from. */
  cursor?: string;
  /** Until when the runner that claimed it owns it; after that another may take it over. */
  leaseUntil: number;
}

export interface MigrationStore {
  all: () => Promise<MigrationRecord[]>;
  /** Takes a migration for a runner, unless it succeeded or another runner's lease holds. @returns the record */
  claim: (id: string, by: string, now: number, leaseUntil: number) => Promise<MigrationRecord | undefined>;
  /** Saves progress and extends the lease, as long as `by` still holds it. */
  progress: (record: MigrationRecord) => Promise<void>;
}

/** Raised by `progress` when another runner took the migration over (this one's lease ran out). */
export class LeaseLost extends Error {
  constructor(id: string) {
    super(`Another runner took over migration ${id}`);
    this.name = 'LeaseLost';
  }
}

/** How long a claim holds without progress: longer than any step, so a live runner is never overtaken. */
export const LEASE_MS = 5 * 60_000;

const ZERO: MigrationCounts = { scanned: 0, updated: 0, skipped: 0 };

const add = (a: MigrationCounts, b: MigrationCounts): MigrationCounts => ({
  scanned: a.scanned + b.scanned,
  updated: a.updated + b.updated,
  skipped: a.skipped + b.skipped,
});

const shown = (id: string, description: string, record?: MigrationRecord): Migration => ({
  id,
  description,
  status: record?.status ?? 'pending',
  counts: record?.counts ?? ZERO,
  ...(record
    ? {
        startedAt: record.startedAt,
        runBy: record.runBy,
        ...(record.finishedAt !== undefined ? { finishedAt: record.finishedAt } : {}),
        ...(record.error ? { error: record.error } : {}),
      }
    : {}),
});

/**
 * Runs the catalogue's migrations in order, each to completion, step by step, recording progress after every step
 * so a run stopped by its time budget, a crash or a deploy's timeout goes on where it stopped. A migration that
 * succeeded never runs again; one that failed runs again on the next run; the first failure stops the run, since a
 * later migration may rely on an earlier one.
 */
export const createMigrationRunner = ({
  store,
  steps,
  now,
  catalogue = MIGRATIONS,
}: {
  store: MigrationStore;
  steps: Record<MigrationId, MigrationStep>;
  now: () => number;
  catalogue?: readonly { id: string; description: string }[];
}) => {
  const list = async (): Promise<Migration[]> => {
    const records = new Map((await store.all()).map((record) => [record.id, record]));
    return catalogue.map(({ id, description }) => shown(id, description, records.get(id)));
  };

  return {
    list,

    runPending: async ({ by, budgetMs }: { by: string; budgetMs: number }): Promise<MigrationRun> => {
      const deadline = now() + budgetMs;
      const finished: string[] = [];
      const done = new Set((await store.all()).filter((r) => r.status === 'succeeded').map((r) => r.id));
      for (const { id } of catalogue) {
        if (done.has(id)) continue;
        const claimed = await store.claim(id, by, now(), now() + LEASE_MS);
        // Another runner holds it: what comes after may depend on it, so this run ends here.
        if (!claimed) return { finished, more: true, migrations: await list() };
        let record: MigrationRecord = claimed;
        try {
          for (;;) {
            if (now() >= deadline) {
              await store.progress({ ...record, leaseUntil: now() });
              return { finished, more: true, migrations: await list() };
            }
            const step = await steps[id as MigrationId](record.cursor);
            const { nextCursor, ...counts } = step;
            const { cursor: _previous, ...rest } = record;
            record = { ...rest, counts: add(record.counts, counts), leaseUntil: now() + LEASE_MS };
            if (nextCursor === undefined) {
              record = { ...record, status: 'succeeded', finishedAt: now(), leaseUntil: now() };
              await store.progress(record);
              finished.push(id);
              break;
            }
            record = { ...record, cursor: nextCursor };
            await store.progress(record);
          }
        } catch (error) {
          if (error instanceof LeaseLost) return { finished, more: true, migrations: await list() };
          const message = error instanceof Error ? error.message : String(error);
          await store.progress({ ...record, status: 'failed', error: message, finishedAt: now(), leaseUntil: now() });
          return { finished, failed: id, more: false, migrations: await list() };
        }
      }
      return { finished, more: false, migrations: await list() };
    },
  };
};

export type MigrationRunner = ReturnType<typeof createMigrationRunner>;
