import { Duration, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { AttributeType, BillingMode, type ITable, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { type IKey, Key } from 'aws-cdk-lib/aws-kms';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, type IBucket } from 'aws-cdk-lib/aws-s3';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import {
  type KeyDefinition,
  TABLES,
  type TableDefinition,
  type TableKey,
  tableName,
} from '../../functions/_shared/tables';
import type { EnvironmentSettings } from '../definitions/environments';
import { BUCKETS, type BucketKey, STRIPE_SECRET, STRIPE_WEBHOOK_SECRET } from '../definitions/storage';
import { type BucketAging, lifecycleRules } from '../services/bucket-lifecycle';
import { keepAutoDeleteLogs, logSettings } from '../services/log-retention';
import { mapRecord } from './map-record';

/** Props of the {@link DataStack}. */
export interface DataStackProps extends StackProps {
  settings: EnvironmentSettings;
}

/** Days a finished download export stays in its bucket. */
export const EXPORT_RETENTION_DAYS = 7;

/** Days an earlier version of an object stays restorable in the versioned buckets that are not archives. */
export const NONCURRENT_VERSION_DAYS = 90;

/**
 * How each bucket differs; a bucket added to BUCKETS must decide here (the record is exhaustive). Every bucket gets one
 * lifecycle rule from its aging (infra/services/bucket-lifecycle.ts), which also gives up unfinished uploads.
 */
export const BUCKET_SETTINGS: Record<BucketKey, BucketAging & { browserUploads: boolean }> = {
  // Cache files rebuilt from the readings table (decision 017), rewritten whole by every roll-up: at one reading a
  // minute a month's file is replaced 1,440 times a day, and versions would keep each copy for nothing. Not
  // versioned; an eviction is undone by rebuilding, and objects never expire (a chart reads every period's file).
  chartData: { versioned: false, browserUploads: false },
  // Exports are re-made on request and handed out through links that live far shorter than a week, so they
  // expire rather than pile up (the export record says when; the API refuses a link to an expired one). The version
  // an expiry or a delete leaves goes a day later: an export holds readings, and is not kept past its week.
  exports: {
    versioned: true,
    noncurrentVersionDays: 1,
    expireAfterDays: EXPORT_RETENTION_DAYS,
    browserUploads: false,
    abortIncompleteUploadsAfterDays: 1,
  },
  // Frozen datasets are cited: their files never expire, and no version is ever expired either (docs/datasets.md).
  // A build writes in minutes, so what a failed one left unfinished goes after a day.
  datasets: { versioned: true, browserUploads: false, abortIncompleteUploadsAfterDays: 1 },
  // A replaced or deleted logo can be brought back.
  logos: { versioned: true, noncurrentVersionDays: NONCURRENT_VERSION_DAYS, browserUploads: true },
  // A published release's artifact must stay what was tested: a deleted or overwritten object can be brought back.
  releases: { versioned: true, noncurrentVersionDays: NONCURRENT_VERSION_DAYS, browserUploads: true },
  // A user-pool export overwritten by a later one to the same directory can be brought back.
  userBackups: { versioned: true, noncurrentVersionDays: NONCURRENT_VERSION_DAYS, browserUploads: false },
};

/**
 * The access-log buckets (here and in the web stack): logs expire by age, a deleted one can be brought back for 30
 * days.
 */
export const accessLogAging = (settings: Pick<EnvironmentSettings, 'retainData'>): BucketAging => ({
  versioned: true,
  noncurrentVersionDays: 30,
  expireAfterDays: settings.retainData ? 365 : 30,
});

const attribute = (key: KeyDefinition) => ({
  name: key.name,
  type: key.type === 'N' ? AttributeType.NUMBER : AttributeType.STRING,
});

/**
 * The stateful resources: every table in TABLES and every bucket in BUCKETS. Kept apart from the stateless
 * stacks so that redeploying an API never puts data at risk; production data outlives the stack.
 */
export class DataStack extends Stack {
  /** Every table, by its key in TABLES. */
  readonly tables: Record<TableKey, ITable>;
  /** Every bucket, by its key in BUCKETS. */
  readonly buckets: Record<BucketKey, IBucket>;
  /** The Stripe secret key's secret; its value is put by operators (README, "Billing"). */
  readonly stripeSecret: ISecret;
  /** Stripe's webhook signing secret, put by operators like the key. */
  readonly stripeWebhookSecret: ISecret;
  /** Seals the signing secrets of customers' webhooks (docs/integrations.md): only the integrations area may use it. */
  readonly webhookSecretsKey: IKey;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);
    const { settings } = props;
    const removalPolicy = settings.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    this.tables = mapRecord<TableKey, TableDefinition, ITable>(TABLES, (definition) => {
      const table = new Table(this, definition.constructId, {
        tableName: tableName(definition, settings.name),
        partitionKey: attribute(definition.partitionKey),
        ...(definition.sortKey ? { sortKey: attribute(definition.sortKey) } : {}),
        ...(definition.timeToLiveAttribute ? { timeToLiveAttribute: definition.timeToLiveAttribute } : {}),
        billingMode: BillingMode.PAY_PER_REQUEST,
        encryption: TableEncryption.AWS_MANAGED,
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
        deletionProtection: settings.retainData,
        removalPolicy,
      });
      for (const index of definition.indexes ?? []) {
        table.addGlobalSecondaryIndex({
          indexName: index.name,
          partitionKey: attribute(index.partitionKey),
          ...(index.sortKey ? { sortKey: attribute(index.sortKey) } : {}),
        });
      }
      return table;
    });

    // It does not log its own access (that would loop); AwsSolutions-S1 sees it is the data buckets' log destination.
    const accessLogs = new Bucket(this, 'AccessLogsBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      versioned: accessLogAging(settings).versioned,
      lifecycleRules: lifecycleRules(accessLogAging(settings)),
      removalPolicy,
      autoDeleteObjects: !settings.retainData,
    });

    this.buckets = mapRecord<BucketKey, (typeof BUCKETS)[BucketKey], IBucket>(BUCKETS, (definition, key) => {
      const { browserUploads, ...aging } = BUCKET_SETTINGS[key];
      const bucket = new Bucket(this, definition.constructId, {
        bucketName: definition.name(settings.name),
        blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
        enforceSSL: true,
        encryption: BucketEncryption.S3_MANAGED,
        versioned: aging.versioned,
        serverAccessLogsBucket: accessLogs,
        serverAccessLogsPrefix: `${definition.constructId}/`,
        lifecycleRules: lifecycleRules(aging),
        ...(browserUploads
          ? {
              cors: [
                {
                  // The web distribution's domain is only known once the web stack is deployed, and this
                  // stateful stack must not depend on a stateless one. Uploads are authorized by the presigned
                  // URL the API issues, not by CORS, so any CloudFront origin is allowed here until the
                  // environments get their own domain names.
                  allowedOrigins: ['https://*.cloudfront.net', ...settings.extraCorsOrigins],
                  allowedMethods: [HttpMethods.GET, HttpMethods.HEAD, HttpMethods.PUT, HttpMethods.POST],
                  allowedHeaders: ['*'],
                  exposedHeaders: ['ETag'],
                  maxAge: 3600,
                },
              ],
            }
          : {}),
        removalPolicy,
        autoDeleteObjects: !settings.retainData,
      });
      return bucket;
    });

    // Stateful like the tables: the key an operator put must survive a redeploy, and in prod a stack deletion.
    // CloudFormation cannot create a secret without a value, so it starts with a random placeholder, which the
    // functions refuse as "no key yet" until an operator puts the real one.
    const stripeSecret = new Secret(this, STRIPE_SECRET.constructId, {
      secretName: STRIPE_SECRET.name(settings.name),
      description: `Stripe secret key of device-data ${settings.name}: put by operators, read by the billing areas`,
      generateSecretString: { passwordLength: 32, excludePunctuation: true },
      removalPolicy,
    });
    Validations.of(stripeSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'A Stripe API key cannot be rotated by a Secrets Manager rotation Lambda: Stripe issues and rolls keys only ' +
        "in its dashboard. Operators roll the key there and put the new one (README, 'Billing'); the functions " +
        'read it at each cold start.',
    });
    this.stripeSecret = stripeSecret;

    const stripeWebhookSecret = new Secret(this, STRIPE_WEBHOOK_SECRET.constructId, {
      secretName: STRIPE_WEBHOOK_SECRET.name(settings.name),
      description: `Stripe webhook signing secret of device-data ${settings.name}: put by operators, read by the customer area`,
      generateSecretString: { passwordLength: 32, excludePunctuation: true },
      removalPolicy,
    });
    Validations.of(stripeWebhookSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'A webhook signing secret is issued by Stripe for its endpoint and rolled only in its dashboard; operators put ' +
        "the new one (README, 'Billing').",
    });
    this.stripeWebhookSecret = stripeWebhookSecret;

    // Stateful like the tables whose secrets it seals: a key deleted with the stack would leave every webhook unsigned.
    // KMS rotates its material yearly and keeps the old material to open what it sealed.
    this.webhookSecretsKey = new Key(this, 'WebhookSecretsKey', {
      description: `device-data ${settings.name}: seals the signing secrets of customers' webhooks`,
      enableKeyRotation: true,
      removalPolicy,
      ...(settings.retainData ? {} : { pendingWindow: Duration.days(7) }),
    });

    keepAutoDeleteLogs(this, logSettings(settings));
  }
}
