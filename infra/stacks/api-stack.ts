import { CfnOutput, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { CfnAccount } from 'aws-cdk-lib/aws-apigateway';
import type { IUserPool, IUserPoolClient } from 'aws-cdk-lib/aws-cognito';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { TableKey } from '../../functions/_shared/tables';
import { AREA_NAMES, type AreaName } from '../../shared/contracts/areas';
import { type EnvironmentSettings, hostedProviderOf } from '../definitions/environments';
import { DEPLOY_HOOKS, hasRoutes, IOT_AUTHORIZERS, IOT_RULES, SCHEDULED_JOBS, WORKERS } from '../definitions/services';
import type { QueueKey } from '../definitions/storage';
import { ApiWebAcl } from '../services/api-web-acl';
import type { AreaApi } from '../services/area-api';
import { constructId } from '../services/construct-id';
import type { RealtimeRefs, ServiceResourceRefs } from '../services/service-resources';
import { AreaStack } from './area-stack';

/** Props of the {@link ApiStack}. */
export interface ApiStackProps extends StackProps {
  settings: EnvironmentSettings;
  /** Folder holding `package.json`, `package-lock.json` and the `functions/` sources. */
  projectRoot: string;
  tables: Record<TableKey, ITable>;
  /** Every queue of QUEUES: the areas send to them, and workers consume theirs. */
  queues: Record<QueueKey, IQueue>;
  userPool: IUserPool;
  webClient: IUserPoolClient;
  /** The web app's origin, answered for CORS besides the environment's extra origins. */
  webOrigin: string;
  /** The SES identity areas send e-mail from, and the sender address. */
  mail: { identityArn: string; from: string };
  /** The Stripe secret key's secret, read by the areas with `billing`. */
  stripeSecret: ISecret;
  /** Stripe's webhook signing secret, read by the area with `billingWebhook`. */
  stripeWebhookSecret: ISecret;
  /** The key the integrations area seals webhooks' secrets with (`webhookSecrets`). */
  webhookSecretsKey: IKey;
  /** IoT Core's data endpoint, the watcher topics, the realtime policy and the identity pool (the live view). */
  realtime: RealtimeRefs;
}

/** Areas whose contracts define routes; an area without routes has no API yet. */
export const areasWithRoutes = (): AreaName[] => AREA_NAMES.filter(hasRoutes);

/** Areas with a nested stack: those with routes, and those with scheduled jobs, queue workers or IoT rules. */
export const areasWithStacks = (): AreaName[] =>
  AREA_NAMES.filter(
    (name) =>
      hasRoutes(name) ||
      [...SCHEDULED_JOBS, ...WORKERS, ...IOT_RULES, ...IOT_AUTHORIZERS, ...DEPLOY_HOOKS].some((fn) => fn.area === name),
  );

/**
 * The APIs: one nested stack per service area ({@link AreaStack}: a REST API and one Lambda, granted exactly
 * the resources that SERVICE_RESOURCES lists for it, and the area's scheduled jobs, queue workers and IoT
 * rules), under the account-wide
 * API Gateway logging setting that every stage waits for.
 */
export class ApiStack extends Stack {
  /** Each area's nested stack, by area name. */
  readonly areaStacks: Partial<Record<AreaName, AreaStack>> = {};
  /** Each area's API, by area name. */
  readonly apis: Partial<Record<AreaName, AreaApi>> = {};
  /** Each area's base URL, by area name (the web app's `apiBaseUrls`). */
  readonly apiBaseUrls: Record<string, string> = {};

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, { suppressTemplateIndentation: true, ...props });
    const { settings } = props;

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

    const refs: ServiceResourceRefs = {
      envName: settings.name,
      stripeMode: settings.stripeMode,
      rollupCoalescing: settings.rollupCoalescing,
      tables: props.tables,
      queues: props.queues,
      userPool: props.userPool,
      mail: props.mail,
      webOrigin: props.webOrigin,
      stripeSecret: props.stripeSecret,
      stripeWebhookSecret: props.stripeWebhookSecret,
      webhookSecretsKey: props.webhookSecretsKey,
      realtime: props.realtime,
      signInProviders: settings.identityProviders.map(hostedProviderOf),
    };

    const webAcl = settings.waf ? new ApiWebAcl(this, 'ApiWebAcl', { settings, waf: settings.waf }) : undefined;

    for (const name of areasWithStacks()) {
      const areaStack = new AreaStack(this, constructId(name), {
        area: name,
        settings,
        projectRoot: props.projectRoot,
        refs,
        webClient: props.webClient,
        corsOrigins: [props.webOrigin, ...settings.extraCorsOrigins],
        apiGatewayAccount: account,
        ...(webAcl ? { webAclArn: webAcl.arn } : {}),
      });
      this.areaStacks[name] = areaStack;
      const api = areaStack.api;
      if (!api) continue;
      this.apis[name] = api;
      this.apiBaseUrls[name] = api.url;
      // In the parent, not the nested stack: `cdk deploy` prints (and --outputs-file records) the outputs of
      // the stacks it deploys, not those of their nested stacks. Same output names as before the split.
      new CfnOutput(this, `${constructId(name)}ApiUrl`, { value: api.url, description: `Base URL of the ${name} API` });
    }
  }
}
