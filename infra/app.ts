import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { App, type Environment, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import {
  CLOUDFRONT_CERTIFICATE_REGION,
  checkAccount,
  ENVIRONMENTS,
  type EnvironmentSettings,
  type EnvName,
  environmentSettings,
  isEnvName,
  REGION,
} from './definitions/environments';
import { ApiStack } from './stacks/api-stack';
import { AuthStack } from './stacks/auth-stack';
import { DataStack } from './stacks/data-stack';
import { EdgeStack } from './stacks/edge-stack';
import { MessagingStack } from './stacks/messaging-stack';
import { OperationsStack } from './stacks/operations-stack';
import { RealtimeStack } from './stacks/realtime-stack';
import { WebConfigStack } from './stacks/web-config-stack';
import { WebStack } from './stacks/web-stack';

const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The environments CDK deploys. `local` is served by `npm start` (infra/local), and its chart-data bucket name
 * is dev's (spec §9), so a cloud `local` would collide with dev.
 */
export const CLOUD_ENVIRONMENTS = ENVIRONMENTS.filter((name) => name !== 'local');
export type CloudEnvName = Exclude<EnvName, 'local'>;

export const DEFAULT_ENV: CloudEnvName = 'dev';

/** Checks the `-c env=…` value; an unknown or local environment stops the synth with the valid choices. */
export const parseEnvName = (value: unknown): CloudEnvName => {
  const name = value === undefined ? DEFAULT_ENV : String(value);
  if (!isEnvName(name) || name === 'local') {
    const hint = name === 'local' ? ' The local environment runs with `npm start`, not in AWS.' : '';
    throw new Error(`Unknown environment "${name}": use -c env=<${CLOUD_ENVIRONMENTS.join('|')}>.${hint}`);
  }
  return name;
};

/** Options of {@link buildApp}. */
export interface BuildAppOptions {
  /** The app to add the stacks to. @default a new App with cdk.json's context and `context` */
  app?: App;
  /** Context for a new App (tests pass `aws:cdk:bundling-stacks: []` to skip bundling). @default {} */
  context?: Record<string, unknown>;
  /**
   * Where a new App writes its cloud assembly. Tests name a directory their run removes: CDK's own default outside
   * the CLI is a new `cdk.out*` directory in the system's temporary directory per synth, never removed (about 30 MB
   * each). @default the CLI's `CDK_OUTDIR`, else that temporary directory
   */
  outdir?: string;
  /** @default process.env.CDK_DEFAULT_ACCOUNT (unset: an account-agnostic synth) */
  account?: string;
  /** The built web app, deployed when it exists. @default `frontend/dist` */
  webDist?: string;
  /**
   * Settings over the environment's own (infra/definitions/environments.ts), checked the same way: tests give an
   * environment a custom domain this way. @default none
   */
  settings?: Partial<Omit<EnvironmentSettings, 'name'>>;
  /** Each environment's AWS account, checked against `account`. @default ACCOUNTS (infra/definitions/environments.ts) */
  accounts?: Partial<Record<EnvName, string>>;
}

/** The stacks of one environment, in deployment order. */
export interface EnvironmentStacks {
  data: DataStack;
  /** CloudFront's WAF web ACL in us-east-1, where the environment has `webWaf`. */
  edge?: EdgeStack;
  web: WebStack;
  auth: AuthStack;
  messaging: MessagingStack;
  realtime: RealtimeStack;
  api: ApiStack;
  webConfig: WebConfigStack;
  operations: OperationsStack;
}

/** cdk.json's context (feature flags), so an App built outside the CLI (tests) synthesizes the same templates. */
const cdkJsonContext = (): Record<string, unknown> =>
  JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')).context ?? {};

/**
 * Builds one environment's stacks, split by lifecycle: stateful data, the web hosting (whose origin the identity
 * stack's hosted sign-in redirects to) and identity first, then messaging and realtime, the APIs, the web app's
 * runtime configuration, and last the operations stack (alarms and the dashboard), which only reads what the others
 * created. cdk-nag's AWS Solutions and Serverless checks run as validation plugins on every synth
 * (docs/decisions/028-serverless-nag-pack.md).
 */
export const buildApp = (envName: CloudEnvName, options: BuildAppOptions = {}) => {
  const app = options.app ?? new App({ outdir: options.outdir, context: { ...cdkJsonContext(), ...options.context } });
  const settings = environmentSettings(envName, options.settings);
  const account = options.account ?? process.env.CDK_DEFAULT_ACCOUNT;
  checkAccount(envName, account, options.accounts);
  const env: Environment = account ? { account, region: REGION } : { region: REGION };
  const stackId = (part: string) => `DeviceData-${envName}-${part}`;
  const common = { env, settings, terminationProtection: settings.retainData };

  const data = new DataStack(app, stackId('Data'), {
    ...common,
    description: `device-data ${envName}: tables and buckets`,
  });
  // WAF creates CLOUDFRONT-scope web ACLs in us-east-1 only, so the distribution's has a stack of its own there.
  const edge = settings.webWaf
    ? new EdgeStack(app, stackId('Edge'), {
        ...common,
        env: { ...env, region: CLOUDFRONT_CERTIFICATE_REGION },
        description: `device-data ${envName}: the web distribution's WAF web ACL (us-east-1, CloudFront's)`,
        webWaf: settings.webWaf,
      })
    : undefined;
  // Before the identity stack, which makes the hosted sign-in's callback and sign-out URLs from its origin.
  const web = new WebStack(app, stackId('Web'), {
    ...common,
    description: `device-data ${envName}: web hosting`,
    webDist: options.webDist ?? join(PROJECT_ROOT, 'frontend', 'dist'),
    ...(edge ? { webAclArn: edge.webAclArn } : {}),
  });
  const auth = new AuthStack(app, stackId('Auth'), {
    ...common,
    description: `device-data ${envName}: user pool, groups, hosted sign-in, identity pool`,
    projectRoot: PROJECT_ROOT,
    tables: data.tables,
    webOrigin: web.origin,
    webDomain: web.domainName,
  });
  const messaging = new MessagingStack(app, stackId('Messaging'), {
    ...common,
    description: `device-data ${envName}: queues and mail`,
  });
  const realtime = new RealtimeStack(app, stackId('Realtime'), {
    ...common,
    description: `device-data ${envName}: IoT Core (browser and device policies, data endpoint)`,
    authenticatedRole: auth.authenticatedRole,
  });
  const api = new ApiStack(app, stackId('Api'), {
    ...common,
    description: `device-data ${envName}: API Gateway logging and one nested stack (REST API, Lambda) per service area`,
    projectRoot: PROJECT_ROOT,
    tables: data.tables,
    queues: messaging.queues,
    userPool: auth.userPool,
    webClient: auth.webClient,
    webOrigin: web.origin,
    mail: messaging.mail,
    stripeSecret: data.stripeSecret,
    stripeWebhookSecret: data.stripeWebhookSecret,
    webhookSecretsKey: data.webhookSecretsKey,
    realtime: {
      dataEndpoint: realtime.dataEndpoint,
      topicPrefix: realtime.topicPrefix,
      identityPool: { id: auth.identityPool.identityPoolId, arn: auth.identityPool.identityPoolArn },
    },
  });
  const webConfig = new WebConfigStack(app, stackId('WebConfig'), {
    ...common,
    description: `device-data ${envName}: the web app's runtime configuration`,
    siteBucket: web.siteBucket,
    apiBaseUrls: api.apiBaseUrls,
    userPool: auth.userPool,
    webClient: auth.webClient,
    hostedSignIn: auth.hostedSignIn,
    identityPoolId: auth.identityPool.identityPoolId,
    realtimeEndpoint: realtime.dataEndpoint,
    analytics: auth.analytics,
  });

  const areaStacks = Object.entries(api.areaStacks);
  const operations = new OperationsStack(app, stackId('Operations'), {
    ...common,
    description: `device-data ${envName}: alarms, their e-mail topic, and the dashboard`,
    apis: Object.entries(api.apis).map(([area, areaApi]) => ({
      label: area,
      apiName: areaApi.restApi.restApiName,
      stageName: areaApi.stageName,
    })),
    functionGroups: {
      ...Object.fromEntries(areaStacks.map(([area, stack]) => [area, stack.functions])),
      identity: auth.triggers,
    },
    deadLetterQueues: Object.assign({}, ...areaStacks.map(([, stack]) => stack.deadLetterQueues)),
    iotRules: Object.assign({}, ...areaStacks.map(([, stack]) => stack.iotRules)),
  });

  Tags.of(app).add('project', 'device-data');
  Tags.of(app).add('environment', envName);
  Validations.of(app).addPlugins(
    new AwsSolutionsChecks(app, { verbose: true, writeSuppressionsToCloudFormation: true }),
    // The AWS Solutions pack's aspect already writes every acknowledgement, this pack's too, into the templates.
    new ServerlessChecks(app, { verbose: true }),
  );

  const stacks: EnvironmentStacks = {
    data,
    ...(edge ? { edge } : {}),
    web,
    auth,
    messaging,
    realtime,
    api,
    webConfig,
    operations,
  };
  return { app, stacks };
};

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  const app = new App();
  let envName: CloudEnvName | undefined;
  try {
    envName = parseEnvName(app.node.tryGetContext('env'));
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 1;
  }
  if (envName) {
    buildApp(envName, { app });
    app.synth();
  }
}
