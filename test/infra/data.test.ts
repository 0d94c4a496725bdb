import { TABLES, type TableDefinition, tableName } from '../../functions/_shared/tables';
import { BUCKETS, STRIPE_SECRET } from '../../infra/definitions/storage';
import { EXPORT_RETENTION_DAYS } from '../../infra/stacks/data-stack';
import { resourcesOfType, synthesizedTemplates, type Templates } from './synth';

const prod = synthesizedTemplates('prod');
const dev = synthesizedTemplates('dev');
const tables = Object.values(TABLES) as TableDefinition[];

const tableNamed = (templates: Templates, name: string) => {
  const found = Object.values(resourcesOfType(templates.data, 'AWS::DynamoDB::Table')).filter(
    (table) => table.Properties.TableName === name,
  );
  expect(found).toHaveLength(1);
  return found[0]!;
};

describe('tables', () => {
  it.each(tables.map((t) => [t.constructId, t] as const))('%s is encrypted, recoverable and on demand', (_, table) => {
    const resource = tableNamed(prod, tableName(table, 'prod'));
    expect(resource.Properties).toMatchObject({
      SSESpecification: { SSEEnabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      BillingMode: 'PAY_PER_REQUEST',
    });
  });

  it.each(tables.map((t) => [t.constructId, t] as const))('%s survives a prod stack deletion', (_, table) => {
    const resource = tableNamed(prod, tableName(table, 'prod'));
    expect(resource.DeletionPolicy).toBe('Retain');
    expect(resource.UpdateReplacePolicy).toBe('Retain');
    expect(resource.Properties.DeletionProtectionEnabled).toBe(true);
  });

  it.each(tables.map((t) => [t.constructId, t] as const))('%s is disposable in dev', (_, table) => {
    expect(tableNamed(dev, tableName(table, 'dev')).DeletionPolicy).toBe('Delete');
  });

  it('uses the keys of the definitions', () => {
    for (const table of tables) {
      const keys = tableNamed(prod, tableName(table, 'prod')).Properties.KeySchema;
      expect(keys).toEqual(
        expect.arrayContaining([
          { AttributeName: table.partitionKey.name, KeyType: 'HASH' },
          ...(table.sortKey ? [{ AttributeName: table.sortKey.name, KeyType: 'RANGE' }] : []),
        ]),
      );
    }
  });

  it('expires items by the TTL attribute of the definitions, and nowhere else', () => {
    for (const table of tables) {
      const ttl = tableNamed(prod, tableName(table, 'prod')).Properties.TimeToLiveSpecification;
      const attribute = (table as { timeToLiveAttribute?: string }).timeToLiveAttribute;
      if (attribute) expect(ttl).toEqual({ AttributeName: attribute, Enabled: true });
      else expect(ttl).toBeUndefined();
    }
  });
});

describe('buckets', () => {
  const allBuckets = (templates: Templates) =>
    [templates.data, templates.web].flatMap((template) =>
      Object.entries(resourcesOfType(template, 'AWS::S3::Bucket')).map(([id, bucket]) => ({ id, bucket, template })),
    );

  it('every bucket blocks public access and is encrypted', () => {
    for (const { bucket } of allBuckets(prod)) {
      expect(bucket.Properties).toMatchObject({
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
    }
  });

  it('every bucket denies requests without TLS', () => {
    for (const { id, template } of allBuckets(prod)) {
      const policies = Object.values(resourcesOfType(template, 'AWS::S3::BucketPolicy')).filter(
        (policy) => JSON.stringify(policy.Properties.Bucket) === JSON.stringify({ Ref: id }),
      );
      const statements = policies.flatMap(
        (policy) => (policy.Properties.PolicyDocument as { Statement: Record<string, unknown>[] }).Statement,
      );
      expect(statements).toContainEqual(
        expect.objectContaining({
          Effect: 'Deny',
          Action: 's3:*',
          Principal: { AWS: '*' },
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        }),
      );
    }
  });

  it('the data buckets carry the names of the definitions and are retained in prod', () => {
    const byName = Object.values(resourcesOfType(prod.data, 'AWS::S3::Bucket'));
    for (const definition of Object.values(BUCKETS)) {
      const bucket = byName.find((b) => b.Properties.BucketName === definition.name('prod'));
      expect(bucket?.DeletionPolicy).toBe('Retain');
    }
  });

  it('the exports bucket deletes exports after a week, their versions a day later, and takes no browser uploads', () => {
    const exports = Object.values(resourcesOfType(prod.data, 'AWS::S3::Bucket')).find(
      (b) => b.Properties.BucketName === BUCKETS.exports.name('prod'),
    );
    expect(exports?.Properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    expect(exports?.Properties.CorsConfiguration).toBeUndefined();
    expect(exports?.Properties.LifecycleConfiguration).toEqual({
      Rules: [
        expect.objectContaining({
          Status: 'Enabled',
          ExpirationInDays: EXPORT_RETENTION_DAYS,
          NoncurrentVersionExpiration: { NoncurrentDays: 1 },
          AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
        }),
      ],
    });
    expect(EXPORT_RETENTION_DAYS).toBe(7);
  });

  it('the chart-data bucket keeps its objects (they are rebuilt, not expired) and no versions of them', () => {
    const chartData = Object.values(resourcesOfType(prod.data, 'AWS::S3::Bucket')).find(
      (b) => b.Properties.BucketName === BUCKETS.chartData.name('prod'),
    );
    const rules =
      (chartData?.Properties.LifecycleConfiguration as { Rules?: Record<string, unknown>[] } | undefined)?.Rules ?? [];
    expect(rules.length).toBeGreaterThan(0);
    for (const rule of rules) expect(Object.keys(rule).filter((k) => /Expiration|Transition/.test(k))).toEqual([]);
    expect(chartData?.Properties.VersioningConfiguration).toBeUndefined();
  });

  it('the logo bucket keeps versions and lets browsers upload', () => {
    const logos = Object.values(resourcesOfType(prod.data, 'AWS::S3::Bucket')).find(
      (b) => b.Properties.BucketName === BUCKETS.logos.name('prod'),
    );
    expect(logos?.Properties).toMatchObject({
      VersioningConfiguration: { Status: 'Enabled' },
      CorsConfiguration: { CorsRules: [expect.objectContaining({ AllowedMethods: expect.arrayContaining(['PUT']) })] },
    });
  });
});

describe('the Stripe secret key', () => {
  const secretOf = (templates: Templates, env: 'prod' | 'dev') => {
    const found = Object.values(resourcesOfType(templates.data, 'AWS::SecretsManager::Secret')).filter(
      (secret) => secret.Properties.Name === STRIPE_SECRET.name(env),
    );
    expect(found).toHaveLength(1);
    return found[0]!;
  };

  it('is a secret named per environment, whose value CloudFormation does not hold (operators put it)', () => {
    const secret = secretOf(prod, 'prod');
    expect(secret.Properties.Name).toBe('device-data/prod/stripe-secret-key');
    expect(secret.Properties.SecretString).toBeUndefined();
    expect(secret.Properties.GenerateSecretString).toBeDefined();
  });

  it('survives a prod stack deletion and is disposable in dev', () => {
    expect(secretOf(prod, 'prod').DeletionPolicy).toBe('Retain');
    expect(secretOf(dev, 'dev').DeletionPolicy).toBe('Delete');
  });
});
