import { randomBytes } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { QUEUES } from '../../infra/definitions/storage';
import { ACCESS_ENV, createAccessModule } from '../_shared/access/access-wiring';
import { getDocumentClient, getS3Client, getSqsClient } from '../_shared/clients';
import { readEnv } from '../_shared/env';
import { createExportFiles } from '../_shared/exports/export-files';
import { log } from '../_shared/logger';
import { createQueueSender } from '../_shared/queue/queue-sender';
import { createRelationTable } from '../_shared/relations/relation-table';
import { createDataAccess } from '../_shared/sensor-data/data-access';
import { createDeviceTiers } from '../_shared/sensor-data/device-tier';
import { createQualityProfiles } from '../_shared/sensor-data/quality-profile';
import { createReadingsStore } from '../_shared/sensor-data/readings-store';
import { createUserStore } from '../users/store/user-store';
import { createBuildJob } from './domain/build-job';
import { type BuildMessage, buildGroupOf } from './domain/build-message';
import { createDatasets } from './domain/datasets';
import { createDatasetStore } from './store/dataset-store';

/** What the datasets Lambda and its worker read (the CDK sets each from SERVICE_RESOURCES.datasets; the local stack too). */
export const DATASETS_ENV = {
  ...ACCESS_ENV,
  datasetsTable: 'DATASETS_TABLE',
  /** The sensor-data area's; read only for each device's calibrations and exclusions (docs/data-quality.md). */
  dataQualityTable: 'DATA_QUALITY_TABLE',
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

export const createDatasetsDeps = (env: DatasetsEnv = readEnv(DATASETS_ENV)) => {
  const db = getDocumentClient();
  const access = createAccessModule(env);
  const dataAccess = createDataAccess({
    db,
    devicesTable: env.devicesTable,
    access,
    tiers: createDeviceTiers({ db, tableName: env.deviceSubscriptionsTable, parametersTable: env.parametersTable }),
  });
  const store = createDatasetStore({ db, tableName: env.datasetsTable });
  const relations = createRelationTable({ db, tableName: env.relationsTable });
  // The users area owns the users table; this area only reads a person's display name.
  const users = createUserStore({ db, tableName: env.usersTable });
  const work = createQueueSender<BuildMessage>({
    sqs: getSqsClient(),
    queueUrl: env.datasetsQueueUrl,
    queueName: 'datasets',
    groupOf: buildGroupOf,
  });
  const place = { bucket: env.datasetsBucket, webOrigin: env.webOrigin };
  return {
    datasets: createDatasets({
      log,
      store,
      dataAccess,
      campaigns: {
        // The campaigns area owns the record; this area reads its name and window.
        get: async (id) => {
          const item = (
            await db.send(new GetCommand({ TableName: env.campaignsTable, Key: { id }, ConsistentRead: true }))
          ).Item;
          return item && typeof item.startsAt === 'number' && typeof item.endsAt === 'number'
            ? { id, name: String(item.name ?? id), startsAt: item.startsAt, endsAt: item.endsAt }
            : undefined;
        },
        devices: async (id) =>
          (await relations.queryAll('referrer', id, ['campaign-device'])).map((relation) => relation.referentId),
        mayManage: async (caller, id) =>
          (await access.forCaller(caller).check('campaign', id, { need: 'manage' })).allowed,
      },
      // A person's display name, else their given and family names, else their e-mail: never their opaque id.
      nameOf: async (sub) => {
        const user = await users.get(sub);
        if (!user) return undefined;
        const names = [user.givenName, user.familyName].filter(Boolean).join(' ');
        return user.displayName || names || user.email;
      },
      work,
      place,
      now: Date.now,
      newId: newDatasetId,
    }),
    buildJob: createBuildJob({
      log,
      store,
      files: createExportFiles({ s3: getS3Client(), bucket: env.datasetsBucket }),
      readings: createReadingsStore({ db, tableName: env.readingsTable }),
      readDevice: (id) => dataAccess.readDevice(id),
      profiles: createQualityProfiles({ db, tableName: env.dataQualityTable }),
      work,
      webOrigin: env.webOrigin,
      now: Date.now,
      maxAttempts: QUEUES.datasets.maxReceiveCount,
    }),
  };
};

export type DatasetsDeps = ReturnType<typeof createDatasetsDeps>;
