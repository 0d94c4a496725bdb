import { randomUUID } from 'node:crypto';
import { createAccessVersionStore } from '../access/access-version-store';
import { getDocumentClient, getSqsClient } from '../clients';
import { createEventPublisher } from '../events/event-publisher';
import { createRelationEffects } from './relation-effects';
import { createRelationTable } from './relation-table';

/** The variables an area that writes relations reads (beside its own). */
type RelationWritesEnv = Record<'relationsTable' | 'accessVersionsTable' | 'jobsQueueUrl', string>;

/**
 * What an area needs to write relations over the real tables: the relation table, the access versions, and
 * the effects of its writes (the users' access versions raised, relation.changed events on the jobs queue).
 */
export const createRelationWrites = (env: RelationWritesEnv) => {
  const db = getDocumentClient();
  const versions = createAccessVersionStore({ db, tableName: env.accessVersionsTable });
  return {
    table: createRelationTable({ db, tableName: env.relationsTable }),
    versions,
    effects: createRelationEffects({
      versions,
      events: createEventPublisher({ sqs: getSqsClient(), queueUrl: env.jobsQueueUrl }),
      now: Date.now,
      newId: randomUUID,
    }),
  };
};
