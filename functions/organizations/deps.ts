import { randomUUID } from 'node:crypto';
import { ACCESS_ENV, createAccessModule } from '../_shared/access/access-wiring';
import { getDocumentClient, getS3Client } from '../_shared/clients';
import { log } from '../_shared/logger';
import { createRelationWrites } from '../_shared/relations/relation-wiring';
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

export const createOrganizationsDeps = (env: Record<keyof typeof ORGANIZATIONS_ENV, string>) => {
  const db = getDocumentClient();
  const relations = createRelationWrites(env);
  return {
    organizations: createOrganizations({
      log,
      store: createOrganizationStore({ db, tableName: env.organizationsTable }),
      logos: createLogoFiles({ s3: getS3Client(), bucket: env.logoBucket }),
      table: relations.table,
      effects: relations.effects,
      access: createAccessModule(env),
      now: Date.now,
      newId: randomUUID,
    }),
  };
};

export type OrganizationsDeps = ReturnType<typeof createOrganizationsDeps>;
