import { accessCheckOf } from '../_shared/access/access';
import { ACCESS_ENV, createAccessModule } from '../_shared/access/access-wiring';
import { readBillingEnv, secretsManagerReader, stripeClientProvider } from '../_shared/billing/stripe-client';
import { getDocumentClient, getS3Client, getSecretsManagerClient } from '../_shared/clients';
import { createDatasetRecords } from '../_shared/datasets/dataset-records';
import { type EnvSource, readEnv, readListEnv } from '../_shared/env';
import { lambdaCounters } from '../_shared/metrics';
import { createDataAccess } from '../_shared/sensor-data/data-access';
import { createDeviceTiers } from '../_shared/sensor-data/device-tier';
import { createExportRecords } from '../_shared/sensor-data/export-records';
import { createSignedUrls } from './domain/signed-urls';
import { createSubscriptions } from './domain/subscriptions';
import { createBillingCatalogue } from './store/billing-catalogue';
import { createDevicePlans } from './store/device-plans';
import { createObjectUrls } from './store/object-urls';
import { createPeople } from './store/people';

/** What the api area reads (the CDK sets each from SERVICE_RESOURCES.api; the local stack likewise). */
export const API_ENV = {
  ...ACCESS_ENV,
  devicesTable: 'DEVICES_TABLE',
  deviceSubscriptionsTable: 'DEVICE_SUBSCRIPTIONS_TABLE',
  /** The system area's; read only for the `tier-features` parameter. */
  parametersTable: 'PARAMETERS_TABLE',
  deviceSubscriptionHistoryTable: 'DEVICE_SUBSCRIPTION_HISTORY_TABLE',
  /** The sensor-data area's; read only to check who may fetch an export's file. */
  exportsTable: 'EXPORTS_TABLE',
  exportsBucket: 'EXPORTS_BUCKET',
  /** The datasets area's; read only to check who may fetch a dataset's file. */
  datasetsTable: 'DATASETS_TABLE',
  datasetsBucket: 'DATASETS_BUCKET',
  chartDataBucket: 'CHART_DATA_BUCKET',
  /** The users area's; read only for a caller's e-mail and billing id. */
  usersTable: 'USERS_TABLE',
} as const;

/** The area's settings, read once at cold start: its tables and buckets, billing, and the web app's origins. */
export const readApiEnv = (env?: EnvSource) => ({
  ...readEnv(API_ENV, env),
  billing: readBillingEnv(env),
  /** Checkout returns only to the web app's origins (the CORS_ORIGINS the chain answers). */
  webOrigins: readListEnv('CORS_ORIGINS', env),
});

export type ApiEnv = ReturnType<typeof readApiEnv>;

export const createApiDeps = (env: ApiEnv) => {
  const db = getDocumentClient();
  const access = createAccessModule(env);
  const plans = createDevicePlans({
    db,
    subscriptionsTable: env.deviceSubscriptionsTable,
    historyTable: env.deviceSubscriptionHistoryTable,
    devicesTable: env.devicesTable,
  });
  return {
    subscriptions: createSubscriptions({
      catalogue: createBillingCatalogue(
        stripeClientProvider(env.billing, secretsManagerReader(getSecretsManagerClient())),
      ),
      person: createPeople({ db, tableName: env.usersTable }).person,
      deviceSubscriptionIds: plans.subscriptionIdsOf,
      deviceLine: plans.productLineOf,
      mayReach: accessCheckOf(access, 'device'),
      webOrigins: env.webOrigins,
      counters: lambdaCounters,
    }),
    signedUrls: createSignedUrls({
      buckets: { exports: env.exportsBucket, chartData: env.chartDataBucket, datasets: env.datasetsBucket },
      exports: createExportRecords({ db, tableName: env.exportsTable }),
      datasets: createDatasetRecords({ db, tableName: env.datasetsTable }),
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
