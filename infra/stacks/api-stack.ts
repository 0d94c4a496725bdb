import { join } from 'node:path';
import { CfnOutput, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { CfnAccount } from 'aws-cdk-lib/aws-apigateway';
import type { IUserPool, IUserPoolClient } from 'aws-cdk-lib/aws-cognito';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { AREAS, type AreaName } from '../../shared/contracts/areas';
import type { EnvironmentSettings } from '../definitions/environments';
import { handlerEntry, SESSION_TABLE, SERVICE_RESOURCES } from '../definitions/services';
import { BUCKETS, type BucketKey, QUEUES } from '../definitions/storage';
import { TABLES, type TableDefinition, type TableKey } from '../definitions/tables';
import { AreaApi } from '../services/area-api';
import { constructId } from '../services/construct-id';

/** Props of the {@link ApiStack}. */
export interface ApiStackProps extends StackProps {
  settings: EnvironmentSettings;
  /** Folder holding `package.json`, `package-lock.json` and the `functions/` sources. */
  projectRoot: string;
  tables: Record<TableKey, ITable>;
  buckets: Record<BucketKey, IBucket>;
  jobsQueue: IQueue;
  userPool: IUserPool;
  webClient: IUserPoolClient;
  /** The web app's origin, answered for CORS besides the environment's extra origins. */
  webOrigin: string;
}

/** Areas whose contracts define routes; an area without routes has no API yet. */
export const areasWithRoutes = (): AreaName[] =>
  (Object.keys(AREAS) as AreaName[]).filter((name) => Object.keys(AREAS[name].routes).length > 0);

/**
 * One REST API and one Lambda per service area that has routes, each granted exactly the resources that
 * SERVICE_RESOURCES lists for it.
 */
export class ApiStack extends Stack {
  /** Each area's API, by area name. */
  readonly apis: Partial<Record<AreaName, AreaApi>> = {};
  /** Each area's base URL, by area name (the web app's `apiBaseUrls`). */
  readonly apiBaseUrls: Record<string, string> = {};

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { settings } = props;
    const retain = settings.retainData;

    // API Gateway writes execution and access logs through one role per account and region. It is kept on
    // stack deletion because other environments' APIs in the same account may rely on the setting.
    const cloudWatchRole = new Role(this, 'ApiGatewayCloudWatchRole', {
      assumedBy: new ServicePrincipal('apigateway.amazonaws.com'),
      managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AmazonAPIGatewayPushToCloudWatchLogs')],
    });
    cloudWatchRole.applyRemovalPolicy(RemovalPolicy.RETAIN);
    Validations.of(cloudWatchRole).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason:
        "AWS's own policy for API Gateway's account-wide logging role: the service names the log groups itself " +
        '(API-Gateway-Execution-Logs_{apiId}/{stage}), for every API of the account, so no narrower policy holds.',
    });
    const account = new CfnAccount(this, 'ApiGatewayAccount', { cloudWatchRoleArn: cloudWatchRole.roleArn });
    account.applyRemovalPolicy(RemovalPolicy.RETAIN);

    const corsOrigins = [props.webOrigin, ...settings.extraCorsOrigins];
    const authIssuer = `https://cognito-idp.${this.region}.${this.urlSuffix}/${props.userPool.userPoolId}`;

    for (const name of areasWithRoutes()) {
      const id = `${constructId(name)}Api`;
      const api = new AreaApi(this, id, {
        area: AREAS[name],
        envName: settings.name,
        entry: join(props.projectRoot, handlerEntry(name)),
        projectRoot: props.projectRoot,
        authIssuer,
        authClientIds: [props.webClient.userPoolClientId],
        corsOrigins,
        logRetention: retain ? RetentionDays.ONE_YEAR : RetentionDays.ONE_MONTH,
        logRemovalPolicy: retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      });
      // A stage cannot log before the account knows the logging role.
      api.restApi.deploymentStage.node.addDependency(account);

      const resources = SERVICE_RESOURCES[name];
      const indexesOf = (table: TableKey) => ((TABLES[table] as TableDefinition).indexes ?? []).map((i) => i.name);
      for (const table of resources.tables) {
        api.handler.readWriteTable(props.tables[table], TABLES[table].envVar, indexesOf(table));
      }
      const readOnly = new Set(resources.readTables ?? []);
      // Every signed-in request is checked against the caller's session record (http-area's session guard).
      if (!resources.tables.includes(SESSION_TABLE)) readOnly.add(SESSION_TABLE);
      for (const table of readOnly) {
        api.handler.readTable(props.tables[table], TABLES[table].envVar, indexesOf(table));
      }
      for (const bucket of resources.buckets ?? []) {
        api.handler.readWriteBucket(props.buckets[bucket], BUCKETS[bucket].envVar);
      }
      if (resources.jobs) api.handler.sendJobs(props.jobsQueue, QUEUES.jobs.envVar);

      this.apis[name] = api;
      this.apiBaseUrls[name] = api.url;
      new CfnOutput(this, `${id}Url`, { value: api.url, description: `Base URL of the ${name} API` });
    }
  }
}
