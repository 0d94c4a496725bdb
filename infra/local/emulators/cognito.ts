import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import pino from 'pino';
import { randomNumber } from '../../../shared/random/random-number';
import { withFederatedSignIn } from '../cognito-compat/federated-users';
import { createInProcessLambda } from '../cognito-compat/lambda-triggers';
import { type RememberedDevicesOptions, withRememberedDevices } from '../cognito-compat/remembered-devices';
import { createSignOutRegistry } from '../cognito-compat/sign-outs';
import { withCompatTargets } from '../cognito-compat/targets';
import { type Emulator, LOCAL_CREDENTIALS, LOCAL_HOST } from './listen';

const require = createRequire(import.meta.url);
// cognito-local's building blocks, composed here rather than through its CLI so its data lives under
// `.local/`, the codes it sends go through the local SES (readable in the mail viewer and by tests), its
// Lambda triggers run our handler modules in-process, and the compatibility layer's operations that need its
// user records join its router (docs/decisions/004-cognito-compatibility-layer.md).
const lib = (name: string) => require(`cognito-local/lib/${name}`);

const loadCognitoLocal = () => {
  // cognito-local still loads the v2 SDK (for the Lambda client we replace); its notice is noise here.
  process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE = '1';
  return {
    ...lib('services'),
    ...lib('services/cognitoService'),
    ...lib('services/userPoolService'),
    ...lib('services/crypto'),
    ...lib('services/dataStore/stormDb'),
    ...lib('services/messageDelivery/messageDelivery'),
    ...lib('services/tokenGenerator'),
    ...lib('server/config'),
    ...lib('server/Router'),
    ...lib('server/server'),
  };
};

interface CognitoMessage {
  __code?: string;
  emailMessage?: string;
  emailSubject?: string;
}

export const MAIL_FROM = 'no-reply@device-data.local';

export interface CognitoLocalOptions {
  dataDir: string;
  /** The URL clients use (the compatibility layer): token issuers are `${issuerDomain}/${poolId}`. */
  issuerDomain: string;
  sesEndpoint: string;
  region: string;
  /** The environment's remembered-device rule (environments.ts `rememberedDevices`). */
  rememberedDevices: Pick<RememberedDevicesOptions, 'skipSecondFactor'>;
}

/** Starts cognito-local on a private port; only the compatibility layer talks to it. */
export const startCognitoLocal = async (options: CognitoLocalOptions): Promise<Emulator> => {
  const {
    DateClock,
    TriggersService,
    MessagesService,
    CognitoServiceFactoryImpl,
    UserPoolServiceFactoryImpl,
    CryptoService,
    StormDBDataStoreFactory,
    MessageDeliveryService,
    JwtTokenGenerator,
    DefaultConfig,
    Router,
    createServer,
  } = loadCognitoLocal();
  const dataDir = path.resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true });
  const logger = pino({ level: process.env.COGNITO_LOG_LEVEL ?? 'silent' });
  const ses = new SESv2Client({
    region: options.region,
    endpoint: options.sesEndpoint,
    credentials: LOCAL_CREDENTIALS,
  });
  const sender = {
    sendEmail: async (_ctx: unknown, user: { Username: string }, destination: string, message: CognitoMessage) => {
      const code = message.__code ?? '';
      await ses.send(
        new SendEmailCommand({
          FromEmailAddress: MAIL_FROM,
          Destination: { ToAddresses: [destination] },
          Content: {
            Simple: {
              Subject: { Data: message.emailSubject ?? 'Your verification code' },
              Body: {
                Text: { Data: message.emailMessage ?? `Your code is ${code}` },
                Html: { Data: `<p>${message.emailMessage ?? `Your code is <b>${code}</b>`}</p>` },
              },
            },
          },
          EmailTags: [
            { Name: 'code', Value: code || 'none' },
            { Name: 'username', Value: user.Username.replace(/[^A-Za-z0-9_-]/g, '_') },
          ],
        }),
      );
    },
    sendSms: async () => {
      throw new Error('SMS is not available locally; use e-mail or TOTP');
    },
  };

  const config = {
    ...DefaultConfig,
    TokenConfig: { IssuerDomain: options.issuerDomain },
    ServerConfig: { port: 0, hostname: LOCAL_HOST, development: false, https: false },
    UserPoolDefaults: { UsernameAttributes: ['email'] },
  };
  const ctx = { logger };
  const clock = new DateClock();
  const dataStoreFactory = new StormDBDataStoreFactory(dataDir);
  const cognitoServiceFactory = new CognitoServiceFactoryImpl(
    dataDir,
    dataStoreFactory,
    new UserPoolServiceFactoryImpl(clock, dataStoreFactory),
  );
  const cognitoClient = await cognitoServiceFactory.create(ctx, config.UserPoolDefaults);
  const triggers = new TriggersService(
    clock,
    cognitoClient,
    createInProcessLambda({ region: options.region }),
    new CryptoService(config.KMSConfig),
  );
  const services = {
    clock,
    cognito: cognitoClient,
    config,
    messages: new MessagesService(triggers, new MessageDeliveryService(sender)),
    // Every code it sends (sign-up, forgotten password, e-mail change): spec §9's random number helper, 6 digits
    // from a cryptographically secure source, in place of cognito-local's Math.random (which never draws 999999).
    otp: () => randomNumber(),
    tokenGenerator: new JwtTokenGenerator(clock, triggers, config.TokenConfig),
    triggers,
  };
  // Kept in a sub-directory: cognito-local takes every *.json file of its own directory for a user pool.
  const signOuts = await createSignOutRegistry(path.join(dataDir, 'compat', 'sign-outs.json'));
  const devices = withRememberedDevices(Router(services), services, {
    ...options.rememberedDevices,
    region: options.region,
  });
  const router = withFederatedSignIn(withCompatTargets(devices, services, signOuts), services);
  const server = await createServer(router, logger, config.ServerConfig, services).start();
  const address = server.address() as { port: number };
  const url = `http://${LOCAL_HOST}:${address.port}`;
  return {
    name: 'cognito-local',
    url,
    healthy: async () => (await fetch(`${url}/health`)).ok,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
};
