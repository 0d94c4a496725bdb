import { migrateAudit } from '../../shared/contracts/audit/migrate';
import { migrate } from '../../shared/contracts/migrate';
import { readEnv } from '../_shared/env';
import { httpArea } from '../_shared/http/http-area';
import { createMigrateDeps, MIGRATE_ENV } from './deps';
import { migrationHandlers } from './handlers/migrations';

const env = readEnv(MIGRATE_ENV);

export const handler = httpArea(migrate, migrationHandlers, {
  audit: migrateAudit,
  deps: () => createMigrateDeps(env),
});
