import type { migrate } from '../../../shared/contracts/migrate';
import type { AreaHandlers } from '../../_shared/http/http-area';
import type { MigrateDeps } from '../deps';

/** A run from the admin page stays well inside API Gateway's 29 s; `more` says to press again. */
export const HTTP_RUN_BUDGET_MS = 20_000;

export const migrationHandlers: AreaHandlers<typeof migrate, MigrateDeps> = {
  listMigrations: async (_request, { migrations }) => ({ items: await migrations.list() }),
  runMigrations: ({ caller }, { migrations }) =>
    migrations.runPending({ by: caller.sub, budgetMs: HTTP_RUN_BUDGET_MS }),
};
