import { getDocumentClient } from '../clients';
import { readWholeNumberEnv } from '../env';
import { createRelationTable } from '../relations/relation-table';
import { ACCESS_SETTLE_MS, createAccess } from './access';
import { createAccessCache } from './access-cache';
import { createAccessVersionStore } from './access-version-store';
import { createCampaignWindowStore } from './campaign-window-store';

/**
 * The variables every area that checks object access reads (its Lambda holds read grants on these tables:
 * SERVICE_RESOURCES lists `campaigns` in the readTables of each such area that does not own it).
 */
export const ACCESS_ENV = {
  relationsTable: 'RELATIONS_TABLE',
  accessVersionsTable: 'ACCESS_VERSIONS_TABLE',
  /** Campaign data windows, carried by decisions reached through the campaign path (docs/campaigns.md). */
  campaignsTable: 'CAMPAIGNS_TABLE',
} as const;

/**
 * How long after a relation change a decision is not cached (see AccessDeps.settleMs), in ms: DynamoDB's
 * ACCESS_SETTLE_MS unless set. The local stack sets 0: the emulator's indexes are consistent, unlike DynamoDB's.
 */
const SETTLE_MS_ENV = 'ACCESS_INDEX_SETTLE_MS';

/** The access module over the real tables, with one cache per Lambda instance. */
export const createAccessModule = (env: Record<keyof typeof ACCESS_ENV, string>) =>
  createAccess({
    relations: createRelationTable({ db: getDocumentClient(), tableName: env.relationsTable }),
    versions: createAccessVersionStore({ db: getDocumentClient(), tableName: env.accessVersionsTable }),
    cache: createAccessCache(),
    campaigns: createCampaignWindowStore({ db: getDocumentClient(), tableName: env.campaignsTable }),
    now: Date.now,
    settleMs: readWholeNumberEnv(SETTLE_MS_ENV, ACCESS_SETTLE_MS),
  });
