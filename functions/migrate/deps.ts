import { createSubscriptionHistory } from '../_shared/billing/subscription-history';
import { getDocumentClient } from '../_shared/clients';
import { readEnv } from '../_shared/env';
import { createRelationsDeps, RELATIONS_ENV } from '../relations/deps';
import { createMigrationRunner } from './domain/runner';
import { migrationSteps, STEP_SIZE } from './migrations/steps';
import { createMigrationStore } from './store/migration-store';
import { scanPage } from './store/table-pages';

/** What the migrations touch; each one's tables are the migrate area's grants (infra/definitions/services.ts). */
export const MIGRATE_ENV = {
  ...RELATIONS_ENV,
  migrationsTable: 'MIGRATIONS_TABLE',
  deviceSubscriptionsTable: 'DEVICE_SUBSCRIPTIONS_TABLE',
  deviceSubscriptionHistoryTable: 'DEVICE_SUBSCRIPTION_HISTORY_TABLE',
} as const;

export const createMigrateDeps = (env = readEnv(MIGRATE_ENV)) => {
  const db = getDocumentClient();
  // The relations migration is the relations area's own page-by-page migration (its GET /migrate/ route).
  const { relations } = createRelationsDeps(env);
  return {
    migrations: createMigrationRunner({
      store: createMigrationStore({ db, tableName: env.migrationsTable }),
      steps: migrationSteps({
        relations,
        subscriptionPage: (cursor) =>
          scanPage(db, env.deviceSubscriptionsTable, { limit: STEP_SIZE, ...(cursor ? { cursor } : {}) }),
        putHistory: createSubscriptionHistory({ db, tableName: env.deviceSubscriptionHistoryTable }).put,
      }),
      now: Date.now,
    }),
  };
};

export type MigrateDeps = ReturnType<typeof createMigrateDeps>;
