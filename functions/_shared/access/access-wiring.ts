import { getDocumentClient } from '../clients';
import { createRelationTable } from '../relations/relation-table';
import { createAccess } from './access';
import { createAccessCache } from './access-cache';
import { createAccessVersionStore } from './access-version-store';

/** The variables every area that checks object access reads (its Lambda holds read grants on both tables). */
export const ACCESS_ENV = {
  relationsTable: 'RELATIONS_TABLE',
  accessVersionsTable: 'ACCESS_VERSIONS_TABLE',
} as const;

/**
 * Optional: how long after a relation change a decision is not cached (see AccessDeps.settleMs). The local
 * stack sets 0: the emulator's indexes are consistent, unlike DynamoDB's.
 */
const readSettleMs = (value = process.env.ACCESS_INDEX_SETTLE_MS): number | undefined => {
  if (value === undefined || value === '') return undefined;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 0) throw new Error(`ACCESS_INDEX_SETTLE_MS must be a whole number of ms: ${value}`);
  return ms;
};

/** The access module over the real tables, with one cache per Lambda instance. */
export const createAccessModule = (env: Record<keyof typeof ACCESS_ENV, string>) =>
  createAccess({
    relations: createRelationTable({ db: getDocumentClient(), tableName: env.relationsTable }),
    versions: createAccessVersionStore({ db: getDocumentClient(), tableName: env.accessVersionsTable }),
    cache: createAccessCache(),
    now: Date.now,
    settleMs: readSettleMs(),
  });
