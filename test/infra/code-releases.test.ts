import { TABLES } from '../../functions/_shared/tables';
import { WORKERS } from '../../infra/definitions/services';
import { BUCKETS, QUEUES } from '../../infra/definitions/storage';
import type { AreaName } from '../../shared/contracts/areas';
import { areaTemplate, mentions, resourcesOfType, synthesizedTemplates } from './synth';

/**
 * Code releases (docs/code-releases.md): the artifacts' bucket is private, versioned and takes browser uploads only
 * through presigned URLs; the area's function reaches exactly its own tables and bucket, and ingest only what a
 * firmware report moves.
 */
const templates = synthesizedTemplates('prod');

type Resource = { Properties: Record<string, unknown>; DeletionPolicy?: string };
type Statement = { Action: unknown; Resource: unknown };

const statementsOf = (area: AreaName): Statement[] => {
  const template = areaTemplate(templates, area);
  return Object.values(resourcesOfType(template, 'AWS::IAM::Policy')).flatMap(
    (p) => ((p as Resource).Properties.PolicyDocument as { Statement: Statement[] }).Statement,
  );
};

const actionsOn = (statements: Statement[], needle: string) =>
  statements
    .filter((s) => [s.Resource].flat().some((r) => mentions(r, needle)))
    .flatMap((s) => [s.Action].flat().map(String));

const writes = (actions: string[]) => actions.some((action) => /^dynamodb:(Put|Update|Delete|BatchWrite)/.test(action));

it('the releases bucket is private, versioned, retained in prod, and takes browser PUTs', () => {
  const bucket = Object.values(resourcesOfType(templates.data, 'AWS::S3::Bucket')).find(
    (b) => (b as Resource).Properties.BucketName === BUCKETS.releases.name('prod'),
  ) as Resource | undefined;
  expect(bucket?.DeletionPolicy).toBe('Retain');
  expect(bucket?.Properties).toMatchObject({
    PublicAccessBlockConfiguration: {
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    },
    VersioningConfiguration: { Status: 'Enabled' },
    CorsConfiguration: { CorsRules: [expect.objectContaining({ AllowedMethods: expect.arrayContaining(['PUT']) })] },
  });
});

it('the code-releases function writes its own tables and devices, reads the rest, and reaches no other bucket', () => {
  const statements = statementsOf('code-releases');
  for (const table of ['codeReleases', 'releaseTestRuns', 'releaseRollouts', 'rolloutTargets', 'devices'] as const) {
    expect([table, writes(actionsOn(statements, TABLES[table].constructId))]).toEqual([table, true]);
  }
  for (const table of ['relations', 'campaigns', 'organizations', 'users'] as const) {
    const actions = actionsOn(statements, TABLES[table].constructId);
    expect([table, actions.length > 0, writes(actions)]).toEqual([table, true, false]);
  }
  const s3 = JSON.stringify(statements.filter((s) => [s.Action].flat().some((a) => String(a).startsWith('s3:'))));
  expect(s3).toContain(BUCKETS.releases.name('prod'));
  for (const other of ['logos', 'exports', 'chartData', 'userBackups'] as const) {
    expect(s3).not.toContain(BUCKETS[other].name('prod'));
  }
});

it('ingest moves rollout targets and counters, reads releases and their artifacts, and changes neither', () => {
  const statements = statementsOf('data-ingress');
  expect(writes(actionsOn(statements, TABLES.rolloutTargets.constructId))).toBe(true);
  expect(writes(actionsOn(statements, TABLES.releaseRollouts.constructId))).toBe(true);
  const releases = actionsOn(statements, TABLES.codeReleases.constructId);
  expect([releases.length > 0, writes(releases)]).toEqual([true, false]);
  const onBucket = statements
    .filter((s) => JSON.stringify(s.Resource).includes(BUCKETS.releases.name('prod')))
    .flatMap((s) => [s.Action].flat().map(String));
  // The HTTP function and the MQTT rule's function each have it.
  // Reads objects and their versions (the datasets' read grant, shared): never writes or deletes.
  expect([...new Set(onBucket)].sort()).toEqual(['s3:GetObject', 's3:GetObjectVersion']);
});

it('the rollouts queue is FIFO, with a dead-letter queue, worked by the CodeReleasesWorker', () => {
  const queues = Object.values(resourcesOfType(templates.messaging, 'AWS::SQS::Queue'));
  const queue = queues.find((q) => q.Properties.QueueName === QUEUES.rollouts.name('prod'))!;
  expect(queue.Properties).toMatchObject({ FifoQueue: true, VisibilityTimeout: 900 });
  expect(JSON.stringify(queue.Properties.RedrivePolicy)).toContain('"maxReceiveCount":5');
  expect(WORKERS.find((w) => w.queue === 'rollouts')).toMatchObject({
    name: 'CodeReleasesWorker',
    area: 'code-releases',
  });
});
