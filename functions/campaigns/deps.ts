import { randomUUID } from 'node:crypto';
import { createAccessVersionStore } from '../_shared/access/access-version-store';
import { ACCESS_ENV, createAccessModule } from '../_shared/access/access-wiring';
import { getDocumentClient, getSqsClient } from '../_shared/clients';
import { readEnv } from '../_shared/env';
import { createEventPublisher } from '../_shared/events/event-publisher';
import { createRelationEffects } from '../_shared/relations/relation-effects';
import { createRelationTable } from '../_shared/relations/relation-table';
import { createCampaigns } from './domain/campaigns';
import { createCampaignStore } from './store/campaign-store';
import { createOrganizationReader } from './store/organization-reader';

/** ACCESS_ENV already names CAMPAIGNS_TABLE (the access module reads windows from it; this area writes it). */
export const CAMPAIGNS_ENV = {
  ...ACCESS_ENV,
  organizationsTable: 'ORGANIZATIONS_TABLE',
  jobsQueueUrl: 'JOBS_QUEUE_URL',
} as const;

export const createCampaignsDeps = (env = readEnv(CAMPAIGNS_ENV)) => {
  const db = getDocumentClient();
  const versions = createAccessVersionStore({ db, tableName: env.accessVersionsTable });
  return {
    campaigns: createCampaigns({
      store: createCampaignStore({ db, tableName: env.campaignsTable }),
      organizations: createOrganizationReader({ db, tableName: env.organizationsTable }),
      relations: createRelationTable({ db, tableName: env.relationsTable }),
      effects: createRelationEffects({
        versions,
        events: createEventPublisher({ sqs: getSqsClient(), queueUrl: env.jobsQueueUrl }),
        now: Date.now,
        newId: randomUUID,
      }),
      versions,
      access: createAccessModule(env),
      now: Date.now,
      newId: randomUUID,
    }),
  };
};

export type CampaignsDeps = ReturnType<typeof createCampaignsDeps>;
