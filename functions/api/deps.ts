import { ACCESS_ENV, createAccessModule } from '../_shared/access/access-wiring';
import { getDocumentClient, getS3Client } from '../_shared/clients';
import { readEnv } from '../_shared/env';
import { createDataAccess } from '../_shared/sensor-data/data-access';
import { createDeviceTiers } from '../_shared/sensor-data/device-tier';
import { createExportStore } from '../sensor-data/store/export-store';
import { createSignedUrls } from './domain/signed-urls';
import { createObjectUrls } from './store/object-urls';

/** What the api area reads (the CDK sets each from SERVICE_RESOURCES.api; the local stack likewise). */
export const API_ENV = {
  ...ACCESS_ENV,
  devicesTable: 'DEVICES_TABLE',
  deviceSubscriptionsTable: 'DEVICE_SUBSCRIPTIONS_TABLE',
  exportsTable: 'EXPORTS_TABLE',
  exportsBucket: 'EXPORTS_BUCKET',
  chartDataBucket: 'CHART_DATA_BUCKET',
} as const;

export const createApiDeps = (env = readEnv(API_ENV)) => {
  const db = getDocumentClient();
  return {
    signedUrls: createSignedUrls({
      buckets: { exports: env.exportsBucket, chartData: env.chartDataBucket },
      // The sensor-data area owns the exports table; this area only reads a record to check who may fetch it.
      exports: createExportStore({ db, tableName: env.exportsTable }),
      dataAccess: createDataAccess({
        db,
        devicesTable: env.devicesTable,
        access: createAccessModule(env),
        tiers: createDeviceTiers({ db, tableName: env.deviceSubscriptionsTable }),
      }),
      presign: createObjectUrls({ s3: getS3Client() }).presign,
      now: Date.now,
    }),
  };
};

export type ApiDeps = ReturnType<typeof createApiDeps>;
