import { getDocumentClient } from '../_shared/clients';
import { readEnv } from '../_shared/env';
import { createAuditSearch } from './domain/audit-search';
import { createParameters } from './domain/parameters';
import { createTierFeatures } from './domain/tier-features';
import { createAuditSearchStore } from './store/audit-search-store';
import { createParameterStore } from './store/parameter-store';

export const SYSTEM_ENV = { parametersTable: 'PARAMETERS_TABLE', auditLogTable: 'AUDIT_LOG_TABLE' } as const;

export const createSystemDeps = (env = readEnv(SYSTEM_ENV)) => {
  const db = getDocumentClient();
  const store = createParameterStore({ db, tableName: env.parametersTable });
  return {
    parameters: createParameters({ store, now: Date.now }),
    tierFeatures: createTierFeatures({ store, now: Date.now }),
    // The audit log's search (docs/audit.md); the chain writes the log, this only reads it.
    audit: createAuditSearch({ store: createAuditSearchStore({ db, tableName: env.auditLogTable }), now: Date.now }),
  };
};

export type SystemDeps = ReturnType<typeof createSystemDeps>;
