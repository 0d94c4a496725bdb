import { join } from 'node:path';
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { CfnAccount } from 'aws-cdk-lib/aws-apigateway';
import type { IUserPool, IUserPoolClient } from 'aws-cdk-lib/aws-cognito';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { AREAS, type AreaName } from '../../shared/contracts/areas';
import type { EnvironmentSettings } from '../definitions/environments';
import { handlerEntry, SCHEDULED_JOBS, SERVICE_RESOURCES } from '../definitions/services';
import type { TableKey } from '../definitions/tables';
import { AreaApi } from '../services/area-api';
import { constructId } from '../services/construct-id';
import { ServiceFunction } from '../services/service-function';
import { grantServiceResources, type ServiceResourceRefs } from '../services/service-resources';

/** Props of the {@link ApiStack}. */
export interface ApiStackProps extends StackProps {
  settings: EnvironmentSettings;
  /** Folder holding `package.json`, `package-lock.json` and the `functions/` sources. */
  projectRoot: string;
  tables: Record<TableKey, ITable>;
  jobsQueue: IQueue;
  userPool: IUserPool;
  webClient: IUserPoolClient;
  /** The web app's origin, answered for CORS besides the environment's extra origins. */
  webOrigin: string;
  /** The SES identity areas send e-mail from, and the sender address. */
  mail: { identityArn: string; from: string };
  /** The Stripe secret key's secret, read by the areas with `billing`. */
  stripeSecret: ISecret;
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
    const refs: ServiceResourceRefs = {
      envName: settings.name,
      tables: props.tables,
      jobsQueue: props.jobsQueue,
      userPool: props.userPool,
      mail: props.mail,
      webOrigin: props.webOrigin,
      stripeSecret: props.stripeSecret,
    };
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

      grantServiceResources(api.handler, SERVICE_RESOURCES[name], refs, { sessionCheck: true, billing: true });

      this.apis[name] = api;
      this.apiBaseUrls[name] = api.url;
      new CfnOutput(this, `${id}Url`, { value: api.url, description: `Base URL of the ${name} API` });
    }

    for (const job of SCHEDULED_JOBS) {
      const fn = new ServiceFunction(this, job.name, {
        entry: join(props.projectRoot, job.entry),
        projectRoot: props.projectRoot,
        description: `the ${job.name} job (${settings.name})`,
        // A job works through its backlog in pages; one run may take minutes, the next run continues.
        timeout: Duration.minutes(5),
        logRetention: retain ? RetentionDays.ONE_YEAR : RetentionDays.ONE_MONTH,
        logRemovalPolicy: retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      });
      // Jobs get their area's grants but no billing: none calls Stripe (the deletion job reads account-deps only).
      grantServiceResources(fn, SERVICE_RESOURCES[job.area], refs, { sessionCheck: false, billing: false });
      new Rule(this, `${job.name}Schedule`, {
        description: `Runs ${job.name} every ${job.everyMinutes} minutes`,
        schedule: Schedule.rate(Duration.minutes(job.everyMinutes)),
        targets: [new LambdaFunction(fn.lambda, { retryAttempts: 2 })],
      });
    }
  }
}
