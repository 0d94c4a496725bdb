import { deployHook } from '../_shared/deploy/deploy-hook';
import { readEnv } from '../_shared/env';
import { log } from '../_shared/logger';
import { createMigrateDeps, MIGRATE_ENV } from './deps';

const env = readEnv(MIGRATE_ENV);

/** The runner's budget: inside the function's 15-minute limit, with time to record where it stopped. */
export const DEPLOY_RUN_BUDGET_MS = 13 * 60_000;

/**
 * Runs the pending migrations when a deploy creates or updates the migrations resource (its properties carry
 * every migration id, so a deploy that adds one updates it). A failed migration does not fail the deploy: a
 * rollback would run the same code again; it is logged as an error and shown on the admin page, and runs again
 * at the next deploy or from there.
 */
export const handler = deployHook(
  'MigrationsRunner',
  async ({ migrations }) => {
    const run = await migrations.runPending({ by: 'deploy', budgetMs: DEPLOY_RUN_BUDGET_MS });
    if (run.failed) {
      const failed = run.migrations.find((migration) => migration.id === run.failed);
      log('error', 'Migration failed', { migration: run.failed, error: failed?.error });
    }
    return { finished: run.finished.join(','), failed: run.failed ?? '', more: run.more };
  },
  { deps: () => createMigrateDeps(env) },
);
