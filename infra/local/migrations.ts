import type { MigrationRun } from '../../shared/contracts/migrate';

/** Each round's budget; rounds go on until nothing is pending (a local data set is small). */
const ROUND_MS = 60_000;

/**
 * The deploy-time runner's work, on this machine: every pending migration, in order, against the tables the
 * environment variables name (set by the local stack, or by `npm run migrate` from `.local/stack.json`).
 */
export const runLocalMigrations = async (by: string, log: (line: string) => void): Promise<MigrationRun> => {
  // Imported here, once the environment names the tables: the migrate area's clients read it when they are built.
  const [{ createMigrateDeps, MIGRATE_ENV }, { readEnv }] = await Promise.all([
    import('../../functions/migrate/deps'),
    import('../../functions/_shared/env'),
  ]);
  const { migrations } = createMigrateDeps(readEnv(MIGRATE_ENV));
  for (;;) {
    const run = await migrations.runPending({ by, budgetMs: ROUND_MS });
    for (const id of run.finished) log(`migration ${id}: done`);
    if (run.failed) {
      const failed = run.migrations.find((migration) => migration.id === run.failed);
      log(`migration ${run.failed} FAILED: ${failed?.error ?? 'unknown error'} (it runs again next time)`);
      return run;
    }
    if (!run.more) return run;
  }
};
