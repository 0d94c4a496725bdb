import { randomUUID } from 'node:crypto';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { RouteFixture } from './authz-fixture-types';
import { firmwareBytes, freshMajor, freshVersion, seedRelease } from './code-releases';
import { freshDevice } from './sensor-data';
import { apiAs, documentClient, s3Client, stack, tokenOf } from './stack';

/**
 * The authorization matrix's fixtures for the code-releases area (functions/code-releases). Every call gets its own
 * release (written straight into the table, as the area leaves one), so a change or deletion never touches another
 * call's; a rollout's fixture has a passed test run and a device of the release's line.
 */
const draft = async () => (await seedRelease({ published: false })).id;
const published = async () => (await seedRelease()).id;

/** An uploaded (not yet verified) artifact of a draft, as the presigned PUT leaves it. */
const uploadedArtifact = async (releaseId: string) => {
  const key = `releases/${releaseId}/artifact-${randomUUID()}`;
  await s3Client().send(new PutObjectCommand({ Bucket: stack().buckets.releases!, Key: key, Body: firmwareBytes() }));
  return key;
};

const inProgressRun = async (releaseId: string) => {
  const started = Date.now();
  const id = `${String(started).padStart(13, '0')}-${randomUUID().slice(0, 8)}`;
  await documentClient().send(
    new PutCommand({
      TableName: stack().tables.releaseTestRuns!,
      Item: {
        id,
        releaseId,
        status: 'InProgress',
        name: 'Matrix',
        log: '',
        ranBy: 'matrix',
        started,
        artifactSha256: '',
      },
    }),
  );
  return id;
};

/** An active rollout of a passed release to fresh devices (two stages: one each), started by an administrator. */
const activeRollout = async () => {
  const release = await seedRelease({ results: ['Pass'] });
  const [one, two] = await Promise.all([freshDevice(), freshDevice()]);
  const rollout = await apiAs('code-releases', await tokenOf('admin@example.com')).createRollout({
    params: { id: release.id },
    body: {
      target: { kind: 'devices', deviceIds: [one.id, two.id] },
      stages: [
        { percent: 50, deviceIds: [one.id], soakSeconds: 3_600 },
        { percent: 100, soakSeconds: 3_600 },
      ],
    },
  });
  return { release, rollout, devices: [one, two] as const };
};

/** A halted rollout whose canary device installed the release, with an earlier release of its line to go back to. */
const installedRollout = async () => {
  const major = freshMajor();
  await seedRelease({ results: ['Pass'], version: `${major}.0.0` });
  const release = await seedRelease({ results: ['Pass'], version: `${major}.0.1` });
  const device = await freshDevice();
  const rollout = await apiAs('code-releases', await tokenOf('admin@example.com')).createRollout({
    params: { id: release.id },
    body: { target: { kind: 'devices', deviceIds: [device.id] } },
  });
  await apiAs('data-ingress', device.credential).reportFirmwareStatus({
    body: { rolloutId: rollout.id, releaseId: release.id, state: 'succeeded', at: Date.now() - 1_000 },
  });
  return rollout;
};

const haltedRollout = async () => {
  const { rollout } = await activeRollout();
  await apiAs('code-releases', await tokenOf('employee@example.com')).haltRollout({
    params: { id: rollout.id },
    body: { reason: 'Matrix halt' },
  });
  return rollout;
};

export const CODE_RELEASES_FIXTURES: Record<string, RouteFixture> = {
  listReleases: { prepare: async () => ({ query: { limit: 5 } }) },
  createRelease: { prepare: async () => ({ body: { productLine: 'sd1', version: freshVersion(9) } }) },
  getRelease: { prepare: async () => ({ params: { id: await published() } }) },
  updateRelease: { prepare: async () => ({ params: { id: await draft() }, body: { notes: 'Changed by the matrix' } }) },
  deleteRelease: { prepare: async () => ({ params: { id: await draft() } }) },
  createArtifactUpload: { prepare: async () => ({ params: { id: await draft() }, body: { size: 1024 } }) },
  setArtifact: {
    prepare: async () => {
      const id = await draft();
      return { params: { id }, body: { key: await uploadedArtifact(id), fileName: 'matrix.bin' } };
    },
  },
  listTestRuns: { prepare: async () => ({ params: { id: await published() } }) },
  createTestRun: {
    prepare: async () => ({ params: { id: await published() }, body: { status: 'Pass', name: 'Matrix suite' } }),
  },
  concludeTestRun: {
    prepare: async () => {
      const id = await published();
      return { params: { id, runId: await inProgressRun(id) }, body: { status: 'Pass' } };
    },
  },
  listRollouts: { prepare: async () => ({ params: { id: (await activeRollout()).release.id } }) },
  createRollout: {
    prepare: async () => {
      const release = await seedRelease({ results: ['Pass'] });
      const device = await freshDevice();
      return { params: { id: release.id }, body: { target: { kind: 'devices', deviceIds: [device.id] } } };
    },
  },
  getRollout: { prepare: async () => ({ params: { id: (await activeRollout()).rollout.id } }) },
  listRolloutDevices: { prepare: async () => ({ params: { id: (await activeRollout()).rollout.id } }) },
  haltRollout: {
    prepare: async () => ({ params: { id: (await activeRollout()).rollout.id }, body: { reason: 'Matrix halt' } }),
  },
  advanceRollout: {
    prepare: async () => ({ params: { id: (await activeRollout()).rollout.id }, body: { fromStage: 0 } }),
  },
  resumeRollout: { prepare: async () => ({ params: { id: (await haltedRollout()).id } }) },
  rollbackRollout: {
    prepare: async () => ({ params: { id: (await installedRollout()).id }, body: { reason: 'Matrix rollback' } }),
  },
};

/**
 * The device-credential route on a rollout: `owned` reports on the rollout that holds the fixture's device (a fresh
 * one each time, whose stage has started), `foreign` on a rollout of another device.
 */
export const firmwareReportFixtures = (credential: () => Promise<{ token: string; deviceId: string }>) => {
  const reportOn = async (deviceIds: string[]) => {
    const release = await seedRelease({ results: ['Pass'] });
    const rollout = await apiAs('code-releases', await tokenOf('admin@example.com')).createRollout({
      params: { id: release.id },
      body: { target: { kind: 'devices', deviceIds }, stages: [{ percent: 100, soakSeconds: 0 }] },
    });
    return { body: { rolloutId: rollout.id, releaseId: release.id, state: 'downloading', at: Date.now() - 1_000 } };
  };
  const owned = async () => reportOn([(await credential()).deviceId]);
  return {
    prepare: owned,
    owned,
    foreign: async () => reportOn([(await freshDevice()).id]),
    credential: async () => ({ token: (await credential()).token }),
  } satisfies RouteFixture;
};
