import type { IUserPool } from 'aws-cdk-lib/aws-cognito';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { EnvName } from '../definitions/environments';
import { SESSION_TABLE, type ServiceResources } from '../definitions/services';
import { BUCKETS, QUEUES, STRIPE_SECRET } from '../definitions/storage';
import { TABLES, type TableDefinition, type TableKey } from '../definitions/tables';
import type { ServiceFunction } from './service-function';

/** Everything a service area's functions may be granted, created by the data, auth and messaging stacks. */
export interface ServiceResourceRefs {
  envName: EnvName;
  tables: Record<TableKey, ITable>;
  jobsQueue: IQueue;
  userPool: IUserPool;
  mail: { identityArn: string; from: string };
  /** The web app's origin, for links in e-mail (WEB_ORIGIN). */
  webOrigin: string;
  /** The Stripe secret key's secret (STRIPE_SECRET_ARN). */
  stripeSecret: ISecret;
}

const indexesOf = (table: TableKey) => ((TABLES[table] as TableDefinition).indexes ?? []).map((i) => i.name);

/**
 * Grants one function exactly what SERVICE_RESOURCES lists for its area, and names each resource in its
 * environment. The area's API Lambda and its scheduled jobs get the same grants from here.
 */
export const grantServiceResources = (
  fn: ServiceFunction,
  resources: ServiceResources,
  refs: ServiceResourceRefs,
  { sessionCheck, billing }: { sessionCheck: boolean; billing: boolean },
): void => {
  for (const table of resources.tables) {
    fn.readWriteTable(refs.tables[table], TABLES[table].envVar, indexesOf(table));
  }
  const readOnly = new Set(resources.readTables ?? []);
  // Every signed-in request is checked against the caller's session record (http-area's session guard).
  if (sessionCheck && !resources.tables.includes(SESSION_TABLE)) readOnly.add(SESSION_TABLE);
  for (const table of readOnly) fn.readTable(refs.tables[table], TABLES[table].envVar, indexesOf(table));
  for (const bucket of resources.buckets ?? []) {
    fn.readWriteBucket(BUCKETS[bucket].name(refs.envName), BUCKETS[bucket].envVar);
  }
  if (resources.jobs) fn.sendJobs(refs.jobsQueue, QUEUES.jobs.envVar);
  if (resources.identityAdmin) fn.administerUserPool(refs.userPool);
  if (resources.email) {
    fn.sendMail(refs.mail.identityArn, refs.mail.from);
    fn.lambda.addEnvironment('WEB_ORIGIN', refs.webOrigin);
  }
  if (resources.billing && billing) fn.readStripeSecretKey(refs.stripeSecret, STRIPE_SECRET.envVar);
};
