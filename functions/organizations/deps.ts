import { randomUUID } from 'node:crypto';
import { createAccessVersionStore } from '../_shared/access/access-version-store';
import { ACCESS_ENV, createAccessModule } from '../_shared/access/access-wiring';
import { getDocumentClient, getS3Client, getSqsClient } from '../_shared/clients';
import { readEnv } from '../_shared/env';
import { createEventPublisher } from '../_shared/events/event-publisher';
import { createRelationEffects } from '../_shared/relations/relation-effects';
import { createRelationTable } from '../_shared/relations/relation-table';
import { createOrganizations } from './domain/organizations';
import { createLogoFiles } from './store/logo-files';
import { createOrganizationStore } from './store/organization-store';

/** What the organizations area reads (the CDK sets each from SERVICE_RESOURCES.organizations; the local stack likewise). */
export const ORGANIZATIONS_ENV = {
  ...ACCESS_ENV,
  organizationsTable: 'ORGANIZATIONS_TABLE',
  logoBucket: 'LOGO_BUCKET',
  jobsQueueUrl: 'JOBS_QUEUE_URL',
} as const;

export const createOrganizationsDeps = (env = readEnv(ORGANIZATIONS_ENV)) => {
  const db = getDocumentClient();
  return {
    organizations: createOrganizations({
      store: createOrganizationStore({ db, tableName: env.organizationsTable }),
      logos: createLogoFiles({ s3: getS3Client(), bucket: env.logoBucket }),
      table: createRelationTable({ db, tableName: env.relationsTable }),
      effects: createRelationEffects({
        versions: createAccessVersionStore({ db, tableName: env.accessVersionsTable }),
        events: createEventPublisher({ sqs: getSqsClient(), queueUrl: env.jobsQueueUrl }),
        now: Date.now,
        newId: randomUUID,
      }),
      access: createAccessModule(env),
      now: Date.now,
      newId: randomUUID,
    }),
  };
};

export type OrganizationsDeps = ReturnType<typeof createOrganizationsDeps>;
