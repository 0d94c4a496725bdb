import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createStripeClient } from '../../functions/_shared/billing/stripe-client';
import { TABLES } from '../../functions/_shared/tables';
import { DEMO_IDENTITY_PROVIDER } from '../../shared/auth/demo-identity-provider';
import { hostedSignInConfig } from '../../shared/auth/hosted-sign-in';
import type { RuntimeConfig } from '../../shared/config/runtime-config';
import { AREA_NAMES } from '../../shared/contracts/areas';
import { deviceConnectionOf } from '../../shared/iot/device-connection';
import { iotRuleName, readingsRuleName } from '../../shared/iot/topics';
import { environmentSettings, REGION } from '../definitions/environments';
import { IOT_RULES, WORKERS } from '../definitions/services';
import { BUCKETS, QUEUES, type QueueKey } from '../definitions/storage';
import {
  createBuckets,
  createQueues,
  createTables,
  createUserPool,
  seedDemoAccounts,
  seedDemoCustomers,
  seedDemoData,
} from './bootstrap';
import { startCognitoCompat } from './cognito-compat';
import { seedDemoAlerts } from './demo-alerts';
import { seedDemoCatalogue } from './demo-catalogue';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo-data';
import { seedDemoReadings, topUpDemoReadings } from './demo-readings';
import { createDemoSimulation } from './demo-simulation';
import { DEMO_BACKFILL_MS } from './demo-simulator';
import { ensureDemoWebhook, ensureLocalSecretsKey } from './demo-webhook';
import { MAIL_FROM, startCognitoLocal } from './emulators/cognito';
import { startDemoIdp } from './emulators/demo-idp';
import { DEMO_IDP_ACCOUNTS, DEMO_IDP_PASSWORD } from './emulators/demo-idp-accounts';
import { startDynamoDb } from './emulators/dynamodb';
import { startFauxqsEmulator } from './emulators/fauxqs';
import { type Emulator, LOCAL_CREDENTIALS } from './emulators/listen';
import { startMqtt } from './emulators/mqtt';
import { LOCAL_APP_MONITOR_ID, startRumCollector } from './emulators/rum';
import { startSes } from './emulators/ses';
import { LOCAL_STRIPE_SECRET_KEY, LOCAL_STRIPE_WEBHOOK_SECRET, startStripe } from './emulators/stripe';
import { startGateway } from './gateway';
import { runLocalMigrations } from './migrations';
import { createLocalMqttAuth } from './mqtt-auth';
import { DEFAULT_PORTS, type Ports } from './ports';
import { type LocalRule, startRuleBridge } from './rule-bridge';
import { startScheduler } from './scheduler';
import { type SqsHandler, startSqsPoller } from './sqs-poller';
import type { StackInfo } from './stack-info';
import { startWeb, type WebMode } from './web';
import { startWebhookReceiver } from './webhook-receiver';

const ENV = 'local' as const;
const SETTINGS = environmentSettings(ENV);
/** The local broker's stand-in for `arn:{partition}:iot:{region}:{account}` (a fake account, as the emulators use). */
const LOCAL_IOT_ARN_PREFIX = `arn:aws:iot:${REGION}:000000000000`;
const credentials = LOCAL_CREDENTIALS;
/** Batches each worker works at once: Lambda runs a queue's batches side by side too (FIFO groups excepted). */
const WORKER_CONCURRENCY = 4;

export interface StackOptions {
  rootDir: string;
  dataDir: string;
  ports: Ports;
  /**
   * The web app: `dev` is Vite's dev server, `prod` the production build served as CloudFront serves it
   * (`npm start -- --prod`, the e2e tests); `true` means `dev`, `false` no web app.
   */
  web: WebMode | boolean;
  /**
   * The demo devices report every minute through data-ingress while the stack runs (`npm start`; off with
   * `--no-simulate`, and for the tests and the bench, which must not see data move). @default false
   */
  simulate?: boolean;
  log?: (line: string) => void;
}

export interface RunningStack {
  info: StackInfo;
  /**
   * Holds the queue workers (their messages wait in the queues) and the scheduled jobs, and resolves once their work
   * in hand is done: for the bench, which measures the API's own path on cores the workers would otherwise share.
   */
  pauseWorkers: () => Promise<void>;
  resumeWorkers: () => void;
  stop: () => Promise<void>;
}

/**
 * Starts the whole product on this machine: the emulators, resources created from the same definitions
 * the CDK stacks use, demo data on first start, the local API gateway, workers, the rule bridge and the web app.
 */
export const startStack = async (options: StackOptions): Promise<RunningStack> => {
  const log = options.log ?? (() => undefined);
  const started = Date.now();
  const dataDir = path.resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true });
  const firstStart = !existsSync(path.join(dataDir, 'dynamodb'));
  const stoppers: (() => Promise<void>)[] = [];
  const pollers: ReturnType<typeof startSqsPoller>[] = [];
  const emulators: Emulator[] = [];
  const track = <E extends Emulator>(e: E): E => {
    emulators.push(e);
    stoppers.push(e.stop);
    return e;
  };

  const stop = async () => {
    for (const s of stoppers.reverse()) await s().catch((error: unknown) => console.error('Stop failed:', error));
    stoppers.length = 0;
  };

  try {
    // The demo organization's webhook posts here; the mail viewer links to what it received.
    const receiver = await startWebhookReceiver({
      port: options.ports.webhookReceiver,
      secretFile: path.join(dataDir, 'demo-webhook-secret'),
      keptFile: path.join(dataDir, 'demo-webhook-received.json'),
    });
    stoppers.push(receiver.stop);
    const [ses, dynamodb, fauxqs, stripe, mqtt] = await Promise.all([
      startSes({
        port: options.ports.ses,
        links: () => [{ href: receiver.url, text: 'Webhooks received by the demo receiver →' }],
      }).then(track),
      startDynamoDb({ dataDir: path.join(dataDir, 'dynamodb'), port: options.ports.dynamodb }).then(track),
      startFauxqsEmulator({ dataDir: path.join(dataDir, 'fauxqs'), port: options.ports.fauxqs, region: REGION }).then(
        track,
      ),
      startStripe({ port: options.ports.stripe, dataDir: path.join(dataDir, 'stripe') }).then(track),
      startMqtt({ port: options.ports.mqtt, wsPort: options.ports.mqttWs }).then(track),
    ]);
    // The compatibility layer listens first: its URL is the token issuer cognito-local must sign with.
    const cognito = track(await startCognitoCompat({ port: options.ports.cognito }));
    const cognitoLocal = track(
      await startCognitoLocal({
        dataDir: path.join(dataDir, 'cognito'),
        issuerDomain: cognito.url,
        sesEndpoint: ses.url,
        region: REGION,
        rememberedDevices: SETTINGS.rememberedDevices,
      }),
    );
    cognito.setUpstream(cognitoLocal.url);
    // The demo organization's own OpenID provider, whose one client is the layer (docs/decisions/038).
    const demoIdp = track(await startDemoIdp({ port: options.ports.demoIdp, identityLayerUrl: cognito.url }));
    cognito.addFederationProvider({
      name: DEMO_IDENTITY_PROVIDER.name,
      issuer: demoIdp.url,
      clientId: demoIdp.client.clientId,
      clientSecret: demoIdp.client.clientSecret,
      redirectUri: demoIdp.client.redirectUri,
    });
    log(`emulators up in ${Date.now() - started} ms`);

    const dynamoClient = new DynamoDBClient({ region: REGION, endpoint: dynamodb.url, credentials });
    const cognitoClient = new CognitoIdentityProviderClient({ region: REGION, endpoint: cognito.url, credentials });
    const tables = await createTables(dynamoClient, ENV, log);
    const buckets = await createBuckets(fauxqs.s3, ENV);
    const queues = createQueues(fauxqs.createQueue, ENV);
    // Before anything is sent or stored: the write-through would replace a queue's saved messages with its state.
    await fauxqs.restore();
    const { userPoolId, clientId } = await createUserPool(cognitoClient, ENV);
    const demoReadingDeps = {
      db: DynamoDBDocumentClient.from(dynamoClient),
      sqs: fauxqs.sqs,
      tables,
      sensorDataQueueUrl: queues.sensorData,
    };
    if (firstStart) {
      const subs = await seedDemoAccounts(cognitoClient, userPoolId);
      await seedDemoData(DynamoDBDocumentClient.from(dynamoClient), tables, subs);
      await seedDemoReadings({ ...demoReadingDeps, calibratedBy: subs.get('user@example.com') });
      await seedDemoAlerts(DynamoDBDocumentClient.from(dynamoClient), tables, subs);
      log('demo data seeded');
    } else {
      // A simulating stack resends the last day through ingest, as its devices would; the seed fills what lies before.
      await topUpDemoReadings(demoReadingDeps, undefined, options.simulate ? Date.now() - DEMO_BACKFILL_MS : undefined);
    }
    if (stripe.fresh) await seedDemoCustomers(createStripeClient(LOCAL_STRIPE_SECRET_KEY, stripe.url));
    // Idempotent, so every start: a data folder from before the catalogue gets it too.
    await seedDemoCatalogue(createStripeClient(LOCAL_STRIPE_SECRET_KEY, stripe.url));
    const issuer = `${cognito.url}/${userPoolId}`;

    const runtime: { config?: RuntimeConfig } = {};
    const web = options.web
      ? await startWeb({
          rootDir: options.rootDir,
          port: options.ports.web,
          runtime,
          mode: options.web === 'prod' ? 'prod' : 'dev',
          distDir: path.join(dataDir, 'web-dist'),
          log,
        })
      : undefined;
    if (web) stoppers.push(web.stop);
    const webOrigin = web?.url ?? `http://localhost:${DEFAULT_PORTS.web}`;
    // The hosted sign-in's callback and sign-out URLs: this web app's origin and Vite's dev origin (`npm run dev`
    // beside a stack), as the CDK lists the environment's web domain and the local origin.
    const hostedOrigins = [webOrigin, `http://localhost:${DEFAULT_PORTS.web}`];
    cognito.setHostedClient({ clientId, webOrigins: hostedOrigins });
    // Real-user monitoring's collector, for the same origins (docs/decisions/040-real-user-monitoring.md).
    const rum = track(await startRumCollector({ port: options.ports.rum, origins: hostedOrigins }));

    // The demo provider is this home's only one: on the sign-in page, and in how the users area labels sign-ins.
    const signInProviders = [{ name: DEMO_IDENTITY_PROVIDER.name, label: DEMO_IDENTITY_PROVIDER.label }];

    // What KMS is in the cloud: the key webhooks' signing secrets are sealed with, kept in the data folder.
    const webhookSecretsKey = await ensureLocalSecretsKey(path.join(dataDir, 'webhook-secrets.key'));

    // The same variables the CDK gives each Lambda, pointed at the emulators.
    Object.assign(process.env, {
      AWS_REGION: REGION,
      AWS_DEFAULT_REGION: REGION,
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      AWS_ENDPOINT_URL_DYNAMODB: dynamodb.url,
      AWS_ENDPOINT_URL_SQS: fauxqs.url,
      AWS_ENDPOINT_URL_S3: fauxqs.url,
      AWS_ENDPOINT_URL_SESV2: ses.url,
      AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER: cognito.url,
      // The live view's publisher (IoT Core's Publish) reaches the local broker through its data-plane shim.
      AWS_ENDPOINT_URL_IOT_DATA_PLANE: mqtt.dataPlaneUrl,
      // The first level of the live view's watcher topics (`{env}/identities/…`).
      ENV_NAME: ENV,
      // The resources of the devices' MQTT policies (the authorizer's answer, applied by the local broker).
      IOT_ARN_PREFIX: LOCAL_IOT_ARN_PREFIX,
      S3_FORCE_PATH_STYLE: 'true',
      AUTH_ISSUER: issuer,
      AUTH_CLIENT_IDS: clientId,
      CORS_ORIGINS: webOrigin,
      USER_POOL_ID: userPoolId,
      MAIL_FROM,
      WEB_ORIGIN: webOrigin,
      SIGN_IN_PROVIDERS: JSON.stringify(signInProviders),
      // The key itself and the local server's URL; in the cloud STRIPE_SECRET_ARN instead, and Stripe's own URL.
      STRIPE_SECRET_KEY: LOCAL_STRIPE_SECRET_KEY,
      STRIPE_API_URL: stripe.url,
      STRIPE_WEBHOOK_SECRET: LOCAL_STRIPE_WEBHOOK_SECRET,
      // Webhooks may go to http://localhost here (the demo receiver); in the cloud only to public https addresses.
      WEBHOOK_TARGETS: 'local',
      WEBHOOK_SECRETS_LOCAL_KEY: webhookSecretsKey,
      // dynalite's indexes are read-after-write consistent: no settling time before access decisions are cached.
      ACCESS_INDEX_SETTLE_MS: '0',
      // No CloudWatch reads the functions' EMF lines here; they would only crowd the console (decision 030).
      POWERTOOLS_METRICS_DISABLED: 'true',
      ...Object.fromEntries(Object.entries(TABLES).map(([key, t]) => [t.envVar, tables[key]])),
      ...Object.fromEntries(Object.entries(BUCKETS).map(([key, b]) => [b.envVar, buckets[key]])),
      ...Object.fromEntries(Object.entries(QUEUES).map(([key, q]) => [q.envVar, queues[key as QueueKey]])),
    });

    // The broker's rules read the tables and verify tokens: on only now that both exist.
    mqtt.setAuth(
      createLocalMqttAuth({
        envName: ENV,
        issuer,
        clientIds: [clientId],
        devicesTable: tables.devices!,
        deviceCredentialsTable: tables.deviceCredentials!,
        deviceSubscriptionsTable: tables.deviceSubscriptions!,
        parametersTable: tables.parameters!,
        iotArnPrefix: LOCAL_IOT_ARN_PREFIX,
      }),
    );

    // What a deploy does in the cloud (the MigrationsRunner custom resource): pending migrations, every start.
    await runLocalMigrations('npm start', log);

    const gateway = await startGateway({
      port: options.ports.gateway,
      rootDir: options.rootDir,
      emulators: () => emulators,
      corsOrigins: [webOrigin],
    });
    stoppers.push(gateway.stop);
    // What the CDK gives an area's workers as AREA_API_URL; only the notifications worker has links to its API.
    process.env.AREA_API_URL = `${gateway.url}/notifications`;
    // Stripe's events reach the customer area's webhook as they would in the cloud: signed, over HTTP.
    stripe.setWebhookUrl(`${gateway.url}/customer/stripe-webhook`);

    for (const worker of WORKERS) {
      const { handler } = (await import(pathToFileURL(path.join(options.rootDir, worker.entry)).href)) as {
        handler: SqsHandler;
      };
      const attributes = await fauxqs.sqs.send(
        new GetQueueAttributesCommand({ QueueUrl: queues[worker.queue], AttributeNames: ['QueueArn'] }),
      );
      const poller = startSqsPoller({
        sqs: fauxqs.sqs,
        queueUrl: queues[worker.queue],
        queueArn: attributes.Attributes?.QueueArn ?? '',
        handler,
        concurrency: WORKER_CONCURRENCY,
        ...(worker.batchSize ? { batchSize: worker.batchSize } : {}),
        onError: (error) => console.error(`Worker ${worker.name}:`, error),
      });
      stoppers.push(poller.stop);
      pollers.push(poller);
    }
    const scheduler = await startScheduler({
      rootDir: options.rootDir,
      onError: (job, error) => console.error(`Job ${job}:`, error),
    });
    stoppers.push(scheduler.stop);
    const rules: LocalRule[] = [];
    for (const rule of IOT_RULES) {
      const { handler } = (await import(pathToFileURL(path.join(options.rootDir, rule.entry)).href)) as {
        handler: LocalRule['handler'];
      };
      rules.push({ name: rule.name, ruleName: iotRuleName(rule.name, ENV), topicFilter: rule.topicFilter, handler });
    }
    const bridge = startRuleBridge(mqtt.broker, rules, undefined, mqtt.principalOf);
    stoppers.push(bridge.stop);

    runtime.config = {
      env: ENV,
      region: REGION,
      apiBaseUrls: Object.fromEntries(AREA_NAMES.map((area) => [area, `${gateway.url}/${area}`])),
      auth: {
        userPoolId,
        userPoolClientId: clientId,
        userPoolEndpoint: cognito.url,
        authFlowType: 'USER_PASSWORD_AUTH',
        // The identity layer serves the hosted endpoints on the Cognito endpoint's origin (decision 035).
        oauth: hostedSignInConfig({
          origin: cognito.url,
          webOrigins: hostedOrigins,
          providers: signInProviders,
        }),
        rememberedDevices: SETTINGS.rememberedDevices,
      },
      // Spec §9: lax and not secure only here, where the web app is served over plain http.
      cookies: { secure: false, sameSite: 'lax' },
      realtimeUrl: mqtt.wsUrl,
      // The local broker takes the device id as the user name as it is, and Basic Ingest as IoT Core does.
      deviceIngress: { mqttUrl: mqtt.url, mqttUserNameSuffix: '', readingsRule: readingsRuleName(ENV) },
      mailViewerUrl: ses.url,
      // Unsigned: the collector takes the web app's events without the identity pool the cloud signs them with.
      analytics: {
        appMonitorId: LOCAL_APP_MONITOR_ID,
        endpoint: rum.url,
        sessionSampleRate: SETTINGS.realUserMonitoring.sessionSampleRate,
      },
    };

    // Every start: the tests' stack gives the receiver a new port, and a first start has just made the organization.
    const demoWebhook = await ensureDemoWebhook({
      db: demoReadingDeps.db,
      tables,
      localKey: webhookSecretsKey,
      secretFile: path.join(dataDir, 'demo-webhook-secret'),
      url: receiver.hookUrl,
    });
    if (demoWebhook === 'made') log(`demo webhook made: demo-org-1's events go to ${receiver.hookUrl}`);

    const simulation = options.simulate
      ? await createDemoSimulation({
          db: demoReadingDeps.db,
          tables,
          credentialsFile: path.join(dataDir, 'demo-device-credentials.json'),
          connectionOf: (deviceId) => deviceConnectionOf(runtime.config!, deviceId),
          log,
        })
      : undefined;
    if (simulation) {
      stoppers.push(simulation.stop);
      // Not awaited: the stack is ready while the devices resend their backlog.
      simulation.start().catch((error: unknown) => console.error('Demo devices:', error));
    }

    const info: StackInfo = {
      env: ENV,
      region: REGION,
      dataDir,
      startedAt: new Date(started).toISOString(),
      pid: process.pid,
      endpoints: {
        gateway: gateway.url,
        web: web?.url,
        dynamodb: dynamodb.url,
        cognito: cognito.url,
        sqs: fauxqs.url,
        s3: fauxqs.url,
        ses: ses.url,
        mailViewer: ses.url,
        mqtt: mqtt.url,
        mqttWs: mqtt.wsUrl,
        iotDataPlane: mqtt.dataPlaneUrl,
        stripe: stripe.url,
        demoIdp: demoIdp.url,
        rum: rum.url,
        webhookReceiver: receiver.url,
      },
      auth: { userPoolId, clientId, issuer },
      tables,
      buckets,
      queues,
      demo: {
        simulated: simulation?.report().map(({ deviceId, link }) => ({ deviceId, link })) ?? [],
        password: DEMO_PASSWORD,
        accounts: DEMO_ACCOUNTS.map((a) => ({ email: a.email, group: 'group' in a ? a.group : undefined })),
        identityProvider: {
          name: DEMO_IDENTITY_PROVIDER.name,
          label: DEMO_IDENTITY_PROVIDER.label,
          password: DEMO_IDP_PASSWORD,
          accounts: DEMO_IDP_ACCOUNTS.map((a) => ({ email: a.email, emailVerified: a.emailVerified })),
        },
      },
    };
    // Written whole, then renamed: a reader never sees half a file.
    await writeFile(path.join(dataDir, 'stack.json.tmp'), `${JSON.stringify(info, null, 2)}\n`);
    await rename(path.join(dataDir, 'stack.json.tmp'), path.join(dataDir, 'stack.json'));
    log(`ready in ${Date.now() - started} ms`);
    return {
      info,
      pauseWorkers: async () => {
        await Promise.all([...pollers.map((poller) => poller.pause()), scheduler.pause()]);
      },
      resumeWorkers: () => {
        for (const poller of pollers) poller.resume();
        scheduler.resume();
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
};
