import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ACCESS_ENV, createAccessModule } from '../_shared/access/access-wiring';
import { readBillingEnv, secretsManagerReader, stripeClientProvider } from '../_shared/billing/stripe-client';
import { getDocumentClient, getS3Client, getSecretsManagerClient } from '../_shared/clients';
import { readEnv, readListEnv } from '../_shared/env';
import { lambdaCounters } from '../_shared/metrics';
import { createDataAccess } from '../_shared/sensor-data/data-access';
import { createDeviceTiers } from '../_shared/sensor-data/device-tier';
import { createDatasetStore } from '../datasets/store/dataset-store';
import { createExportStore } from '../sensor-data/store/export-store';
import { createUserStore } from '../users/store/user-store';
import { createSignedUrls } from './domain/signed-urls';
import { createSubscriptions } from './domain/subscriptions';
import { createBillingCatalogue } from './store/billing-catalogue';
import { createDevicePlans } from './store/device-plans';
import { createObjectUrls } from './store/object-urls';

/** What the api area reads (the CDK sets each from SERVICE_RESOURCES.api; the local stack likewise). */
export const API_ENV = {
  ...ACCESS_ENV,
  devicesTable: 'DEVICES_TABLE',
  deviceSubscriptionsTable: 'DEVICE_SUBSCRIPTIONS_TABLE',
  /** The system area's; read only for the `tier-features` parameter. */
  parametersTable: 'PARAMETERS_TABLE',
  deviceSubscriptionHistoryTable: 'DEVICE_SUBSCRIPTION_HISTORY_TABLE',
  exportsTable: 'EXPORTS_TABLE',
  exportsBucket: 'EXPORTS_BUCKET',
  /** The datasets area's; read only to check who may fetch a dataset's file. */
  datasetsTable: 'DATASETS_TABLE',
  datasetsBucket: 'DATASETS_BUCKET',
  chartDataBucket: 'CHART_DATA_BUCKET',
  usersTable: 'USERS_TABLE',
} as const;

export const createApiDeps = (env = readEnv(API_ENV)) => {
  const db = getDocumentClient();
  const access = createAccessModule(env);
  // The users area owns the users table; this area only reads a caller's e-mail and billing id.
  const users = createUserStore({ db, tableName: env.usersTable });
  const readItem = async (tableName: string, key: Record<string, string>) =>
    (await db.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;
  return {
    subscriptions: createSubscriptions({
      catalogue: createBillingCatalogue(
        stripeClientProvider(readBillingEnv(), secretsManagerReader(getSecretsManagerClient())),
      ),
      person: async (id) => {
        const user = await users.get(id);
        return user
          ? { email: user.email, ...(user.subscriptionId ? { subscriptionId: user.subscriptionId } : {}) }
          : undefined;
      },
      deviceSubscriptionIds: createDevicePlans({
        db,
        subscriptionsTable: env.deviceSubscriptionsTable,
        historyTable: env.deviceSubscriptionHistoryTable,
      }).subscriptionIdsOf,
      deviceLine: async (deviceId) =>
        (await readItem(env.devicesTable, { id: deviceId }))?.productLine as string | undefined,
      mayReach: async (caller, deviceId, need) =>
        (await access.forCaller(caller).check('device', deviceId, { need })).allowed,
      webOrigins: readListEnv('CORS_ORIGINS'),
      counters: lambdaCounters,
    }),
    signedUrls: createSignedUrls({
      buckets: { exports: env.exportsBucket, chartData: env.chartDataBucket, datasets: env.datasetsBucket },
      // The sensor-data area owns the exports table; this area only reads a record to check who may fetch it.
      exports: createExportStore({ db, tableName: env.exportsTable }),
      // The datasets area owns the datasets table, likewise.
      datasets: createDatasetStore({ db, tableName: env.datasetsTable }),
      dataAccess: createDataAccess({
        db,
        devicesTable: env.devicesTable,
        access,
        tiers: createDeviceTiers({
          db,
          tableName: env.deviceSubscriptionsTable,
          parametersTable: env.parametersTable,
        }),
      }),
      presign: createObjectUrls({ s3: getS3Client() }).presign,
      now: Date.now,
    }),
  };
};

export type ApiDeps = ReturnType<typeof createApiDeps>;
