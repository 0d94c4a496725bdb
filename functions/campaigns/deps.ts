import { randomUUID } from 'node:crypto';
import { ACCESS_ENV, createAccessModule } from '../_shared/access/access-wiring';
import { getDocumentClient } from '../_shared/clients';
import { log } from '../_shared/logger';
import { createRelationWrites } from '../_shared/relations/relation-wiring';
import { createCampaigns } from './domain/campaigns';
import { createCampaignStore } from './store/campaign-store';
import { createOrganizationReader } from './store/organization-reader';

/** ACCESS_ENV already names CAMPAIGNS_TABLE (the access module reads windows from it; this area writes it). */
export const CAMPAIGNS_ENV = {
  ...ACCESS_ENV,
  organizationsTable: 'ORGANIZATIONS_TABLE',
  jobsQueueUrl: 'JOBS_QUEUE_URL',
} as const;

export const createCampaignsDeps = (env: Record<keyof typeof CAMPAIGNS_ENV, string>) => {
  const db = getDocumentClient();
  const relations = createRelationWrites(env);
  return {
    campaigns: createCampaigns({
      log,
      store: createCampaignStore({ db, tableName: env.campaignsTable }),
      organizations: createOrganizationReader({ db, tableName: env.organizationsTable }),
      relations: relations.table,
      effects: relations.effects,
      versions: relations.versions,
      access: createAccessModule(env),
      now: Date.now,
      newId: randomUUID,
    }),
  };
};

export type CampaignsDeps = ReturnType<typeof createCampaignsDeps>;
