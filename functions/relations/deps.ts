import { randomUUID } from 'node:crypto';
import { createAccessVersionStore } from '../_shared/access/access-version-store';
import { ACCESS_ENV, createAccessModule } from '../_shared/access/access-wiring';
import { getDocumentClient, getSqsClient } from '../_shared/clients';
import { createEventPublisher } from '../_shared/events/event-publisher';
import { log } from '../_shared/logger';
import { createRelationTable } from '../_shared/relations/relation-table';
import { createObjectNames } from './domain/object-names';
import { createRelations } from './domain/relations';
import { createObjectNameStore } from './store/object-name-store';

export const RELATIONS_ENV = {
  ...ACCESS_ENV,
  jobsQueueUrl: 'JOBS_QUEUE_URL',
  // Names beside ids (POST /names): read only, `id` and `name`.
  devicesTable: 'DEVICES_TABLE',
  organizationsTable: 'ORGANIZATIONS_TABLE',
} as const;

export const createRelationsDeps = (env: Record<keyof typeof RELATIONS_ENV, string>) => {
  const db = getDocumentClient();
  const table = createRelationTable({ db, tableName: env.relationsTable });
  const versions = createAccessVersionStore({ db, tableName: env.accessVersionsTable });
  const access = createAccessModule(env);
  return {
    names: createObjectNames({
      access,
      relations: table,
      store: createObjectNameStore({
        db,
        tables: { device: env.devicesTable, organization: env.organizationsTable, campaign: env.campaignsTable },
      }),
    }),
    relations: createRelations({
      log,
      table,
      access,
      versions,
      events: createEventPublisher({ sqs: getSqsClient(), queueUrl: env.jobsQueueUrl }),
      now: Date.now,
      newId: randomUUID,
    }),
  };
};

export type RelationsDeps = ReturnType<typeof createRelationsDeps>;
