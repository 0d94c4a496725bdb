import { randomUUID } from 'node:crypto';
import { createAccessVersionStore } from '../_shared/access/access-version-store';
import { ACCESS_ENV, createAccessModule } from '../_shared/access/access-wiring';
import { getDocumentClient, getSqsClient } from '../_shared/clients';
import { readEnv } from '../_shared/env';
import { createEventPublisher } from '../_shared/events/event-publisher';
import { createRelationTable } from '../_shared/relations/relation-table';
import { createRelations } from './domain/relations';

export const RELATIONS_ENV = { ...ACCESS_ENV, jobsQueueUrl: 'JOBS_QUEUE_URL' } as const;

export const createRelationsDeps = (env = readEnv(RELATIONS_ENV)) => {
  const db = getDocumentClient();
  const table = createRelationTable({ db, tableName: env.relationsTable });
  const versions = createAccessVersionStore({ db, tableName: env.accessVersionsTable });
  return {
    relations: createRelations({
      table,
      access: createAccessModule(env),
      versions,
      events: createEventPublisher({ sqs: getSqsClient(), queueUrl: env.jobsQueueUrl }),
      now: Date.now,
      newId: randomUUID,
    }),
  };
};

export type RelationsDeps = ReturnType<typeof createRelationsDeps>;
