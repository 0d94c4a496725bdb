import { randomUUID } from 'node:crypto';
import { getDocumentClient, getS3Client, getSqsClient } from '../_shared/clients';
import { createDeviceUpdates } from '../_shared/code-releases/device-updates';
import { createRolloutTargets } from '../_shared/code-releases/rollout-targets';
import { createEventPublisher } from '../_shared/events/event-publisher';
import { log } from '../_shared/logger';
import { createQueueSender, type QueueSender } from '../_shared/queue/queue-sender';
import { createRelationTable } from '../_shared/relations/relation-table';
import { type PrepareMessage, prepareGroupOf } from './domain/prepare-message';
import { createReleases } from './domain/releases';
import { createRolloutPrepare } from './domain/rollout-prepare';
import { createRolloutStages } from './domain/rollout-stages';
import { createRollouts } from './domain/rollouts';
import { createArtifactFiles } from './store/artifact-files';
import { createFleet, createOrganizationsOfDevices } from './store/fleet';
import { createPeople } from './store/people';
import { createReleaseStore } from './store/release-store';
import { createRolloutStore } from './store/rollout-store';
import { createTestRunStore } from './store/test-run-store';

/** What the code-releases area reads (SERVICE_RESOURCES['code-releases']; the local stack likewise). */
export const CODE_RELEASES_ENV = {
  releasesTable: 'CODE_RELEASES_TABLE',
  testRunsTable: 'RELEASE_TEST_RUNS_TABLE',
  rolloutsTable: 'RELEASE_ROLLOUTS_TABLE',
  rolloutTargetsTable: 'ROLLOUT_TARGETS_TABLE',
  devicesTable: 'DEVICES_TABLE',
  relationsTable: 'RELATIONS_TABLE',
  campaignsTable: 'CAMPAIGNS_TABLE',
  organizationsTable: 'ORGANIZATIONS_TABLE',
  usersTable: 'USERS_TABLE',
  releasesBucket: 'RELEASES_BUCKET',
  jobsQueueUrl: 'JOBS_QUEUE_URL',
  rolloutsQueueUrl: 'ROLLOUTS_QUEUE_URL',
} as const;

export type CodeReleasesEnv = Record<keyof typeof CODE_RELEASES_ENV, string>;

/** The stores both the API and the stage job use. */
const createStores = (env: CodeReleasesEnv) => {
  const db = getDocumentClient();
  const targets = createRolloutTargets({ db, targetsTable: env.rolloutTargetsTable, rolloutsTable: env.rolloutsTable });
  const relations = createRelationTable({ db, tableName: env.relationsTable });
  return {
    db,
    releases: createReleaseStore({ db, tableName: env.releasesTable }),
    rollouts: createRolloutStore({ db, tableName: env.rolloutsTable }),
    targets,
    relations,
    fleet: createFleet({
      db,
      devicesTable: env.devicesTable,
      campaignsTable: env.campaignsTable,
      organizationsTable: env.organizationsTable,
      relations,
    }),
    work: createQueueSender<PrepareMessage>({
      sqs: getSqsClient(),
      queueUrl: env.rolloutsQueueUrl,
      queueName: 'rollouts',
      groupOf: prepareGroupOf,
    }),
  };
};

/**
 * `now` stands in for the clock where a caller measures with a fixed one (the rollouts bench); `inlineDevices` and
 * `work` let a browser test hold a small rollout in `preparing` (it sends the held step itself). Lambdas take the
 * defaults.
 */
export const createCodeReleasesDeps = (
  env: CodeReleasesEnv,
  options: { now?: () => number; inlineDevices?: number; work?: Pick<QueueSender<PrepareMessage>, 'send'> } = {},
) => {
  const { now = Date.now } = options;
  const stores = createStores(env);
  const { db, releases, rollouts, targets, fleet } = stores;
  const work = options.work ?? stores.work;
  const testRuns = createTestRunStore({ db, tableName: env.testRunsTable });
  const people = createPeople({ db, tableName: env.usersTable });
  return {
    releases: createReleases({
      log,
      releases,
      testRuns,
      files: createArtifactFiles({ s3: getS3Client(), bucket: env.releasesBucket }),
      people,
      now,
      newId: randomUUID,
    }),
    rollouts: createRollouts({
      log,
      releases,
      testRuns,
      rollouts,
      targets,
      fleet,
      people,
      work,
      ...(options.inlineDevices === undefined ? {} : { inlineDevices: options.inlineDevices }),
      now,
      newId: randomUUID,
    }),
  };
};

export type CodeReleasesDeps = ReturnType<typeof createCodeReleasesDeps>;

/** The rollouts queue's worker (worker.ts): a preparing rollout's assignment steps (decision 114). */
export const createRolloutPrepareDeps = (env: CodeReleasesEnv, { now = Date.now }: { now?: () => number } = {}) => {
  const { rollouts, targets, fleet, work } = createStores(env);
  return { prepare: createRolloutPrepare({ log, rollouts, targets, fleet, work, now }) };
};

/** The stage job's use case (rollout-job.ts): no S3 client, no test runs. */
export const createRolloutStagesDeps = (env: CodeReleasesEnv, { now = Date.now }: { now?: () => number } = {}) => {
  const { releases, rollouts, targets, relations } = createStores(env);
  return {
    stages: createRolloutStages({
      log,
      rollouts,
      targets,
      updates: createDeviceUpdates({ store: targets, now, log }),
      releases,
      organizations: createOrganizationsOfDevices({ relations }),
      notices: createEventPublisher({ sqs: getSqsClient(), queueUrl: env.jobsQueueUrl }),
    }),
  };
};
