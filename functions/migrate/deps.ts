import { createAccessVersionStore } from '../_shared/access/access-version-store';
import { createSubscriptionHistory } from '../_shared/billing/subscription-history';
import { getDocumentClient } from '../_shared/clients';
import { createRelationMigration } from '../_shared/relations/relation-migration';
import { createRelationTable } from '../_shared/relations/relation-table';
import { createMigrationRunner } from './domain/runner';
import { migrationSteps, STEP_SIZE } from './migrations/steps';
import { createMigrationStore } from './store/migration-store';
import { createPresenceItemsRemoval } from './store/presence-items';
import { createTablePages } from './store/table-pages';

/** What the migrations touch; each one's tables are the migrate area's grants (infra/definitions/services.ts). */
export const MIGRATE_ENV = {
  migrationsTable: 'MIGRATIONS_TABLE',
  relationsTable: 'RELATIONS_TABLE',
  accessVersionsTable: 'ACCESS_VERSIONS_TABLE',
  deviceSubscriptionsTable: 'DEVICE_SUBSCRIPTIONS_TABLE',
  deviceSubscriptionHistoryTable: 'DEVICE_SUBSCRIPTION_HISTORY_TABLE',
  webhooksTable: 'WEBHOOKS_TABLE',
  webhookDeliveriesTable: 'WEBHOOK_DELIVERIES_TABLE',
} as const;

export type MigrateEnv = Record<keyof typeof MIGRATE_ENV, string>;

export const createMigrateDeps = (env: MigrateEnv) => {
  const db = getDocumentClient();
  return {
    migrations: createMigrationRunner({
      store: createMigrationStore({ db, tableName: env.migrationsTable }),
      steps: migrationSteps({
        relations: createRelationMigration({
          table: createRelationTable({ db, tableName: env.relationsTable }),
          versions: createAccessVersionStore({ db, tableName: env.accessVersionsTable }),
          now: Date.now,
        }),
        subscriptionPage: createTablePages({ db, tableName: env.deviceSubscriptionsTable, limit: STEP_SIZE }),
        putHistory: createSubscriptionHistory({ db, tableName: env.deviceSubscriptionHistoryTable }).put,
        webhookPage: createTablePages({ db, tableName: env.webhooksTable, limit: STEP_SIZE }),
        removePresenceItems: createPresenceItemsRemoval({ db, tableName: env.webhookDeliveriesTable }),
      }),
      now: Date.now,
    }),
  };
};

export type MigrateDeps = ReturnType<typeof createMigrateDeps>;
