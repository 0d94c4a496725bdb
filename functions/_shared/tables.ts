import type { EnvName } from '../../shared/config/environment-names';
import type { AreaName } from '../../shared/contracts/areas';

export type KeyType = 'S' | 'N';

export interface KeyDefinition {
  name: string;
  type: KeyType;
}

export interface TableDefinition {
  /** Stable CDK construct id: renaming it replaces the table. */
  constructId: string;
  area: AreaName;
  entity: string;
  /** The variable through which a Lambda of the owning area learns the table's name. */
  envVar: string;
  partitionKey: KeyDefinition;
  sortKey?: KeyDefinition;
  indexes?: { name: string; partitionKey: KeyDefinition; sortKey?: KeyDefinition }[];
  /**
   * A number attribute (seconds) after which DynamoDB may delete the item (housekeeping only:
   * docs/architecture.md#data).
   */
  timeToLiveAttribute?: string;
}

/**
 * Every DynamoDB table, defined once: the CDK data stack and the local stack's bootstrap both create
 * tables from this list, so the two homes cannot drift.
 */
export const TABLES = {
  parameters: {
    constructId: 'ParametersTable',
    area: 'system',
    entity: 'parameters',
    envVar: 'PARAMETERS_TABLE',
    partitionKey: { name: 'id', type: 'S' },
  },
  /** `id` = `type#referrerId#referentId`; each index sorts by type first, so a type is a key prefix. */
  relations: {
    constructId: 'RelationsTable',
    area: 'relations',
    entity: 'relations',
    envVar: 'RELATIONS_TABLE',
    partitionKey: { name: 'id', type: 'S' },
    indexes: [
      {
        name: 'byReferrer',
        partitionKey: { name: 'referrerId', type: 'S' },
        sortKey: { name: 'referrerSort', type: 'S' },
      },
      {
        name: 'byReferent',
        partitionKey: { name: 'referentId', type: 'S' },
        sortKey: { name: 'referentSort', type: 'S' },
      },
      { name: 'byType', partitionKey: { name: 'type', type: 'S' }, sortKey: { name: 'created', type: 'N' } },
    ],
  },
  /**
   * One record per user, read on every signed-in request (consistently, once): the access version,
   * raised whenever a relation that decides the user's access changes (every Lambda's access cache
   * compares it), and the session state the API is the authority on: `disabled`, `signedOutAt` (tokens
   * authenticated before it are refused), and `groups` with `groupsChangedAt` (they replace the groups of
   * tokens issued before the change). See functions/_shared/access and docs/users.md.
   */
  accessVersions: {
    constructId: 'AccessVersionsTable',
    area: 'relations',
    entity: 'access-versions',
    envVar: 'ACCESS_VERSIONS_TABLE',
    partitionKey: { name: 'userId', type: 'S' },
    timeToLiveAttribute: 'expiresAt',
  },
  /**
   * Spec §3 User: the platform's record of a person, keyed by the identity provider's username (the
   * tokens' `sub`). `emailKey` (lower-cased e-mail) finds a person by e-mail; `deletionState` is set only
   * while a deletion is queued, so the byDeletionDue index holds exactly the queue.
   */
  users: {
    constructId: 'UsersTable',
    area: 'users',
    entity: 'users',
    envVar: 'USERS_TABLE',
    partitionKey: { name: 'id', type: 'S' },
    indexes: [
      { name: 'byEmail', partitionKey: { name: 'emailKey', type: 'S' } },
      {
        name: 'byDeletionDue',
        partitionKey: { name: 'deletionState', type: 'S' },
        sortKey: { name: 'deletionDueAt', type: 'N' },
      },
    ],
  },
  /** Spec §3 Invite; listed by inviter and by invited e-mail, newest first. */
  invites: {
    constructId: 'InvitesTable',
    area: 'users',
    entity: 'invites',
    envVar: 'INVITES_TABLE',
    partitionKey: { name: 'id', type: 'S' },
    indexes: [
      { name: 'byInviter', partitionKey: { name: 'inviterId', type: 'S' }, sortKey: { name: 'created', type: 'N' } },
      {
        name: 'byInvitedEmail',
        partitionKey: { name: 'invitedEmail', type: 'S' },
        sortKey: { name: 'created', type: 'N' },
      },
    ],
  },
  /**
   * Per-person counters of the picker's exact-e-mail look-ups, one item per person and hour
   * (`lookups#{userId}#{hourStart}`, an atomic conditional ADD): the limit that keeps the directory from being
   * guessed through it (docs/users.md "Reaching a person by e-mail").
   */
  peopleLookups: {
    constructId: 'PeopleLookupsTable',
    area: 'users',
    entity: 'people-lookups',
    envVar: 'PEOPLE_LOOKUPS_TABLE',
    partitionKey: { name: 'id', type: 'S' },
    timeToLiveAttribute: 'expiresAt',
  },
  /** Sign-in events the platform records itself (the identity provider's own log needs a paid add-on). */
  authEvents: {
    constructId: 'AuthEventsTable',
    area: 'users',
    entity: 'auth-events',
    envVar: 'AUTH_EVENTS_TABLE',
    partitionKey: { name: 'userId', type: 'S' },
    sortKey: { name: 'eventKey', type: 'S' },
  },
  /**
   * The device registry (docs/devices.md). A device's id follows from its serial, so registering a serial twice
   * is a conditional-write conflict, never a second device; staff list by product line, newest first.
   */
  devices: {
    constructId: 'DevicesTable',
    area: 'devices',
    entity: 'devices',
    envVar: 'DEVICES_TABLE',
    partitionKey: { name: 'id', type: 'S' },
    indexes: [
      {
        name: 'byProductLine',
        partitionKey: { name: 'productLine', type: 'S' },
        sortKey: { name: 'created', type: 'N' },
      },
    ],
  },
  /**
   * Per-device ingress credentials, stored hashed: a device presents `{credentialId}.{secret}`, found here by id.
   * byDevice finds a device's credentials for rotation and retirement.
   */
  deviceCredentials: {
    constructId: 'DeviceCredentialsTable',
    area: 'devices',
    entity: 'credentials',
    envVar: 'DEVICE_CREDENTIALS_TABLE',
    partitionKey: { name: 'credentialId', type: 'S' },
    indexes: [{ name: 'byDevice', partitionKey: { name: 'deviceId', type: 'S' } }],
  },
  organizations: {
    constructId: 'OrganizationsTable',
    area: 'organizations',
    entity: 'organizations',
    envVar: 'ORGANIZATIONS_TABLE',
    partitionKey: { name: 'id', type: 'S' },
  },
  /** Campaigns; an organization's campaigns by start time. */
  campaigns: {
    constructId: 'CampaignsTable',
    area: 'campaigns',
    entity: 'campaigns',
    envVar: 'CAMPAIGNS_TABLE',
    partitionKey: { name: 'id', type: 'S' },
    indexes: [
      {
        name: 'byOrganization',
        partitionKey: { name: 'organizationId', type: 'S' },
        sortKey: { name: 'startsAt', type: 'N' },
      },
    ],
  },
  /**
   * Sensor readings (docs/sensor-data.md, decision 044): one partition per device and UTC day (`pk` =
   * `{deviceId}#{YYYY-MM-DD}`), an item per batch and UTC hour sorted by its first reading's time in ms. A batch sent
   * again merges into its own items, and the reader keeps one copy of each timestamp.
   */
  readings: {
    constructId: 'ReadingsTable',
    area: 'sensor-data',
    entity: 'readings',
    envVar: 'READINGS_TABLE',
    partitionKey: { name: 'pk', type: 'S' },
    sortKey: { name: 'ts', type: 'N' },
  },
  /**
   * Hourly and daily min/mean/max/count per measurement, recomputed from the readings by the sensor-data worker
   * (`pk` = `{deviceId}#hour` or `{deviceId}#day`, `ts` = the bucket's start in ms).
   */
  rollups: {
    constructId: 'RollupsTable',
    area: 'sensor-data',
    entity: 'rollups',
    envVar: 'ROLLUPS_TABLE',
    partitionKey: { name: 'pk', type: 'S' },
    sortKey: { name: 'ts', type: 'N' },
  },
  /** Accepted and rejected readings per device and UTC day, by reason: nothing refused goes uncounted. */
  ingestStats: {
    constructId: 'IngestStatsTable',
    area: 'data-ingress',
    entity: 'ingest-stats',
    envVar: 'INGEST_STATS_TABLE',
    partitionKey: { name: 'deviceId', type: 'S' },
    sortKey: { name: 'day', type: 'S' },
  },
  /**
   * A device's subscription (spec §3 Subscription), by device: its tier decides what may be seen, downloaded and
   * called. The customer area writes it from Stripe's webhooks (docs/billing.md). No record: the free tier.
   */
  deviceSubscriptions: {
    constructId: 'DeviceSubscriptionsTable',
    area: 'customer',
    entity: 'device-subscriptions',
    envVar: 'DEVICE_SUBSCRIPTIONS_TABLE',
    partitionKey: { name: 'deviceId', type: 'S' },
  },
  /**
   * Every subscription that has covered a device, by device and subscription id, each as billing last read it: the
   * device's plan history, and what decides which of two subscriptions of one device its record holds.
   */
  deviceSubscriptionHistory: {
    constructId: 'DeviceSubscriptionHistoryTable',
    area: 'customer',
    entity: 'device-subscription-history',
    envVar: 'DEVICE_SUBSCRIPTION_HISTORY_TABLE',
    partitionKey: { name: 'deviceId', type: 'S' },
    sortKey: { name: 'id', type: 'S' },
  },
  /** What each data migration's runs recorded (functions/migrate): status, counts, where it stopped, who ran it. */
  migrations: {
    constructId: 'MigrationsTable',
    area: 'migrate',
    entity: 'migrations',
    envVar: 'MIGRATIONS_TABLE',
    partitionKey: { name: 'id', type: 'S' },
  },
  /** The Stripe events billing has worked (by event id), so a delivery that comes again is only acknowledged. */
  billingEvents: {
    constructId: 'BillingEventsTable',
    area: 'customer',
    entity: 'billing-events',
    envVar: 'BILLING_EVENTS_TABLE',
    partitionKey: { name: 'eventId', type: 'S' },
    timeToLiveAttribute: 'expiresAt',
  },
  /** Public API keys, stored hashed (`{keyId}.{secret}` is shown once); a user's keys by creation time. */
  apiKeys: {
    constructId: 'ApiKeysTable',
    area: 'sensor-data',
    entity: 'api-keys',
    envVar: 'API_KEYS_TABLE',
    partitionKey: { name: 'keyId', type: 'S' },
    indexes: [
      { name: 'byOwner', partitionKey: { name: 'ownerId', type: 'S' }, sortKey: { name: 'created', type: 'N' } },
    ],
  },
  /** API requests per device and calendar month (UTC), `pk` = `{deviceId}#{YYYY-MM}`, with the warnings sent. */
  apiUsage: {
    constructId: 'ApiUsageTable',
    area: 'sensor-data',
    entity: 'api-usage',
    envVar: 'API_USAGE_TABLE',
    partitionKey: { name: 'pk', type: 'S' },
    timeToLiveAttribute: 'expiresAt',
  },
  /** Download export jobs with their progress; a user's exports by creation time. */
  exports: {
    constructId: 'ExportsTable',
    area: 'sensor-data',
    entity: 'exports',
    envVar: 'EXPORTS_TABLE',
    partitionKey: { name: 'id', type: 'S' },
    indexes: [
      { name: 'byOwner', partitionKey: { name: 'ownerId', type: 'S' }, sortKey: { name: 'created', type: 'N' } },
    ],
    timeToLiveAttribute: 'expiresAt',
  },
  /**
   * Data quality (docs/data-quality.md), per device (`deviceId`): its profile (`sk = profile`: the calibrations and
   * active exclusions every reader applies, and the changes still being reprocessed, compact so a read takes it in its
   * read-ahead), each calibration version's and exclusion's full record (`cal#{id}`, `exc#{id}`; never deleted, a
   * removed exclusion is marked so) and the reprocessing run (`job`). `byCampaign`: what was made for a campaign's
   * devices at once (sparse: `campaignId` only on those records).
   */
  dataQuality: {
    constructId: 'DataQualityTable',
    area: 'sensor-data',
    entity: 'data-quality',
    envVar: 'DATA_QUALITY_TABLE',
    partitionKey: { name: 'deviceId', type: 'S' },
    sortKey: { name: 'sk', type: 'S' },
    indexes: [
      { name: 'byCampaign', partitionKey: { name: 'campaignId', type: 'S' }, sortKey: { name: 'created', type: 'N' } },
    ],
  },
  /**
   * Datasets (docs/datasets.md): one item per dataset version, never deleted. `byCreator`: a person's datasets;
   * `byConcept`: the versions of one dataset; `byCampaign`: a campaign's datasets; `byListing`: the public list,
   * sparse (`listing` is set only on a frozen public dataset). The table also holds two kinds of counter items no
   * dataset id can match: build starts per person and hour (`builds#…`, expiring) and a concept's last version
   * number (`versions#{conceptId}`).
   */
  datasets: {
    constructId: 'DatasetsTable',
    area: 'datasets',
    entity: 'datasets',
    envVar: 'DATASETS_TABLE',
    partitionKey: { name: 'id', type: 'S' },
    indexes: [
      { name: 'byCreator', partitionKey: { name: 'creatorId', type: 'S' }, sortKey: { name: 'created', type: 'N' } },
      { name: 'byConcept', partitionKey: { name: 'conceptId', type: 'S' }, sortKey: { name: 'version', type: 'N' } },
      { name: 'byCampaign', partitionKey: { name: 'campaignId', type: 'S' }, sortKey: { name: 'created', type: 'N' } },
      { name: 'byListing', partitionKey: { name: 'listing', type: 'S' }, sortKey: { name: 'frozenAt', type: 'N' } },
    ],
    timeToLiveAttribute: 'expiresAt',
  },
  /**
   * Who watches a device live: the realtime identities the API has checked (`watcher`), until `expiresAt` (s).
   * Ingest publishes a device's new readings to each watcher's own topic.
   */
  liveWatches: {
    constructId: 'LiveWatchesTable',
    area: 'sensor-data',
    entity: 'live-watches',
    envVar: 'LIVE_WATCHES_TABLE',
    partitionKey: { name: 'deviceId', type: 'S' },
    sortKey: { name: 'watcher', type: 'S' },
    timeToLiveAttribute: 'expiresAt',
  },
  /**
   * Notifications (spec §3, docs/notifications.md): the record staff write or a trigger makes, with its status and
   * delivery counts. `feed` is one constant partition, so the admin list is a Query newest first.
   */
  notifications: {
    constructId: 'NotificationsTable',
    area: 'notifications',
    entity: 'notifications',
    envVar: 'NOTIFICATIONS_TABLE',
    partitionKey: { name: 'id', type: 'S' },
    indexes: [
      { name: 'byCreated', partitionKey: { name: 'feed', type: 'S' }, sortKey: { name: 'created', type: 'N' } },
    ],
  },
  /**
   * One item per person, notification and method (`sk` = `{method}#{created}#{notificationId}`): a person's banners
   * are a Query on their own partition, newest first; a notification's deliveries are a Query on byNotification.
   * The key is the delivery's identity, so a redelivered job writes no second banner and sends no second e-mail.
   */
  notificationDeliveries: {
    constructId: 'NotificationDeliveriesTable',
    area: 'notifications',
    entity: 'deliveries',
    envVar: 'NOTIFICATION_DELIVERIES_TABLE',
    partitionKey: { name: 'userId', type: 'S' },
    sortKey: { name: 'sk', type: 'S' },
    indexes: [
      {
        name: 'byNotification',
        partitionKey: { name: 'notificationId', type: 'S' },
        sortKey: { name: 'recipient', type: 'S' },
      },
    ],
  },
  /** Per person: the topics whose e-mail they turned off, and the token of their unsubscribe links (byToken). */
  notificationPreferences: {
    constructId: 'NotificationPreferencesTable',
    area: 'notifications',
    entity: 'preferences',
    envVar: 'NOTIFICATION_PREFERENCES_TABLE',
    partitionKey: { name: 'userId', type: 'S' },
    indexes: [{ name: 'byToken', partitionKey: { name: 'token', type: 'S' } }],
  },
  /**
   * Firmware releases (docs/code-releases.md): `id` = `{productLine}-{version}`, so a version is created once per
   * product line; byProductLine lists a line's releases by semver precedence (`versionKey`, shared/code-releases).
   */
  codeReleases: {
    constructId: 'CodeReleasesTable',
    area: 'code-releases',
    entity: 'releases',
    envVar: 'CODE_RELEASES_TABLE',
    partitionKey: { name: 'id', type: 'S' },
    indexes: [
      {
        name: 'byProductLine',
        partitionKey: { name: 'productLine', type: 'S' },
        sortKey: { name: 'versionKey', type: 'S' },
      },
    ],
  },
  /** A release's test runs, by release; `id` starts with the start time, so a Query runs newest first. */
  releaseTestRuns: {
    constructId: 'ReleaseTestRunsTable',
    area: 'code-releases',
    entity: 'test-runs',
    envVar: 'RELEASE_TEST_RUNS_TABLE',
    partitionKey: { name: 'releaseId', type: 'S' },
    sortKey: { name: 'id', type: 'S' },
  },
  /**
   * Rollouts of releases, with their stages, counters per stage and adoption counters (atomic ADDs); a release's
   * rollouts by time; `live` (sparse: `live` while the stage job has work on one) the rollouts the job looks at.
   */
  releaseRollouts: {
    constructId: 'ReleaseRolloutsTable',
    area: 'code-releases',
    entity: 'rollouts',
    envVar: 'RELEASE_ROLLOUTS_TABLE',
    partitionKey: { name: 'id', type: 'S' },
    indexes: [
      { name: 'byRelease', partitionKey: { name: 'releaseId', type: 'S' }, sortKey: { name: 'created', type: 'N' } },
      { name: 'live', partitionKey: { name: 'live', type: 'S' }, sortKey: { name: 'created', type: 'N' } },
    ],
  },
  /**
   * Each rollout's devices with their update state; `progress` sorts a rollout's devices by
   * `{stage}#{state}#{since}`, so a stage's devices in a state, and those on their way since before a time, are one
   * Query each (docs/code-releases.md, "Per-device state").
   */
  rolloutTargets: {
    constructId: 'RolloutTargetsTable',
    area: 'code-releases',
    entity: 'rollout-targets',
    envVar: 'ROLLOUT_TARGETS_TABLE',
    partitionKey: { name: 'rolloutId', type: 'S' },
    sortKey: { name: 'deviceId', type: 'S' },
    indexes: [
      { name: 'progress', partitionKey: { name: 'rolloutId', type: 'S' }, sortKey: { name: 'progress', type: 'S' } },
    ],
  },
  /**
   * Webhooks (docs/integrations.md), by id (`wh_…`): a target's (`target` = `{kind}#{id}`) newest first, which
   * publishers and the alerts area's rule caches read (decision 105), and a person's (`byCreator`), which an account's
   * deletion reads.
   * The signing secrets are sealed (KMS in the cloud).
   */
  webhooks: {
    constructId: 'WebhooksTable',
    area: 'integrations',
    entity: 'webhooks',
    envVar: 'WEBHOOKS_TABLE',
    partitionKey: { name: 'id', type: 'S' },
    indexes: [
      { name: 'byTarget', partitionKey: { name: 'target', type: 'S' }, sortKey: { name: 'created', type: 'N' } },
      { name: 'byCreator', partitionKey: { name: 'createdBy', type: 'S' }, sortKey: { name: 'created', type: 'N' } },
    ],
  },
  /**
   * Everything of one webhook's delivery, under its id (docs/integrations.md, "Delivery"): its lane (`lane`: who sends,
   * the timer, the delivery under way), the events waiting in order (`o#{time}#{event}`, tests `t#…`), the deliveries
   * (`d#{sequence}`, the log, newest last) with their gzip'd body and attempts. Everything expires 30 days after it was written (`expiresAt`), checked on read.
   */
  webhookDeliveries: {
    constructId: 'WebhookDeliveriesTable',
    area: 'integrations',
    entity: 'deliveries',
    envVar: 'WEBHOOK_DELIVERIES_TABLE',
    partitionKey: { name: 'webhookId', type: 'S' },
    sortKey: { name: 'sk', type: 'S' },
    timeToLiveAttribute: 'expiresAt',
  },
  /**
   * Alert rules (docs/alerts.md), by id; a target's rules (`target` = `{kind}#{id}`) and a person's by creation time.
   */
  alertRules: {
    constructId: 'AlertRulesTable',
    area: 'alerts',
    entity: 'rules',
    envVar: 'ALERT_RULES_TABLE',
    partitionKey: { name: 'id', type: 'S' },
    indexes: [
      { name: 'byTarget', partitionKey: { name: 'target', type: 'S' }, sortKey: { name: 'created', type: 'N' } },
      { name: 'byCreator', partitionKey: { name: 'createdBy', type: 'S' }, sortKey: { name: 'created', type: 'N' } },
    ],
  },
  /**
   * Alerts (GET /alerts/events), by id: a device's, a rule's and everyone's (`feed` = `all`) newest first. Each is a
   * projection of a device's alert state, written over an older version only.
   */
  alerts: {
    constructId: 'AlertsTable',
    area: 'alerts',
    entity: 'alerts',
    envVar: 'ALERTS_TABLE',
    partitionKey: { name: 'id', type: 'S' },
    indexes: [
      { name: 'byDevice', partitionKey: { name: 'deviceId', type: 'S' }, sortKey: { name: 'startedAt', type: 'N' } },
      { name: 'byRule', partitionKey: { name: 'ruleId', type: 'S' }, sortKey: { name: 'startedAt', type: 'N' } },
      { name: 'byFeed', partitionKey: { name: 'feed', type: 'S' }, sortKey: { name: 'startedAt', type: 'N' } },
    ],
  },
  /**
   * Each device's alert state (docs/alerts.md): one item per device with every rule's track on it, its outbox, and
   * when the sweep must look next. `byDue` (sparse: `dueShard` and `dueAt` only while something is due) is the index
   * of next-expected times the sweep reads, so it never scans the devices. The item `#rules` holds the rules'
   * generation, which the per-instance rule caches compare.
   */
  alertStates: {
    constructId: 'AlertStatesTable',
    area: 'alerts',
    entity: 'states',
    envVar: 'ALERT_STATES_TABLE',
    partitionKey: { name: 'deviceId', type: 'S' },
    indexes: [{ name: 'byDue', partitionKey: { name: 'dueShard', type: 'S' }, sortKey: { name: 'dueAt', type: 'N' } }],
  },
  /**
   * The audit log (docs/audit.md): append-only. Partitioned by month (`month` = `YYYY-MM`), sorted by `at` =
   * `{time}#{requestId}#{phase}`; each index sorts by `at` too, so a search by actor, target or action over a time
   * range is one Query. Lambdas may only put (conditionally) and the system area query: no route updates or deletes.
   * `expiresAt` is housekeeping after the retention; the search enforces it at read time.
   */
  auditLog: {
    constructId: 'AuditLogTable',
    area: 'system',
    entity: 'audit-log',
    envVar: 'AUDIT_LOG_TABLE',
    partitionKey: { name: 'month', type: 'S' },
    sortKey: { name: 'at', type: 'S' },
    indexes: [
      { name: 'byActor', partitionKey: { name: 'actorId', type: 'S' }, sortKey: { name: 'at', type: 'S' } },
      { name: 'byTarget', partitionKey: { name: 'targetId', type: 'S' }, sortKey: { name: 'at', type: 'S' } },
      { name: 'byAction', partitionKey: { name: 'action', type: 'S' }, sortKey: { name: 'at', type: 'S' } },
    ],
    timeToLiveAttribute: 'expiresAt',
  },
} as const satisfies Record<string, TableDefinition>;

export type TableKey = keyof typeof TABLES;

export const tableName = (table: TableDefinition, env: EnvName): string => `${table.area}-${env}-${table.entity}`;
