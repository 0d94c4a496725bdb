import { MAX_RECEIVES } from '../../functions/_shared/queue/max-receives';
import type { EnvName } from './environments';

/** Spec §9: the chart-data bucket; the local environment reuses the dev bucket's name. */
export const chartDataBucketName = (env: EnvName): string =>
  `sensor-data-api-${env === 'local' ? 'dev' : env}-chartdata`;

/** Spec §9: the organizations' logo file store. */
export const logoBucketName = (env: EnvName): string => `organizations-${env}-logofiles`;

export const BUCKETS = {
  chartData: { constructId: 'ChartDataBucket', envVar: 'CHART_DATA_BUCKET', name: chartDataBucketName },
  /** Finished download exports, handed out through short-lived signed URLs; expired after a week. */
  exports: {
    constructId: 'ExportsBucket',
    envVar: 'EXPORTS_BUCKET',
    name: (env: EnvName) => `sensor-data-${env}-exports`,
  },
  /**
   * Frozen datasets' files (docs/datasets.md): written once by the datasets worker, never deleted or expired, versioned
   * in the cloud; handed out through short-lived signed URLs of the exact object versions the dataset recorded.
   */
  datasets: {
    constructId: 'DatasetsBucket',
    envVar: 'DATASETS_BUCKET',
    name: (env: EnvName) => `datasets-${env}-files`,
  },
  logos: { constructId: 'LogoBucket', envVar: 'LOGO_BUCKET', name: logoBucketName },
  /** Firmware artifacts of code releases, uploaded by staff's browsers through presigned PUTs; never public, versioned. */
  releases: {
    constructId: 'ReleasesBucket',
    envVar: 'RELEASES_BUCKET',
    name: (env: EnvName) => `code-releases-${env}-artifacts`,
  },
  /** PUT /backupUserPool/ writes its exports here; never public, versioned in the cloud. */
  userBackups: {
    constructId: 'UserBackupsBucket',
    envVar: 'USER_BACKUPS_BUCKET',
    name: (env: EnvName) => `users-${env}-backups`,
  },
} as const;

export type BucketKey = keyof typeof BUCKETS;

/**
 * The Stripe secret key (docs/decisions/010-stripe-secret-key.md). The data stack creates the secret with a
 * placeholder; operators put the key. Functions get its ARN, never its value, in their environment.
 */
export const STRIPE_SECRET = {
  constructId: 'StripeSecretKey',
  envVar: 'STRIPE_SECRET_ARN',
  name: (env: EnvName) => `device-data/${env}/stripe-secret-key`,
} as const;

/**
 * Stripe's webhook signing secret (`whsec_…`), beside the key: the data stack creates it with a placeholder, operators
 * put the endpoint's secret from Stripe's dashboard (README, "Billing"); the customer area reads it at cold start.
 */
export const STRIPE_WEBHOOK_SECRET = {
  constructId: 'StripeWebhookSecret',
  envVar: 'STRIPE_WEBHOOK_SECRET_ARN',
  name: (env: EnvName) => `device-data/${env}/stripe-webhook-secret`,
} as const;

/** The background jobs queue (notifications, exports, deletions) and its dead-letter queue. */
export const QUEUES = {
  jobs: {
    constructId: 'JobsQueue',
    envVar: 'JOBS_QUEUE_URL',
    name: (env: EnvName) => `jobs-${env}`,
    deadLetterName: (env: EnvName) => `jobs-${env}-dlq`,
    /** Receives before a message moves to the dead-letter queue. */
    maxReceiveCount: MAX_RECEIVES.jobs,
    // Six times the notifications worker's 30 s: a chunk of 100 e-mails through SES fits well inside.
    visibilityTimeoutSeconds: 180,
    fifo: false,
  },
  /**
   * The sensor-data worker's queue: roll-up recomputation after ingest and download exports. Separate from jobs,
   * whose events are the notifications worker's and must not be consumed by another worker.
   * FIFO, grouped by device (`sensorDataGroupOf`): one device's roll-ups are worked one at a time, so two
   * recomputes of one day or month can never interleave and leave the older result written last.
   */
  sensorData: {
    constructId: 'SensorDataQueue',
    envVar: 'SENSOR_DATA_QUEUE_URL',
    name: (env: EnvName) => `sensor-data-${env}.fifo`,
    deadLetterName: (env: EnvName) => `sensor-data-${env}-dlq.fifo`,
    maxReceiveCount: MAX_RECEIVES.sensorData,
    visibilityTimeoutSeconds: 300,
    fifo: true,
  },
  /**
   * The datasets worker's queue: one message per build step (a device's files, then the manifest), each step sending
   * the next. FIFO, one group per dataset, so a dataset's steps never run side by side.
   */
  datasets: {
    constructId: 'DatasetsQueue',
    envVar: 'DATASETS_QUEUE_URL',
    name: (env: EnvName) => `datasets-${env}.fifo`,
    deadLetterName: (env: EnvName) => `datasets-${env}-dlq.fifo`,
    maxReceiveCount: MAX_RECEIVES.datasets,
    // The worker gets a sixth of it (150 s): a step reads up to a year of one device's readings.
    visibilityTimeoutSeconds: 900,
    fifo: true,
  },
  /**
   * The code-releases worker's queue (decision 114): one message per assignment step of a preparing rollout, each step
   * sending the next. FIFO, one group per rollout (`prepareGroupOf`), so a rollout's steps never run side by side.
   */
  rollouts: {
    constructId: 'RolloutsQueue',
    envVar: 'ROLLOUTS_QUEUE_URL',
    name: (env: EnvName) => `rollouts-${env}.fifo`,
    deadLetterName: (env: EnvName) => `rollouts-${env}-dlq.fifo`,
    maxReceiveCount: MAX_RECEIVES.rollouts,
    // Six times the worker's 150 s (workerTimeout): a step writes the targets of up to 500 devices, a write each.
    visibilityTimeoutSeconds: 900,
    fifo: true,
  },
  /**
   * The integrations worker's queue (docs/integrations.md): wake-ups of webhooks' delivery lanes, sent when an event
   * waits and as the timers of retries (a message delay of at most 15 minutes, sent again until the retry is due).
   * Standard, not FIFO: only standard queues delay single messages; each lane keeps its own order.
   */
  webhooks: {
    constructId: 'WebhooksQueue',
    envVar: 'WEBHOOKS_QUEUE_URL',
    name: (env: EnvName) => `webhooks-${env}`,
    deadLetterName: (env: EnvName) => `webhooks-${env}-dlq`,
    maxReceiveCount: 5,
    // Six times the worker's 60 s: a lane sends for at most 30 s, and a request may take 15 s more.
    visibilityTimeoutSeconds: 360,
    fifo: false,
  },
} as const;

export type QueueKey = keyof typeof QUEUES;
