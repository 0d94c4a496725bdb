import { createHash, randomInt, randomUUID } from 'node:crypto';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { getSqsClient } from '../../functions/_shared/clients';
import { batchWriteAll } from '../../functions/_shared/dynamodb';
import { readEnv } from '../../functions/_shared/env';
import { createQueueSender } from '../../functions/_shared/queue/queue-sender';
import { CODE_RELEASES_ENV, createCodeReleasesDeps } from '../../functions/code-releases/deps';
import { type PrepareMessage, prepareGroupOf } from '../../functions/code-releases/domain/prepare-message';
import type { Caller } from '../../shared/auth/verify-token';
import { parseSemVer, versionSortKey } from '../../shared/code-releases/semver';
import { type Release, releaseIdOf, type TestRun } from '../../shared/contracts/code-releases';
import type { ProductLine } from '../../shared/contracts/devices';
import { freshSerial } from './authz-devices-fixtures';
import { apiAs, documentClient, s3Client, stack, subOf, tokenOf } from './stack';

let serial = 0;
/** A version no other test of this stack takes (a random minor, a counter for the patch). */
export const freshVersion = (major = 1) => {
  serial += 1;
  return `${major}.${randomInt(1, 999_999)}.${serial}`;
};

/** Bytes standing in for a firmware image. */
export const firmwareBytes = (text: string = randomUUID()) => Buffer.from(`FIRMWARE\u0000${text}`.repeat(64));
export const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Uploads through the presigned URL as the web app does: the answered method and headers, the file as body. */
export const uploadArtifact = async (token: string, releaseId: string, bytes: Buffer) => {
  const target = await apiAs('code-releases', token).createArtifactUpload({
    params: { id: releaseId },
    body: { size: bytes.length },
  });
  const put = await fetch(target.url, { method: target.method, headers: target.headers, body: new Uint8Array(bytes) });
  if (!put.ok) throw new Error(`Upload refused: ${put.status}`);
  return target.key;
};

/**
 * Test set-up only: a published release written straight into the table and the bucket (as the area leaves one
 * after its artifact was verified), with test runs of the given results, oldest first.
 */
export const seedRelease = async ({
  productLine = 'sd1',
  results = [],
  published = true,
  version = freshVersion(),
}: {
  productLine?: ProductLine;
  results?: ('Pass' | 'Fail')[];
  published?: boolean;
  /** A version of the test's own choosing (a rollback needs one just below another); fresh by default. */
  version?: string;
} = {}): Promise<Release> => {
  const id = releaseIdOf(productLine, version);
  const now = Date.now();
  const bytes = firmwareBytes(id);
  const key = `releases/${id}/artifact-${randomUUID()}`;
  const release: Release = {
    id,
    productLine,
    version,
    notes: 'Seeded by a test',
    status: published ? 'published' : 'draft',
    created: now,
    createdBy: 'test-setup',
    updated: now,
    ...(published
      ? {
          published: now,
          artifact: {
            key,
            fileName: `${id}.bin`,
            size: bytes.length,
            sha256: sha256Of(bytes),
            uploaded: now,
            uploadedBy: 'test-setup',
          },
        }
      : {}),
  };
  if (published) {
    await s3Client().send(new PutObjectCommand({ Bucket: stack().buckets.releases!, Key: key, Body: bytes }));
  }
  await documentClient().send(
    new PutCommand({
      TableName: stack().tables.codeReleases!,
      Item: { ...release, versionKey: versionSortKey(parseSemVer(version)!) },
    }),
  );
  for (const [i, status] of results.entries()) {
    const at = now - (results.length - i) * 1_000;
    const run: TestRun = {
      id: `${String(at).padStart(13, '0')}-${randomUUID().slice(0, 8)}`,
      releaseId: id,
      status,
      name: 'Seeded suite',
      log: '',
      ranBy: 'test-setup',
      started: at,
      finished: at,
      artifactSha256: release.artifact?.sha256 ?? '',
    };
    await documentClient().send(new PutCommand({ TableName: stack().tables.releaseTestRuns!, Item: run }));
  }
  return release;
};

/**
 * Test set-up only: devices of a product line written straight into the devices table (registered, not claimed), as
 * the devices area leaves them: a fleet for a rollout's stages, without four requests a device. Staff make an ingress
 * credential for the few that must poll (`credentialFor`).
 */
export const seedFleet = async (count: number, productLine: ProductLine = 'sd1'): Promise<string[]> => {
  const now = Date.now();
  const devices = Array.from({ length: count }, () => {
    const serial = freshSerial('FL');
    return {
      id: `dev-${serial.toLowerCase()}`,
      serial,
      name: serial,
      productLine,
      model: productLine.toUpperCase(),
      firmwareVersion: '1.0.0',
      locationPrivacy: 'exact',
      dataVisibility: 'private',
      state: 'active',
      created: now,
      updated: now,
      claimCodeHash: '0'.repeat(64),
      registeredBy: 'test-setup',
    };
  });
  await batchWriteAll(
    documentClient(),
    stack().tables.devices!,
    devices.map((Item) => ({ PutRequest: { Item } })),
  );
  return devices.map((device) => device.id);
};

/** An ingress credential for a device, made by staff (who manage every device). */
export const credentialFor = async (deviceId: string): Promise<string> =>
  (await apiAs('devices', await tokenOf('admin@example.com')).createCredential({ params: { id: deviceId } })).token;

/** A major version no other test takes, so a release just below another is the one a rollback finds. */
export const freshMajor = () => randomInt(100_000, 999_999);

/**
 * A rollout still assigning its devices (decision 114). A real one needs more than 1,000 devices and is active within
 * seconds, too soon to look at or to act on meanwhile: here the use case runs in this process on the stack's stores
 * (the caller has set `useStackEnvironment()`) with no device assigned in the request, and its first step is held,
 * not sent, until the test calls `sendHeldStep`; then it goes to the stack's rollouts queue and the stack's worker
 * assigns the devices, as it would have at once.
 */
export const preparingRollout = async (releaseId: string, deviceIds: string[]) => {
  const held: PrepareMessage[] = [];
  const { rollouts } = createCodeReleasesDeps(readEnv(CODE_RELEASES_ENV), {
    inlineDevices: 0,
    work: {
      send: async (messages) => {
        held.push(...messages);
      },
    },
  });
  const admin = { sub: await subOf('admin@example.com'), groups: ['Administrators'] } as unknown as Caller;
  const rollout = await rollouts.create(admin, releaseId, { target: { kind: 'devices', deviceIds } });
  const queue = createQueueSender<PrepareMessage>({
    sqs: getSqsClient(),
    queueUrl: stack().queues.rollouts!,
    queueName: 'rollouts',
    groupOf: prepareGroupOf,
  });
  return { rollout, sendHeldStep: () => queue.send(held) };
};
