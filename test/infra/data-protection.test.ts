import type { Template } from 'aws-cdk-lib/assertions';
import type { CloudEnvName } from '../../infra/app';
import { CLOUD_ENVIRONMENTS } from '../../infra/app';
import { environmentSettings, LOG_RETENTION_DAYS } from '../../infra/definitions/environments';
import { MIN_COMPRESSION_SIZE_BYTES } from '../../infra/definitions/services';
import { BUCKETS } from '../../infra/definitions/storage';
import { ABORT_INCOMPLETE_UPLOADS_DAYS } from '../../infra/services/bucket-lifecycle';
import { logSettings } from '../../infra/services/log-retention';
import { BUCKET_SETTINGS } from '../../infra/stacks/data-stack';
import { resourcesOfType, synthesizedTemplates } from './synth';

/**
 * Data protection on the synthesized templates (docs/decisions/026-least-privilege-and-data-protection.md): every
 * bucket that holds data is versioned and ages by one lifecycle rule, every log group keeps the environment's one
 * retention, every function logs to such a group, and every REST API compresses its responses.
 */

type Rule = Record<string, unknown> & {
  AbortIncompleteMultipartUpload?: { DaysAfterInitiation: number };
  NoncurrentVersionExpiration?: { NoncurrentDays: number };
};

/** Buckets that hold no data of their own, by the start of their logical id, and why. */
const NOT_DATA = [
  {
    prefix: 'SiteBucket',
    reason:
      'The web build: redeployed from the repository by every deploy (BucketDeployment prunes it), never restored.',
  },
];

/** The one data bucket without versions (BUCKET_SETTINGS): its cache files are rewritten by every roll-up. */
const UNVERSIONED = [BUCKETS.chartData.name];
/** Archives: earlier versions are kept for good (the datasets' cited files). */
const ARCHIVES = [BUCKETS.datasets.name];

describe.each(['prod', 'dev'] as CloudEnvName[])('data protection on %s', (envName) => {
  const templates = synthesizedTemplates(envName);
  const all = Object.entries(templates) as [string, Template][];
  const settings = environmentSettings(envName);
  const resources = (type: string) =>
    all.flatMap(([stack, template]) =>
      Object.entries(resourcesOfType(template, type)).map(([id, resource]) => ({ stack, id, resource })),
    );

  const buckets = resources('AWS::S3::Bucket').filter(({ id }) => !NOT_DATA.some((b) => id.startsWith(b.prefix)));
  const nameOf = (bucket: (typeof buckets)[number]) => bucket.resource.Properties.BucketName as string | undefined;
  const rulesOf = (bucket: (typeof buckets)[number]) =>
    ((bucket.resource.Properties.LifecycleConfiguration as { Rules?: Rule[] } | undefined)?.Rules ?? []) as Rule[];

  it('finds every data bucket of the definitions and the access-log buckets', () => {
    const names = buckets.map(nameOf);
    for (const definition of Object.values(BUCKETS)) expect(names).toContain(definition.name(envName));
    expect(
      buckets
        .filter((b) => /LogsBucket/.test(b.id))
        .map((b) => b.stack)
        .sort(),
    ).toEqual(['data', 'web']);
  });

  it('versions every bucket that holds data, but the chart-data cache', () => {
    for (const bucket of buckets) {
      const versioned = (bucket.resource.Properties.VersioningConfiguration as { Status?: string } | undefined)?.Status;
      const expected = UNVERSIONED.some((name) => name(envName) === nameOf(bucket)) ? undefined : 'Enabled';
      expect([bucket.id, versioned]).toEqual([bucket.id, expected]);
    }
    expect(BUCKET_SETTINGS.chartData.versioned).toBe(false);
  });

  it(`gives up unfinished uploads within ${ABORT_INCOMPLETE_UPLOADS_DAYS} days in every bucket`, () => {
    for (const bucket of buckets) {
      const days = rulesOf(bucket)
        .filter((rule) => rule.Status === 'Enabled' && !rule.Prefix && !rule.TagFilters)
        .map((rule) => rule.AbortIncompleteMultipartUpload?.DaysAfterInitiation)
        .filter((d): d is number => d !== undefined);
      expect([bucket.id, days.length]).toEqual([bucket.id, 1]);
      expect(days[0]).toBeLessThanOrEqual(ABORT_INCOMPLETE_UPLOADS_DAYS);
    }
  });

  it('expires earlier versions in every versioned bucket but the archive, whose versions are kept for good', () => {
    for (const bucket of buckets.filter((b) => b.resource.Properties.VersioningConfiguration)) {
      const noncurrent = rulesOf(bucket)
        .map((rule) => rule.NoncurrentVersionExpiration?.NoncurrentDays)
        .filter((d): d is number => d !== undefined);
      if (ARCHIVES.some((name) => name(envName) === nameOf(bucket))) {
        expect([bucket.id, noncurrent]).toEqual([bucket.id, []]);
        continue;
      }
      expect([bucket.id, noncurrent.length]).toEqual([bucket.id, 1]);
      expect(noncurrent[0]).toBeGreaterThan(0);
      // A delete marker left with no version behind it is removed too: by the expiration, or by its own setting.
      const rules = rulesOf(bucket);
      expect(rules.some((rule) => rule.ExpirationInDays !== undefined || rule.ExpiredObjectDeleteMarker === true)).toBe(
        true,
      );
    }
  });

  it(`keeps every log group ${settings.logRetentionDays} days, the environment's one retention`, () => {
    const groups = resources('AWS::Logs::LogGroup');
    expect(groups.length).toBeGreaterThan(20);
    for (const { stack, id, resource } of groups) {
      expect([stack, id, resource.Properties.RetentionInDays]).toEqual([stack, id, settings.logRetentionDays]);
    }
    for (const { stack, id, resource } of resources('Custom::LogRetention')) {
      expect([stack, id, Number(resource.Properties.RetentionInDays)]).toEqual([stack, id, settings.logRetentionDays]);
    }
  });

  it('sends every function to a log group of its template, so none falls back to a group kept forever', () => {
    for (const [stack, template] of all) {
      const groups = resourcesOfType(template, 'AWS::Logs::LogGroup');
      for (const [id, fn] of Object.entries(resourcesOfType(template, 'AWS::Lambda::Function'))) {
        const configured = (fn.Properties.LoggingConfig as { LogGroup?: { Ref?: string } } | undefined)?.LogGroup?.Ref;
        const named = Object.entries(groups).find(([, group]) =>
          JSON.stringify(group.Properties.LogGroupName ?? '').includes(`{"Ref":"${id}"}`),
        )?.[0];
        const group = configured ?? named;
        expect([stack, id, group !== undefined && group in groups]).toEqual([stack, id, true]);
      }
    }
  });

  it("writes every API's access logs to a group with that retention", () => {
    const stages = resources('AWS::ApiGateway::Stage');
    expect(stages.length).toBeGreaterThan(0);
    for (const { stack, resource } of stages) {
      const destination = JSON.stringify(resource.Properties.AccessLogSetting);
      const group = Object.entries(resourcesOfType(templates[stack as keyof typeof templates]!, 'AWS::Logs::LogGroup'))
        .filter(([id]) => destination.includes(`"${id}"`))
        .map(([, g]) => g.Properties.RetentionInDays);
      expect(group).toEqual([settings.logRetentionDays]);
    }
  });

  it(`compresses every REST API's responses from ${MIN_COMPRESSION_SIZE_BYTES} bytes`, () => {
    const apis = resources('AWS::ApiGateway::RestApi');
    expect(apis.length).toBeGreaterThan(10);
    for (const { id, resource } of apis) {
      expect([id, resource.Properties.MinimumCompressionSize]).toEqual([id, MIN_COMPRESSION_SIZE_BYTES]);
    }
  });
});

describe('the log retention setting', () => {
  it('keeps prod a year, preview a quarter and developers’ environments a month', () => {
    expect(LOG_RETENTION_DAYS).toMatchObject({ prod: 365, preview: 90, dev: 30, 'dev-1': 30, 'dev-2': 30 });
  });

  it('is a value CloudWatch Logs accepts in every cloud environment, and refuses one it does not', () => {
    for (const name of CLOUD_ENVIRONMENTS) expect(() => logSettings(environmentSettings(name))).not.toThrow();
    expect(() => logSettings({ name: 'dev', logRetentionDays: 31, retainData: false })).toThrow(/31/);
  });
});
