import type { AreaName } from '../../shared/contracts/areas';
import type { BucketKey } from './storage';
import type { TableKey } from './tables';

export interface ServiceResources {
  /** Tables the area's Lambda reads and writes. */
  tables: TableKey[];
  /** Tables the area's Lambda only reads (e.g. the relations and access versions behind its access checks). */
  readTables?: TableKey[];
  buckets?: BucketKey[];
  /** Sends jobs to the queue. */
  jobs?: boolean;
}

/**
 * What each service area's Lambda may touch. The CDK api stack grants exactly this (least privilege) and
 * passes the names as environment; the local gateway sets the same variables.
 */
export const SERVICE_RESOURCES: Record<AreaName, ServiceResources> = {
  campaigns: { tables: [] },
  'code-releases': { tables: [] },
  customer: { tables: [] },
  'data-ingress': { tables: [] },
  datasets: { tables: [] },
  devices: { tables: [] },
  migrate: { tables: [] },
  notifications: { tables: [] },
  organizations: { tables: [] },
  relations: { tables: ['relations', 'accessVersions'], jobs: true },
  'sensor-data': { tables: [] },
  system: { tables: ['parameters'] },
  users: { tables: [] },
  api: { tables: [] },
};

/** The Lambda entry of each area that has routes (`functions/{area}/handler.ts`, export `handler`). */
export const handlerEntry = (area: AreaName): string => `functions/${area}/handler.ts`;

/** Queue workers: the CDK wires each as an SQS event source; the local stack polls for it. */
export const WORKERS: { name: string; entry: string; queue: 'jobs' }[] = [];

/** IoT topic rules with a Lambda action: the CDK creates the rule; locally the MQTT rule bridge invokes it. */
export const IOT_RULES: { name: string; entry: string; topicFilter: string }[] = [];
