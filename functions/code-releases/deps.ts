import { randomUUID } from 'node:crypto';
import { getDocumentClient, getS3Client } from '../_shared/clients';
import { createRolloutTargets } from '../_shared/code-releases/rollout-targets';
import { log } from '../_shared/logger';
import { createRelationTable } from '../_shared/relations/relation-table';
import { createReleases } from './domain/releases';
import { createRollouts } from './domain/rollouts';
import { createArtifactFiles } from './store/artifact-files';
import { createFleet } from './store/fleet';
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
} as const;

export const createCodeReleasesDeps = (env: Record<keyof typeof CODE_RELEASES_ENV, string>) => {
  const db = getDocumentClient();
  const releaseStore = createReleaseStore({ db, tableName: env.releasesTable });
  const testRuns = createTestRunStore({ db, tableName: env.testRunsTable });
  const people = createPeople({ db, tableName: env.usersTable });
  return {
    releases: createReleases({
      log,
      releases: releaseStore,
      testRuns,
      files: createArtifactFiles({ s3: getS3Client(), bucket: env.releasesBucket }),
      people,
      now: Date.now,
      newId: randomUUID,
    }),
    rollouts: createRollouts({
      log,
      releases: releaseStore,
      testRuns,
      rollouts: createRolloutStore({ db, tableName: env.rolloutsTable }),
      targets: createRolloutTargets({ db, targetsTable: env.rolloutTargetsTable, rolloutsTable: env.rolloutsTable }),
      fleet: createFleet({
        db,
        devicesTable: env.devicesTable,
        campaignsTable: env.campaignsTable,
        organizationsTable: env.organizationsTable,
        relations: createRelationTable({ db, tableName: env.relationsTable }),
      }),
      people,
      now: Date.now,
      newId: randomUUID,
    }),
  };
};

export type CodeReleasesDeps = ReturnType<typeof createCodeReleasesDeps>;
