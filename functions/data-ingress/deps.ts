import { ALERT_EVALUATION_ENV, createAlertEvaluation } from '../_shared/alerts/alerts-wiring';
import { getDocumentClient, getIotDataClient, getS3Client, getSqsClient } from '../_shared/clients';
import { createDeviceUpdates } from '../_shared/code-releases/device-updates';
import { createRolloutTargets } from '../_shared/code-releases/rollout-targets';
import { createCredentialVerifier, devicePrincipalOf } from '../_shared/devices/credential-verifier';
import { type EnvSource, readChoiceEnv, readEnv } from '../_shared/env';
import type { CredentialAuthenticators } from '../_shared/http/http-area';
import { createWebhookPublisherOf, WEBHOOK_PUBLISHER_ENV } from '../_shared/integrations/webhook-wiring';
import { log } from '../_shared/logger';
import { lambdaCounters } from '../_shared/metrics';
import { createLivePublisher } from '../_shared/sensor-data/live-publisher';
import { createSensorDataSender } from '../_shared/sensor-data/queue-messages';
import { createReadingsStore } from '../_shared/sensor-data/readings-store';
import { ROLLUP_COALESCING, ROLLUP_COALESCING_ENV } from '../_shared/sensor-data/rollup-coalescing';
import { createFirmwareOffer } from './domain/firmware-offer';
import { createFirmwareStatus } from './domain/firmware-status';
import { createIngest, type IngestDeps } from './domain/ingest';
import { createDeviceSeenStore } from './store/device-seen-store';
import { createArtifactDownloads, createFirmwareRecords } from './store/firmware-records';
import { createIngestStatsStore } from './store/ingest-stats-store';

/** What the data-ingress Lambda and its IoT rule read (SERVICE_RESOURCES['data-ingress']; the local stack too). */
export const DATA_INGRESS_ENV = {
  // After a batch is stored its device's alert rules evaluate it (devicesTable among them), and its fired and
  // resolved alerts go to the webhooks (the publisher's variables among them).
  ...ALERT_EVALUATION_ENV,
  devicesTable: 'DEVICES_TABLE',
  deviceCredentialsTable: 'DEVICE_CREDENTIALS_TABLE',
  readingsTable: 'READINGS_TABLE',
  ingestStatsTable: 'INGEST_STATS_TABLE',
  liveWatchesTable: 'LIVE_WATCHES_TABLE',
  rolloutsTable: 'RELEASE_ROLLOUTS_TABLE',
  rolloutTargetsTable: 'ROLLOUT_TARGETS_TABLE',
  releasesTable: 'CODE_RELEASES_TABLE',
  releasesBucket: 'RELEASES_BUCKET',
  sensorDataQueueUrl: 'SENSOR_DATA_QUEUE_URL',
  ...WEBHOOK_PUBLISHER_ENV,
} as const;

/** The area's settings, read once at cold start: its tables, bucket and queue, and when roll-ups run. */
export const readDataIngressEnv = (env?: EnvSource) => ({
  ...readEnv(DATA_INGRESS_ENV, env),
  /** After every batch, or once per device and hour (docs/decisions/042-hourly-roll-ups.md). */
  coalescing: readChoiceEnv(ROLLUP_COALESCING_ENV, ROLLUP_COALESCING, 'none', env),
});

export type DataIngressEnv = ReturnType<typeof readDataIngressEnv>;

/** The rollout records a device's offer, report or version moves, and the moves themselves (abort included). */
const createRolloutRecords = (env: DataIngressEnv, now: () => number) => {
  const targets = createRolloutTargets({
    db: getDocumentClient(),
    targetsTable: env.rolloutTargetsTable,
    rolloutsTable: env.rolloutsTable,
  });
  return { targets, updates: createDeviceUpdates({ store: targets, now, log }) };
};

/**
 * The ingest use case alone, what the MQTT readings rule needs: without the firmware offer's S3 client, which would
 * add about 100 KB to the rule's bundle (docs/decisions/029-small-lambdas.md). `now` stands in for the clock where a
 * caller measures it (the cost bench replays an hour of batches in seconds), `flag` for the quality checks where a
 * caller measures what they cost (the quality bench); the Lambdas take the defaults.
 */
export const createIngestDeps = (
  env: DataIngressEnv,
  { now = Date.now, flag }: { now?: () => number; flag?: IngestDeps['flag'] } = {},
) => {
  const db = getDocumentClient();
  const rollouts = createRolloutRecords(env, now);
  // One publisher for the batch's readings.received and its alerts' alert.fired / alert.resolved.
  const webhooks = createWebhookPublisherOf(env, now);
  return {
    ingest: createIngest({
      log,
      readings: createReadingsStore({ db, tableName: env.readingsTable }),
      stats: createIngestStatsStore({ db, tableName: env.ingestStatsTable }),
      devices: createDeviceSeenStore({ db, tableName: env.devicesTable }),
      adoption: { store: rollouts.targets, updates: rollouts.updates },
      work: createSensorDataSender({ sqs: getSqsClient(), queueUrl: env.sensorDataQueueUrl }),
      live: createLivePublisher({ db, tableName: env.liveWatchesTable, iot: getIotDataClient() }),
      webhooks,
      now,
      counters: lambdaCounters,
      coalescing: env.coalescing,
      // The work after a stored batch, side by side with the webhooks above (data quality joins here).
      afterStored: [createAlertEvaluation(env, { now, webhooks }).evaluator.afterStored],
      ...(flag ? { flag } : {}),
    }).ingest,
  };
};

/** The MQTT readings rule (iot-readings.ts): ingest, the refusals it counts, and the credential a connection used. */
export const createReadingsRuleDeps = (env: DataIngressEnv) => {
  const db = getDocumentClient();
  return {
    ...createIngestDeps(env),
    stats: createIngestStatsStore({ db, tableName: env.ingestStatsTable }),
    credentials: createCredentialVerifier({ db, tableName: env.deviceCredentialsTable, recordUse: true }),
  };
};

/**
 * The HTTPS area's device authenticator: the device a `dc_…` credential proves. No per-instance cache (issue 19): a
 * revoked credential is refused on its very next request, as a disabled person is; the one consistent GetItem is small
 * beside the batch it lets in.
 */
export const dataIngressCredentials = (env: DataIngressEnv): CredentialAuthenticators => ({
  device: () =>
    devicePrincipalOf(
      createCredentialVerifier({ db: getDocumentClient(), tableName: env.deviceCredentialsTable, recordUse: true }),
    ),
});

/**
 * A device's report of its firmware update (POST /data-ingress/firmware/status, and its MQTT rule): without the
 * S3 client, which the MQTT rule's bundle does without. `now` as for ingest (the rollouts bench fixes the clock).
 */
export const createFirmwareStatusDeps = (env: DataIngressEnv, { now = Date.now }: { now?: () => number } = {}) => {
  const db = getDocumentClient();
  const rollouts = createRolloutRecords(env, now);
  const records = createFirmwareRecords({
    db,
    devicesTable: env.devicesTable,
    rolloutsTable: env.rolloutsTable,
    releasesTable: env.releasesTable,
    targets: rollouts.targets,
  });
  return {
    records,
    updates: rollouts.updates,
    firmwareStatus: createFirmwareStatus({
      records,
      updates: rollouts.updates,
      adoption: rollouts.targets,
      devices: createDeviceSeenStore({ db, tableName: env.devicesTable }),
      now,
    }),
  };
};

/**
 * The HTTPS area's use cases: ingest, the firmware offer a device asks for (GET /data-ingress/firmware) and its report
 * of what became of it (POST /data-ingress/firmware/status).
 */
export const createDataIngressDeps = (env: DataIngressEnv, { now = Date.now }: { now?: () => number } = {}) => {
  const firmware = createFirmwareStatusDeps(env, { now });
  return {
    ...createIngestDeps(env, { now }),
    firmwareStatus: firmware.firmwareStatus,
    firmwareOffer: createFirmwareOffer({
      records: firmware.records,
      updates: firmware.updates,
      downloadUrl: createArtifactDownloads({ s3: getS3Client(), bucket: env.releasesBucket }),
      now,
    }),
  };
};

export type DataIngressDeps = ReturnType<typeof createDataIngressDeps>;
