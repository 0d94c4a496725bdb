import { ACCESS_ENV, createAccessModule } from '../../_shared/access/access-wiring';
import { getDocumentClient, getS3Client, getSqsClient } from '../../_shared/clients';
import { createEventPublisher } from '../../_shared/events/event-publisher';
import { createWebhookPublisherOf, WEBHOOK_PUBLISHER_ENV } from '../../_shared/integrations/webhook-wiring';
import { createDataAccess } from '../../_shared/sensor-data/data-access';
import { createDeviceTiers } from '../../_shared/sensor-data/device-tier';
import { createQualityProfiles } from '../../_shared/sensor-data/quality-profile';
import { createSensorDataSender } from '../../_shared/sensor-data/queue-messages';
import { createReadingsStore } from '../../_shared/sensor-data/readings-store';
import { createChartDataStore } from '../store/chart-data-store';

/** What the sensor-data Lambda and its worker read (the CDK sets each from SERVICE_RESOURCES; the local stack too). */
export const SENSOR_DATA_ENV = {
  ...ACCESS_ENV,
  ...WEBHOOK_PUBLISHER_ENV,
  devicesTable: 'DEVICES_TABLE',
  readingsTable: 'READINGS_TABLE',
  rollupsTable: 'ROLLUPS_TABLE',
  deviceSubscriptionsTable: 'DEVICE_SUBSCRIPTIONS_TABLE',
  /** The system area's; read only for the `tier-features` parameter. */
  parametersTable: 'PARAMETERS_TABLE',
  apiKeysTable: 'API_KEYS_TABLE',
  apiUsageTable: 'API_USAGE_TABLE',
  exportsTable: 'EXPORTS_TABLE',
  /** Calibrations, exclusions and reprocessing (docs/data-quality.md). */
  dataQualityTable: 'DATA_QUALITY_TABLE',
  liveWatchesTable: 'LIVE_WATCHES_TABLE',
  chartDataBucket: 'CHART_DATA_BUCKET',
  exportsBucket: 'EXPORTS_BUCKET',
  jobsQueueUrl: 'JOBS_QUEUE_URL',
  sensorDataQueueUrl: 'SENSOR_DATA_QUEUE_URL',
} as const;

export type SensorDataEnv = Record<keyof typeof SENSOR_DATA_ENV, string>;

/**
 * What every part of the area shares: the data access (device, relations, tier), readings and chart data, clients and
 * queues.
 */
export const createCommonDeps = (env: SensorDataEnv) => {
  const db = getDocumentClient();
  const s3 = getS3Client();
  const tiers = createDeviceTiers({
    db,
    tableName: env.deviceSubscriptionsTable,
    parametersTable: env.parametersTable,
  });
  // One access module (and its decision cache) for the device gates and the campaign comparison's campaign check.
  const access = createAccessModule(env);
  return {
    env,
    db,
    s3,
    now: Date.now,
    tiers,
    access,
    dataAccess: createDataAccess({ db, devicesTable: env.devicesTable, access, tiers }),
    readings: createReadingsStore({ db, tableName: env.readingsTable }),
    profiles: createQualityProfiles({ db, tableName: env.dataQualityTable }),
    chartData: createChartDataStore({ s3, bucket: env.chartDataBucket }),
    events: createEventPublisher({ sqs: getSqsClient(), queueUrl: env.jobsQueueUrl }),
    work: createSensorDataSender({ sqs: getSqsClient(), queueUrl: env.sensorDataQueueUrl }),
    webhooks: createWebhookPublisherOf(env),
  };
};

export type CommonDeps = ReturnType<typeof createCommonDeps>;
