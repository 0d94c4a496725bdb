import { TABLES } from '../../functions/_shared/tables';
import { DATASETS_ENV } from '../../functions/datasets/deps';
import { WORKERS } from '../../infra/definitions/services';
import { BUCKETS, QUEUES } from '../../infra/definitions/storage';
import { areasWithStacks } from '../../infra/stacks/api-stack';
import { areaTemplate, mentions, resourcesOfType, synthesizedTemplates } from './synth';

/**
 * Datasets are cited, so their files must outlive everything (docs/datasets.md "Storage"): a bucket of their own that
 * never expires an object or a version, and no function of any area that may delete from it.
 */
const templates = synthesizedTemplates('prod');
const BUCKET = BUCKETS.datasets.name('prod');

type Resource = { Properties: Record<string, unknown>; [key: string]: unknown };
type Statement = { Action: unknown; Resource: unknown };

const bucket = () => {
  const found = Object.values(resourcesOfType(templates.data, 'AWS::S3::Bucket')).filter(
    (b) => b.Properties.BucketName === BUCKET,
  );
  expect(found).toHaveLength(1);
  return found[0]!;
};

/** Every Lambda of every area, with the statements of its role. */
const functions = areasWithStacks().flatMap((area) => {
  const template = areaTemplate(templates, area);
  const policies = Object.values(resourcesOfType(template, 'AWS::IAM::Policy'));
  return Object.values(resourcesOfType(template, 'AWS::Lambda::Function')).map((fn) => {
    const roleId = ((fn as Resource).Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const statements = policies
      .filter((p) => mentions(p.Properties.Roles, roleId))
      .flatMap((p) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
    return { area, description: String((fn as Resource).Properties.Description), fn: fn as Resource, statements };
  });
});

const onBucket = (statements: Statement[]) =>
  statements.filter((s) => mentions(s.Resource, BUCKET)).flatMap((s) => [s.Action].flat().map(String));

describe('the datasets bucket', () => {
  it('is versioned, private, encrypted, TLS-only and kept when the prod stack goes', () => {
    const resource = bucket();
    expect(resource.Properties).toMatchObject({
      VersioningConfiguration: { Status: 'Enabled' },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
    });
    expect(resource.DeletionPolicy).toBe('Retain');
    const policies = Object.values(resourcesOfType(templates.data, 'AWS::S3::BucketPolicy')).filter((p) =>
      mentions(p.Properties.Bucket, BUCKETS.datasets.constructId),
    );
    expect(JSON.stringify(policies)).toContain('"aws:SecureTransport":"false"');
  });

  it('never expires an object or an earlier version; only the parts of an unfinished upload go', () => {
    const rules = ((bucket().Properties.LifecycleConfiguration as { Rules: Record<string, unknown>[] } | undefined)
      ?.Rules ?? []) as Record<string, unknown>[];
    for (const rule of rules) {
      expect(Object.keys(rule).filter((k) => /Expiration|Transition/.test(k))).toEqual([]);
    }
    expect(rules).toContainEqual(
      expect.objectContaining({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }),
    );
  });

  it('no function of any area may delete from it; the datasets functions write, the api area only reads', () => {
    const touching = functions.filter(({ statements }) => onBucket(statements).length > 0);
    expect(touching.length).toBeGreaterThanOrEqual(3);
    for (const { description, statements } of touching) {
      expect([description, onBucket(statements).filter((a) => /Delete|\*/.test(a))]).toEqual([description, []]);
    }
    const datasetsFns = functions.filter(({ area }) => area === 'datasets');
    expect(datasetsFns.map(({ description }) => description)).toEqual(
      expect.arrayContaining([expect.stringContaining('DatasetsWorker')]),
    );
    for (const { statements } of datasetsFns) {
      expect(onBucket(statements).sort()).toEqual([
        's3:AbortMultipartUpload',
        's3:GetObject',
        's3:GetObjectVersion',
        's3:PutObject',
      ]);
    }
    for (const { statements } of functions.filter(({ area }) => area === 'api')) {
      expect(onBucket(statements).sort()).toEqual(['s3:GetObject', 's3:GetObjectVersion']);
    }
  });

  it('the datasets functions write only the datasets table, and learn every variable they read', () => {
    for (const { fn, statements } of functions.filter(({ area }) => area === 'datasets')) {
      const written = Object.entries(TABLES)
        .filter(([, table]) =>
          statements.some(
            (s) =>
              mentions(s.Resource, table.constructId) &&
              [s.Action].flat().some((a) => /^dynamodb:(Put|Update|Delete|BatchWrite)/.test(String(a))),
          ),
        )
        .map(([key]) => key);
      // Besides the audit log, which the API function only appends to (test/infra/audit.test.ts holds that).
      expect(written.filter((table) => table !== 'auditLog')).toEqual(['datasets']);
      const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      for (const name of Object.values(DATASETS_ENV)) expect([name, name in variables]).toEqual([name, true]);
    }
  });
});

it('the datasets queue is FIFO, with a dead-letter queue, worked by the DatasetsWorker', () => {
  const queues = Object.values(resourcesOfType(templates.messaging, 'AWS::SQS::Queue'));
  const queue = queues.find((q) => q.Properties.QueueName === QUEUES.datasets.name('prod'))!;
  expect(queue.Properties).toMatchObject({ FifoQueue: true, VisibilityTimeout: 900 });
  expect(JSON.stringify(queue.Properties.RedrivePolicy)).toContain('"maxReceiveCount":5');
  expect(WORKERS.find((w) => w.queue === 'datasets')?.area).toBe('datasets');
});
