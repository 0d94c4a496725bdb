import { getDocumentClient, getS3Client, getSqsClient } from '../_shared/clients';
import { log } from '../_shared/logger';
import { createSensorDataSender } from '../_shared/sensor-data/queue-messages';
import { LOOKUP_TABLES, lookupTableDefinitions, refusedLookupTables } from '../_shared/table-lookup';
import { TABLES } from '../_shared/tables';
import { createAuditSearch } from './domain/audit-search';
import { createCacheFiles } from './domain/cache-files';
import { createItemLookup } from './domain/item-lookup';
import { createParameters } from './domain/parameters';
import { createTierFeatures } from './domain/tier-features';
import { createAuditSearchStore } from './store/audit-search-store';
import { createChartFileStore } from './store/chart-file-store';
import { createDeviceRecords } from './store/device-records';
import { createItemStore } from './store/item-store';
import { createParameterStore } from './store/parameter-store';

/** The tables staff may look items up in (functions/_shared/table-lookup.ts), each named through its variable. */
export const LOOKUP_ENV: Record<string, string> = Object.fromEntries(
  LOOKUP_TABLES.map((table) => [table, TABLES[table].envVar]),
);

export const SYSTEM_ENV = {
  parametersTable: 'PARAMETERS_TABLE',
  auditLogTable: 'AUDIT_LOG_TABLE',
  /** Loading a device's cache files needs it registered (read by key: the look-up's grant). */
  devicesTable: TABLES.devices.envVar,
  /** The cache files: the chart-data files, listed and evicted here, rebuilt by the sensor-data worker. */
  chartDataBucket: 'CHART_DATA_BUCKET',
  sensorDataQueueUrl: 'SENSOR_DATA_QUEUE_URL',
  ...LOOKUP_ENV,
} as const;

export const createSystemDeps = (env: Record<keyof typeof SYSTEM_ENV, string>) => {
  const db = getDocumentClient();
  const store = createParameterStore({ db, tableName: env.parametersTable });
  const names: Record<string, string> = env;
  const tableNames = Object.fromEntries(Object.keys(LOOKUP_ENV).map((table) => [table, names[table]!]));
  return {
    parameters: createParameters({ store, now: Date.now }),
    tierFeatures: createTierFeatures({ log, store, now: Date.now }),
    cacheFiles: createCacheFiles({
      log,
      files: createChartFileStore({ s3: getS3Client(), bucket: env.chartDataBucket }),
      queue: createSensorDataSender({ sqs: getSqsClient(), queueUrl: env.sensorDataQueueUrl }),
      devices: createDeviceRecords({ db, tableName: env.devicesTable }),
      now: Date.now,
    }),
    itemLookup: createItemLookup({
      tables: lookupTableDefinitions(),
      refused: refusedLookupTables(),
      reader: createItemStore({ db, tableNames }),
    }),
    // The audit log's search (docs/audit.md); the chain writes the log, this only reads it.
    audit: createAuditSearch({ store: createAuditSearchStore({ db, tableName: env.auditLogTable }), now: Date.now }),
  };
};

export type SystemDeps = ReturnType<typeof createSystemDeps>;
