import type { IUserPool } from 'aws-cdk-lib/aws-cognito';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { STRIPE_MODE_ENV, type StripeMode } from '../../functions/_shared/billing/stripe-mode';
import { ROLLUP_COALESCING_ENV, type RollupCoalescing } from '../../functions/_shared/sensor-data/rollup-coalescing';
import { TABLES, type TableDefinition, type TableKey } from '../../functions/_shared/tables';
import type { HostedProvider } from '../../shared/auth/hosted-sign-in';
import type { EnvName } from '../definitions/environments';
import { SESSION_TABLE, type ServiceResources } from '../definitions/services';
import { BUCKETS, QUEUES, type QueueKey, STRIPE_SECRET, STRIPE_WEBHOOK_SECRET } from '../definitions/storage';
import type { ServiceFunction } from './service-function';

/** Everything a service area's functions may be granted, created by the data, auth and messaging stacks. */
export interface ServiceResourceRefs {
  envName: EnvName;
  /** Which Stripe keys the billing functions accept (STRIPE_MODE). */
  stripeMode: StripeMode;
  /** When ingest's roll-ups run (ROLLUP_COALESCING). */
  rollupCoalescing: RollupCoalescing;
  tables: Record<TableKey, ITable>;
  /** Every queue of QUEUES, by key. */
  queues: Record<QueueKey, IQueue>;
  userPool: IUserPool;
  mail: { identityArn: string; from: string };
  /** The web app's origin, for links in e-mail and citations (WEB_ORIGIN). */
  webOrigin: string;
  /** The Stripe secret key's secret (STRIPE_SECRET_ARN). */
  stripeSecret: ISecret;
  /** Stripe's webhook signing secret (STRIPE_WEBHOOK_SECRET_ARN). */
  stripeWebhookSecret: ISecret;
  /** What the live view's functions need of IoT Core and the identity pool. */
  realtime: RealtimeRefs;
  /** The environment's identity providers with the labels people read (SIGN_IN_PROVIDERS). */
  signInProviders: readonly HostedProvider[];
  /** The KMS key webhooks' signing secrets are sealed with (WEBHOOK_SECRETS_KEY_ARN). */
  webhookSecretsKey: IKey;
}

/** Where webhooks may be sent in the cloud: public https addresses only (functions/integrations/domain/target-policy.ts). */
export const CLOUD_WEBHOOK_TARGETS = 'public';

/** The variable an area with `signInProviders` reads the providers from, as JSON `[{ name, label }]`. */
export const SIGN_IN_PROVIDERS_ENV = 'SIGN_IN_PROVIDERS';

/** IoT Core and identity-pool names for the realtime grants (the realtime and auth stacks create them). */
export interface RealtimeRefs {
  /** The account's IoT data endpoint host (iot:Data-ATS), where the backend publishes. */
  dataEndpoint: string;
  /** The topics the backend may publish to: every topic below this prefix (`{env}/identities/`). */
  topicPrefix: string;
  /** The identity pool whose identities receive the policy. */
  identityPool: { id: string; arn: string };
}

const indexesOf = (table: TableKey) => ((TABLES[table] as TableDefinition).indexes ?? []).map((i) => i.name);

/**
 * Grants one function exactly what SERVICE_RESOURCES lists for its area, and names each resource in its
 * environment. The area's API Lambda and its scheduled jobs get the same grants from here.
 */
export const grantServiceResources = (
  fn: ServiceFunction,
  resources: ServiceResources,
  refs: ServiceResourceRefs,
  {
    sessionCheck,
    billing,
    liveRoutes = false,
    auditLog = { append: false, search: false },
  }: {
    sessionCheck: boolean;
    billing: boolean;
    /** The function serves the area's routes, among them the live view's, which hand out the realtime policy. */
    liveRoutes?: boolean;
    /** The area API's share of the audit log (AUDIT_LOG_ACCESS); jobs, workers and hooks get none. */
    auditLog?: { append: boolean; search: boolean };
  },
): void => {
  for (const table of resources.tables) {
    fn.readWriteTable(refs.tables[table], TABLES[table].envVar, indexesOf(table));
  }
  const readOnly = new Set(resources.readTables ?? []);
  // Every signed-in request is checked against the caller's session record (http-area's session guard).
  if (sessionCheck && !resources.tables.includes(SESSION_TABLE)) readOnly.add(SESSION_TABLE);
  for (const table of readOnly) fn.readTable(refs.tables[table], TABLES[table].envVar, indexesOf(table));
  const granted = new Set([...resources.tables, ...readOnly]);
  for (const table of resources.keyReadTables ?? []) {
    if (!granted.has(table)) fn.readTableByKey(refs.tables[table], TABLES[table].envVar);
  }
  for (const [table, attributes] of Object.entries(resources.updateAttributes ?? {}) as [TableKey, string[]][]) {
    fn.updateAttributes(refs.tables[table], TABLES[table].envVar, attributes);
  }
  if (auditLog.append) {
    fn.appendToTable(refs.tables.auditLog, TABLES.auditLog.envVar);
    // The actor's e-mail for an entry, when the token carries none; an area that reads the users table has it anyway.
    if (!resources.tables.includes('users') && !readOnly.has('users') && !resources.keyReadTables?.includes('users')) {
      fn.readAttributes(refs.tables.users, TABLES.users.envVar, ['id', 'email']);
    }
  }
  if (auditLog.search) fn.queryTable(refs.tables.auditLog, TABLES.auditLog.envVar, indexesOf('auditLog'));
  for (const bucket of resources.buckets ?? []) {
    fn.readWriteBucket(BUCKETS[bucket].name(refs.envName), BUCKETS[bucket].envVar);
  }
  for (const bucket of resources.evictBuckets ?? []) {
    fn.listAndDeleteObjects(BUCKETS[bucket].name(refs.envName), BUCKETS[bucket].envVar);
  }
  for (const bucket of resources.archiveBuckets ?? []) {
    fn.archiveBucket(BUCKETS[bucket].name(refs.envName), BUCKETS[bucket].envVar);
  }
  for (const bucket of resources.readBuckets ?? []) {
    fn.readBucket(BUCKETS[bucket].name(refs.envName), BUCKETS[bucket].envVar);
  }
  if (resources.jobs) fn.sendMessages(refs.queues.jobs, QUEUES.jobs.envVar);
  for (const queue of resources.queues ?? []) fn.sendMessages(refs.queues[queue], QUEUES[queue].envVar);
  if (resources.realtimePublish) fn.publishIotTopics(refs.realtime.topicPrefix, refs.realtime.dataEndpoint);
  const attachesPolicy = resources.realtimePolicy === true && liveRoutes;
  if (attachesPolicy) fn.attachIotPolicy(refs.realtime.identityPool);
  // Realtime topics start with the environment's name (`{env}/identities/…`, shared/iot/realtime.ts).
  if (resources.realtimePublish || attachesPolicy) fn.lambda.addEnvironment('ENV_NAME', refs.envName);
  if (resources.identityAdmin) fn.administerUserPool(refs.userPool);
  else if (resources.identityGroups) fn.listUserPoolGroups(refs.userPool);
  if (resources.email) fn.sendMail(refs.mail.identityArn, refs.mail.from);
  if (resources.email || resources.webOrigin) fn.lambda.addEnvironment('WEB_ORIGIN', refs.webOrigin);
  if (resources.billing && billing) {
    fn.readStripeSecretKey(refs.stripeSecret, STRIPE_SECRET.envVar);
    fn.lambda.addEnvironment(STRIPE_MODE_ENV, refs.stripeMode);
  }
  if (resources.rollupCoalescing) fn.lambda.addEnvironment(ROLLUP_COALESCING_ENV, refs.rollupCoalescing);
  if (resources.signInProviders) {
    fn.lambda.addEnvironment(SIGN_IN_PROVIDERS_ENV, JSON.stringify(refs.signInProviders));
  }
  if (resources.webhookSecrets) {
    fn.sealWithKey(refs.webhookSecretsKey, 'WEBHOOK_SECRETS_KEY_ARN');
    fn.lambda.addEnvironment('WEBHOOK_TARGETS', CLOUD_WEBHOOK_TARGETS);
  }
  if (resources.billingWebhook && billing)
    fn.readStripeSecretKey(refs.stripeWebhookSecret, STRIPE_WEBHOOK_SECRET.envVar);
};
