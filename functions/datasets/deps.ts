import { randomBytes } from 'node:crypto';
import { accessCheckOf } from '../_shared/access/access';
import { ACCESS_ENV, createAccessModule } from '../_shared/access/access-wiring';
import { getDocumentClient, getS3Client, getSqsClient } from '../_shared/clients';
import { createExportFiles } from '../_shared/exports/export-files';
import { log } from '../_shared/logger';
import { MAX_RECEIVES } from '../_shared/queue/max-receives';
import { createQueueSender } from '../_shared/queue/queue-sender';
import { createRelationTable } from '../_shared/relations/relation-table';
import { createDataAccess } from '../_shared/sensor-data/data-access';
import { createDeviceTiers } from '../_shared/sensor-data/device-tier';
import { createReadingsStore } from '../_shared/sensor-data/readings-store';
import { createBuildJob } from './domain/build-job';
import { type BuildMessage, buildGroupOf } from './domain/build-message';
import { createDatasets } from './domain/datasets';
import { createCampaignReader } from './store/campaign-reader';
import { createDatasetStore } from './store/dataset-store';
import { createPeople } from './store/people';

/** What the datasets Lambda and its worker read (the CDK sets each from SERVICE_RESOURCES.datasets; the local stack too). */
export const DATASETS_ENV = {
  ...ACCESS_ENV,
  datasetsTable: 'DATASETS_TABLE',
  devicesTable: 'DEVICES_TABLE',
  readingsTable: 'READINGS_TABLE',
  deviceSubscriptionsTable: 'DEVICE_SUBSCRIPTIONS_TABLE',
  /** The system area's; read only for the `tier-features` parameter. */
  parametersTable: 'PARAMETERS_TABLE',
  /** The users area's; read only for a creator's display name. */
  usersTable: 'USERS_TABLE',
  datasetsBucket: 'DATASETS_BUCKET',
  datasetsQueueUrl: 'DATASETS_QUEUE_URL',
  /** A dataset's landing page, and so its citation, is on the web app. */
  webOrigin: 'WEB_ORIGIN',
} as const;

export type DatasetsEnv = Record<keyof typeof DATASETS_ENV, string>;

const ID_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * `ds_` and 12 characters of Crockford's base 32 (60 random bits): short enough to read out in a citation, and no
 * 0/O or 1/I/L to mistake. Who may read a dataset is checked on every request, so the id need not be a secret.
 */
export const newDatasetId = () => `ds_${[...randomBytes(12)].map((byte) => ID_ALPHABET[byte & 31]).join('')}`;

export const createDatasetsDeps = (env: DatasetsEnv) => {
  const db = getDocumentClient();
  const access = createAccessModule(env);
  const dataAccess = createDataAccess({
    db,
    devicesTable: env.devicesTable,
    access,
    tiers: createDeviceTiers({ db, tableName: env.deviceSubscriptionsTable, parametersTable: env.parametersTable }),
  });
  const store = createDatasetStore({ db, tableName: env.datasetsTable });
  const work = createQueueSender<BuildMessage>({
    sqs: getSqsClient(),
    queueUrl: env.datasetsQueueUrl,
    queueName: 'datasets',
    groupOf: buildGroupOf,
  });
  return {
    datasets: createDatasets({
      log,
      store,
      dataAccess,
      campaigns: {
        ...createCampaignReader({
          db,
          tableName: env.campaignsTable,
          relations: createRelationTable({ db, tableName: env.relationsTable }),
        }),
        mayManage: accessCheckOf(access, 'campaign', 'manage'),
      },
      nameOf: createPeople({ db, tableName: env.usersTable }).nameOf,
      work,
      place: { bucket: env.datasetsBucket, webOrigin: env.webOrigin },
      now: Date.now,
      newId: newDatasetId,
    }),
    buildJob: createBuildJob({
      log,
      store,
      files: createExportFiles({ s3: getS3Client(), bucket: env.datasetsBucket }),
      readings: createReadingsStore({ db, tableName: env.readingsTable }),
      readDevice: dataAccess.readDevice,
      work,
      webOrigin: env.webOrigin,
      now: Date.now,
      maxAttempts: MAX_RECEIVES.datasets,
    }),
  };
};

export type DatasetsDeps = ReturnType<typeof createDatasetsDeps>;
