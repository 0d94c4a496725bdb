import { LOOKUP_TABLES } from '../../functions/_shared/table-lookup';
import type { TableKey } from '../../functions/_shared/tables';
import { MIGRATIONS } from '../../functions/migrate/migrations/catalogue';
import { AREA_NAMES, AREAS, type AreaName } from '../../shared/contracts/areas';
import { AUDITS } from '../../shared/contracts/audits';
import { type AnyAuditMap, isAudited } from '../../shared/contracts/define-audit';
import { allDevicesFilter, deviceAuthorizerName, FIRMWARE_STATUS_RULE, READINGS_RULE } from '../../shared/iot/topics';
import type { BucketKey, QueueKey } from './storage';

export interface ServiceResources {
  /** Tables the area's Lambda reads and writes. */
  tables: TableKey[];
  /** Tables the area's Lambda only reads (e.g. the relations and access versions behind its access checks). */
  readTables?: TableKey[];
  /**
   * Tables the area's Lambda reads by key only (GetItem, BatchGetItem; no Query or Scan): the system area's item
   * look-up, over the tables functions/_shared/table-lookup.ts allows.
   */
  keyReadTables?: TableKey[];
  /**
   * Tables whose items it may update in these attributes only (UpdateItem; the key attribute named too), on top of
   * reading them: data ingress writes a device credential's `lastUsed` and nothing else of it.
   */
  updateAttributes?: Partial<Record<TableKey, string[]>>;
  buckets?: BucketKey[];
  /** Buckets whose objects the area lists and deletes but never reads or writes (the system area's cache eviction). */
  evictBuckets?: BucketKey[];
  /** Buckets whose objects it writes and reads but may never delete (an archive: the datasets' files). */
  archiveBuckets?: BucketKey[];
  /** Buckets whose objects (and their versions) it only reads, e.g. to sign a GET. */
  readBuckets?: BucketKey[];
  /** Sends jobs to the queue. */
  jobs?: boolean;
  /** Other queues it sends to (QUEUES' keys; `jobs` has its own flag above). */
  queues?: Exclude<QueueKey, 'jobs'>[];
  /** Publishes to IoT Core topics (the live view's watcher topics) through the IoT data plane. */
  realtimePublish?: boolean;
  /**
   * Attaches and detaches the realtime IoT policy to callers' identities (spec §7 target policies): the area's API
   * Lambda only, whose live routes do it; the area's workers, jobs, hooks and rules never get this grant.
   */
  realtimePolicy?: boolean;
  /** Runs the identity provider's admin operations on the user pool (USER_POOL_ID). */
  identityAdmin?: boolean;
  /** Lists the members of the user pool's groups (USER_POOL_ID), and nothing else of the pool. */
  identityGroups?: boolean;
  /** Writes links to the web app (WEB_ORIGIN) into what it stores, e.g. a dataset's citation. */
  webOrigin?: boolean;
  /** Sends e-mail through SES (MAIL_FROM). */
  email?: boolean;
  /** Calls Stripe: may read the Stripe secret key's secret, named by STRIPE_SECRET_ARN. */
  billing?: boolean;
  /** Verifies Stripe's webhooks: may read the signing secret's secret, named by STRIPE_WEBHOOK_SECRET_ARN. */
  billingWebhook?: boolean;
  /** Is told the environment's identity providers and their labels (SIGN_IN_PROVIDERS, JSON): no grant, data only. */
  signInProviders?: boolean;
  /** Asks for roll-ups as the environment coalesces them (ROLLUP_COALESCING, `none` or `hour`): no grant, data only. */
  rollupCoalescing?: boolean;
  /**
   * Seals and opens webhooks' signing secrets with the environment's KMS key (WEBHOOK_SECRETS_KEY_ARN: Encrypt and
   * Decrypt on that key only), and is told where webhooks may be sent (WEBHOOK_TARGETS, `public` in the cloud).
   */
  webhookSecrets?: boolean;
}

/**
 * The per-user session record every HTTP area reads once per signed-in request (see http-area's session
 * guard): the CDK grants each area read access to it, in addition to SERVICE_RESOURCES.
 */
export const SESSION_TABLE: TableKey = 'accessVersions';

/**
 * What each service area's Lambda may touch. The CDK api stack grants exactly this (least privilege) and
 * passes the names as environment; the local gateway sets the same variables.
 */
export const SERVICE_RESOURCES: Record<AreaName, ServiceResources> = {
  // Rules, alerts and each device's alert state (docs/alerts.md). Who may set or see a rule: the access module
  // (relations, campaign windows); a rule's measurement is checked against the device's (devices); the preview reads
  // the readings as the chart would (the viewer's tier window: subscription record and tier features); the sweep reads
  // the devices' last readings and plans; fired and resolved alerts are events for the notifications worker.
  // A fired or resolved alert whose effects the API or the sweep does (silences, plans, an outbox redone) is also an
  // alert.fired / alert.resolved event for the webhooks of the device, its campaigns and its organization
  // (docs/integrations.md): written to their lanes, which are woken.
  alerts: {
    tables: ['alertRules', 'alerts', 'alertStates', 'webhookDeliveries'],
    readTables: [
      'relations',
      'accessVersions',
      'campaigns',
      'devices',
      'readings',
      'deviceSubscriptions',
      'parameters',
      'webhooks',
    ],
    // The rest marks of a device's alert state on its record (decision 097), kept by every state write.
    updateAttributes: { devices: ['id', 'alertsAtRest', 'alertsBusy'] },
    jobs: true,
    queues: ['webhooks'],
  },
  campaigns: { tables: ['campaigns', 'relations', 'accessVersions'], readTables: ['organizations'], jobs: true },
  // Releases, test runs, rollouts and their targets; a rollout writes each targeted device's `firmwareTarget` and
  // finds a campaign's or organization's devices through the relations (docs/code-releases.md). A rollout of more
  // than 1,000 devices is assigned by the area's worker, a step per message on the rollouts queue (decision 114).
  'code-releases': {
    tables: ['codeReleases', 'releaseTestRuns', 'releaseRollouts', 'rolloutTargets', 'devices'],
    // Who ran a test or started a rollout is kept by e-mail as well (access tokens carry none): the users table.
    readTables: ['relations', 'campaigns', 'organizations', 'users'],
    buckets: ['releases'],
    // A halted rollout is announced to the release's staff and the devices' organizations' managers (its stage job).
    jobs: true,
    queues: ['rollouts'],
  },
  // Stripe's webhook writes each device's subscription record; the device's product line decides its tier.
  customer: {
    // A paid checkout takes what it bought out of the buyer's cart (the cart is on their users-table record).
    // A device's changed subscription is a subscription.changed event for its webhooks (docs/integrations.md).
    tables: ['deviceSubscriptions', 'deviceSubscriptionHistory', 'billingEvents', 'users', 'webhookDeliveries'],
    // Payment failures and trial ends are events for the notifications worker.
    jobs: true,
    queues: ['webhooks'],
    readTables: ['devices', 'webhooks', 'relations'],
    billing: true,
    billingWebhook: true,
  },
  // Ingest writes readings, counts what it refuses, marks devices seen and hands roll-ups to the worker; a device's
  // firmware report moves its rollout target and the rollout's adoption counters; a device asking for its firmware
  // gets a presigned download of its active rollout's artifact (read only).
  // After a batch is stored, its device's alert rules evaluate it (docs/alerts.md): the rules (found through the
  // device's campaigns and organization, the relations), the device's alert state and the alerts it projects, and a
  // fired or resolved alert's notification (its recipients' access checked) on the jobs queue.
  // A stored batch is also a readings.received event for the webhooks of the device, its campaigns and its
  // organization (found through the relations): written to their lanes, which are woken (docs/integrations.md).
  'data-ingress': {
    tables: [
      'readings',
      'ingestStats',
      'devices',
      'releaseRollouts',
      'rolloutTargets',
      'alertStates',
      'alerts',
      'webhookDeliveries',
    ],
    readTables: [
      'deviceCredentials',
      'liveWatches',
      'codeReleases',
      'alertRules',
      'relations',
      'accessVersions',
      'campaigns',
      'webhooks',
    ],
    updateAttributes: { deviceCredentials: ['credentialId', 'lastUsed'] },
    jobs: true,
    readBuckets: ['releases'],
    queues: ['sensorData', 'webhooks'],
    realtimePublish: true,
    rollupCoalescing: true,
  },
  // Builds check the builder's download rights (relations, campaign windows, tiers) and read the readings; the
  // worker writes the files to an archive bucket it can never delete from.
  datasets: {
    tables: ['datasets'],
    readTables: [
      'readings',
      'devices',
      'deviceSubscriptions',
      'parameters',
      'relations',
      'accessVersions',
      'campaigns',
      'users',
      // The devices' calibrations and exclusions, applied to the files and named in the manifest.
      'dataQuality',
    ],
    archiveBuckets: ['datasets'],
    queues: ['datasets'],
    webOrigin: true,
  },
  // Webhooks and their deliveries (docs/integrations.md). Who may add or read one: the access module (relations,
  // campaign windows); a target must exist (devices, campaigns, organizations). A webhook that starts or stops taking
  // device.online / device.offline touches its target's devices (found through the relations) in the alerts area's
  // state, whose sweep watches their presence (decision 105). A webhook turned off after a day of failures is an event
  // for the notifications worker, which tells its owner.
  integrations: {
    tables: ['webhooks', 'webhookDeliveries', 'alertStates'],
    readTables: ['relations', 'accessVersions', 'campaigns', 'devices', 'organizations'],
    jobs: true,
    queues: ['webhooks'],
    webhookSecrets: true,
  },
  devices: {
    tables: ['devices', 'deviceCredentials', 'relations', 'accessVersions'],
    // A transfer's new owner must be a person the platform knows; campaign windows for access checks; a device's
    // firmware update history reads what became of each update (the code-releases area's targets).
    readTables: ['users', 'campaigns', 'rolloutTargets'],
    jobs: true,
  },
  // Each migration's tables (functions/migrate/migrations): the relations migration is the relations area's own.
  migrate: {
    tables: ['migrations', 'relations', 'accessVersions', 'deviceSubscriptionHistory', 'webhookDeliveries'],
    readTables: ['campaigns', 'deviceSubscriptions', 'webhooks'],
    jobs: true,
  },
  notifications: {
    tables: ['notifications', 'notificationDeliveries', 'notificationPreferences'],
    // Audiences resolve through relations and groups; e-mail addresses, names and roles come from the users table.
    readTables: ['relations', 'users'],
    // The worker fans a notification out through the jobs queue it consumes.
    jobs: true,
    email: true,
    identityGroups: true,
  },
  organizations: {
    tables: ['organizations', 'relations', 'accessVersions'],
    // Campaign windows, read by the access module (ACCESS_ENV).
    readTables: ['campaigns'],
    buckets: ['logos'],
    jobs: true,
  },
  // Every area that checks object access reads campaign windows (functions/_shared/access, ACCESS_ENV).
  // Names beside ids (POST /names) read devices, organizations and campaigns by key.
  relations: {
    tables: ['relations', 'accessVersions'],
    readTables: ['campaigns', 'devices', 'organizations'],
    jobs: true,
  },
  // A finished export is an export.ready event for the device's webhooks (docs/integrations.md).
  'sensor-data': {
    // dataQuality: calibrations, exclusions and their reprocessing (docs/data-quality.md).
    tables: ['rollups', 'apiKeys', 'apiUsage', 'exports', 'liveWatches', 'dataQuality', 'webhookDeliveries'],
    // Reads are gated by the device's access (relations, campaign windows) and its tier (subscription record, and
    // what each tier gives: the system area's `tier-features` parameter).
    readTables: [
      'readings',
      'devices',
      'deviceSubscriptions',
      'parameters',
      'relations',
      'accessVersions',
      'campaigns',
      'webhooks',
    ],
    buckets: ['chartData', 'exports'],
    // Quota warnings are events for the notifications worker.
    jobs: true,
    queues: ['sensorData', 'webhooks'],
    realtimePolicy: true,
  },
  // Staff look items up by key in the allowed tables; cache files are listed and evicted here and rebuilt by the
  // sensor-data worker, to whose queue this area sends roll-up messages (docs/system.md).
  system: {
    tables: ['parameters'],
    keyReadTables: LOOKUP_TABLES.filter((table) => table !== 'parameters'),
    evictBuckets: ['chartData'],
    queues: ['sensorData'],
  },
  users: {
    // An account's deletion removes the person's alert rules (their devices made due, so the sweep closes their
    // alerts) and webhooks with their deliveries (functions/_shared/account/holdings-wiring.ts).
    tables: [
      'users',
      'invites',
      'authEvents',
      'accessVersions',
      'relations',
      'peopleLookups',
      'alertRules',
      'alertStates',
      'webhooks',
      'webhookDeliveries',
    ],
    buckets: ['userBackups'],
    jobs: true,
    identityAdmin: true,
    email: true,
    // The user record's subscriptionId is looked up by e-mail (spec §3).
    billing: true,
    // Organization managers read how their members sign in, by the providers' labels (issue 21).
    signInProviders: true,
  },
  // POST /api/aws getSignedS3Url: reads an export's record, a dataset's, or a device's access before signing a GET.
  // The subscription endpoints (spec §7) call Stripe and read the caller's e-mail and billing id from the users table.
  api: {
    tables: [],
    readTables: [
      'exports',
      'devices',
      'deviceSubscriptions',
      'deviceSubscriptionHistory',
      // A signed URL of chart data is gated by the device's tier, whose features are the `tier-features` parameter.
      'parameters',
      'relations',
      'accessVersions',
      'campaigns',
      'users',
      'datasets',
    ],
    // It only signs GETs: no put, delete or listing in any of them.
    readBuckets: ['exports', 'chartData', 'datasets'],
    billing: true,
  },
};

/** The area whose routes serve the audit log's search (spec §1 has no audit area). */
export const AUDIT_SEARCH_AREA: AreaName = 'system';

/**
 * The audit log (docs/audit.md), derived from the contracts: an area's API Lambda may append to it (PutItem only)
 * when its contract declares an audited route, and read the acting staff member's e-mail from the users table (that
 * attribute only); the system area may also Query it. No function of any area, job or worker may update or delete
 * an entry (test/infra/audit.test.ts walks every role).
 */
export const AUDIT_LOG_ACCESS: Record<AreaName, { append: boolean; search: boolean }> = Object.fromEntries(
  AREA_NAMES.map((area) => [
    area,
    {
      append: Object.values(AUDITS[area] as AnyAuditMap).some(isAudited),
      search: area === AUDIT_SEARCH_AREA,
    },
  ]),
) as Record<AreaName, { append: boolean; search: boolean }>;

/** The Lambda entry of each area that has routes (`functions/{area}/handler.ts`, export `handler`). */
/**
 * Each area API's responses from this size on are compressed for clients that accept it (about one TCP packet): API
 * Gateway's `minimumCompressionSize`, which the local gateway applies as API Gateway does.
 */
export const MIN_COMPRESSION_SIZE_BYTES = 1024;

export const handlerEntry = (area: AreaName): string => `functions/${area}/handler.ts`;

/** Whether the area serves routes, and so has an API and a handler Lambda. */
export const hasRoutes = (area: AreaName): boolean => Object.keys(AREAS[area].routes).length > 0;

/**
 * Queue workers: the CDK wires each as an SQS event source (partial batch failures); the local stack polls
 * for it. A worker gets its area's SERVICE_RESOURCES.
 */
export const WORKERS: {
  name: string;
  entry: string;
  area: AreaName;
  queue: QueueKey;
  /** Messages per invocation. @default 10 (WORKER_BATCH_SIZE) */
  batchSize?: number;
}[] = [
  // Domain events and notification jobs (docs/notifications.md): the jobs queue's only consumer.
  { name: 'NotificationsWorker', entry: 'functions/notifications/worker.ts', area: 'notifications', queue: 'jobs' },
  { name: 'SensorDataWorker', entry: 'functions/sensor-data/worker.ts', area: 'sensor-data', queue: 'sensorData' },
  // Dataset builds, a step per message (docs/datasets.md).
  { name: 'DatasetsWorker', entry: 'functions/datasets/worker.ts', area: 'datasets', queue: 'datasets' },
  // Assignment of a preparing rollout's devices, a step per message (decision 114; docs/code-releases.md).
  {
    name: 'CodeReleasesWorker',
    entry: 'functions/code-releases/worker.ts',
    area: 'code-releases',
    queue: 'rollouts',
    batchSize: 1,
  },
  // Webhook lanes (docs/integrations.md): one lane a message, since a lane sends for up to 30 s and a batch of ten
  // would outlast the function's minute.
  {
    name: 'IntegrationsWorker',
    entry: 'functions/integrations/worker.ts',
    area: 'integrations',
    queue: 'webhooks',
    batchSize: 1,
  },
];

/**
 * Identity provider (Cognito) Lambda triggers: the CDK attaches the entry to the user pool for each
 * trigger; locally cognito-local invokes the same module in-process (infra/local/emulators/cognito.ts).
 */
export const COGNITO_TRIGGERS: {
  name: string;
  entry: string;
  triggers: CognitoTriggerName[];
  /** What the trigger may touch: it runs inside every sign-in, so it gets no more than it writes. */
  tables: TableKey[];
  /**
   * What it may do to its own user pool, and to no other. The pool's id comes in each trigger event: the function
   * cannot be told it (the pool names the function, so the function naming the pool is a CloudFormation cycle).
   */
  userPoolActions: UserPoolTriggerAction[];
  /** Whether it is told the providers the environment trusts for linking (LINKING_TRUSTED_PROVIDERS, JSON). */
  linkingProviders?: boolean;
}[] = [
  {
    name: 'UsersIdentityEvents',
    entry: 'functions/users/identity-events.ts',
    triggers: ['PostConfirmation', 'PostAuthentication'],
    tables: ['users', 'authEvents'],
    // A person's first sign-in through an identity provider puts them in Authenticated_users (issue 21).
    userPoolActions: ['cognito-idp:AdminAddUserToGroup'],
  },
  {
    // The linking rule for a first sign-in through an identity provider (docs/decisions/037-federated-linking-rule.md).
    name: 'UsersPreSignUp',
    entry: 'functions/users/pre-sign-up.ts',
    triggers: ['PreSignUp'],
    tables: [],
    userPoolActions: ['cognito-idp:ListUsers', 'cognito-idp:AdminLinkProviderForUser'],
    linkingProviders: true,
  },
];

/** The user-pool operations a trigger is attached to (infra/stacks/auth-stack.ts maps them onto CDK's). */
export type CognitoTriggerName = 'PreSignUp' | 'PostConfirmation' | 'PostAuthentication';

/** The pool actions a trigger may be granted: reading accounts by e-mail, linking a login, adding to a group. */
export type UserPoolTriggerAction =
  | 'cognito-idp:ListUsers'
  | 'cognito-idp:AdminLinkProviderForUser'
  | 'cognito-idp:AdminAddUserToGroup';

/**
 * Scheduled jobs: the CDK creates an EventBridge rule per job; the local stack runs each on its interval
 * (`localEverySeconds` where the local home runs it more often than the cloud).
 * The handler receives an EventBridge scheduled event and takes "now" from its `time`.
 */
export const SCHEDULED_JOBS: {
  name: string;
  entry: string;
  area: AreaName;
  everyMinutes: number;
  localEverySeconds?: number;
}[] = [
  { name: 'UsersDeletionJob', entry: 'functions/users/deletion-job.ts', area: 'users', everyMinutes: 60 },
  // Rollout stages: timeouts, abort criteria, advancing a soaked stage, announcing halts (docs/code-releases.md).
  { name: 'RolloutStagesJob', entry: 'functions/code-releases/rollout-job.ts', area: 'code-releases', everyMinutes: 5 },
  // The silence sweep, reminders, plan looks and devices' presence for webhooks (docs/alerts.md; decision 105): every minute, every 10 s on one machine, where a
  // person trying a silence rule should not wait a minute to see it.
  {
    name: 'AlertsSweepJob',
    entry: 'functions/alerts/sweep-job.ts',
    area: 'alerts',
    everyMinutes: 1,
    localEverySeconds: 10,
  },
];

/**
 * Work every deploy runs, as a custom resource whose properties carry `version` (so a deploy that changes it runs
 * the work again): the CDK wires each through its provider framework; locally `npm start` runs the same code at
 * every start. A hook's function gets its area's SERVICE_RESOURCES.
 */
export const DEPLOY_HOOKS: { name: string; entry: string; area: AreaName; version: () => string }[] = [
  {
    name: 'MigrationsRunner',
    entry: 'functions/migrate/deploy.ts',
    area: 'migrate',
    version: () => MIGRATIONS.map((migration) => migration.id).join(','),
  },
];

/**
 * IoT topic rules with a Lambda action (`SELECT *, topic() AS topic, principal() AS principal FROM '{topicFilter}'`,
 * area-stack.ts iotRuleSql): the CDK creates the rule, named `iotRuleName(name, env)`; locally the MQTT rule bridge
 * invokes it. Messages reach it through the broker on `topicFilter`, or through Basic Ingest on
 * `$aws/rules/{rule name}/{topic}` (decision 043). A rule's function gets its area's SERVICE_RESOURCES.
 */
export const IOT_RULES: { name: string; entry: string; area: AreaName; topicFilter: string }[] = [
  {
    name: READINGS_RULE,
    entry: 'functions/data-ingress/iot-readings.ts',
    area: 'data-ingress',
    topicFilter: allDevicesFilter('readings'),
  },
  {
    // Devices' reports of their firmware updates (docs/code-releases.md), as POST /data-ingress/firmware/status.
    name: FIRMWARE_STATUS_RULE,
    entry: 'functions/data-ingress/iot-firmware-status.ts',
    area: 'data-ingress',
    topicFilter: allDevicesFilter('firmware-status'),
  },
];

/**
 * IoT Core custom authorizers (docs/decisions/031-mqtt-custom-authorizer.md): the CDK creates the authorizer
 * (`authorizerName(env)`, signing disabled: MQTT user name and password) in the area's stack, with the function and the
 * permission for IoT Core to invoke it; locally the broker's authenticate hook calls the same use case. Unlike the
 * area's other functions, an authorizer gets only `keyReadTables`: it runs on every device connection and refresh,
 * so it may read a credential by its key and nothing else (no IoT, Cognito or write grant).
 */
export const IOT_AUTHORIZERS: {
  name: string;
  entry: string;
  area: AreaName;
  authorizerName: (env: string) => string;
  keyReadTables: TableKey[];
}[] = [
  {
    name: 'DeviceMqttAuthorizer',
    entry: 'functions/data-ingress/mqtt-authorizer.ts',
    area: 'data-ingress',
    authorizerName: deviceAuthorizerName,
    keyReadTables: ['deviceCredentials'],
  },
];
