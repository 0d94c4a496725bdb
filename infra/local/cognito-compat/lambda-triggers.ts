import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type {
  Context as LambdaContext,
  PostAuthenticationTriggerEvent,
  PostConfirmationTriggerEvent,
} from 'aws-lambda';
import type { Context } from 'cognito-local/lib/services/context';
import { COGNITO_TRIGGERS } from '../../definitions/services';

/**
 * cognito-local's Lambda port, served in-process: for the triggers of `COGNITO_TRIGGERS` it imports the same
 * handler module the CDK deploys and calls `handler(event, context)` with the event Cognito sends, instead
 * of invoking a Lambda over the network.
 */

type TriggerName = (typeof COGNITO_TRIGGERS)[number]['triggers'][number];

/**
 * The triggers served here. PreSignUp is not: its one job is the linking rule for a provider's login, and
 * cognito-local knows no identity providers; the local identity layer applies the rule itself
 * (functions/users/domain/federated-linking.ts). Its other refusal, a password sign-up of an address a provider's
 * login holds, cognito-local makes on its own (the address is the federated user's e-mail alias there), as
 * UsernameExistsException rather than the trigger's message (test/integration/identity/federated-sign-in.test.ts).
 */
const LOCAL_TRIGGERS = new Set<TriggerName>(['PostConfirmation', 'PostAuthentication']);

/** What cognito-local hands its Lambda port (its own shape, not Cognito's). */
export interface CognitoLocalTriggerEvent {
  triggerSource: string;
  clientId: string | null;
  clientMetadata?: Record<string, string>;
  userAttributes: Record<string, string>;
  username: string;
  userPoolId: string;
}

type TriggerEvent = PostAuthenticationTriggerEvent | PostConfirmationTriggerEvent;
type Handler = (event: TriggerEvent, context: LambdaContext) => Promise<TriggerEvent | undefined>;

/** The event as Cognito sends it to a PostAuthentication or PostConfirmation Lambda. */
export const cognitoTriggerEvent = (event: CognitoLocalTriggerEvent, region: string): TriggerEvent => {
  const common = {
    version: '1',
    region,
    userPoolId: event.userPoolId,
    userName: event.username,
    // Cognito names no client for admin operations (AdminConfirmSignUp): cognito-local passes null.
    callerContext: { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId: event.clientId ?? 'CLIENT_ID_NOT_APPLICABLE' },
    response: {},
  };
  const clientMetadata = event.clientMetadata ? { clientMetadata: event.clientMetadata } : {};
  if (event.triggerSource === 'PostAuthentication_Authentication') {
    return {
      ...common,
      triggerSource: event.triggerSource,
      request: { userAttributes: event.userAttributes, newDeviceUsed: false, ...clientMetadata },
    };
  }
  if (
    event.triggerSource === 'PostConfirmation_ConfirmSignUp' ||
    event.triggerSource === 'PostConfirmation_ConfirmForgotPassword'
  ) {
    return {
      ...common,
      triggerSource: event.triggerSource,
      request: { userAttributes: event.userAttributes, ...clientMetadata },
    };
  }
  throw new Error(`No local Cognito trigger for ${event.triggerSource}`);
};

const lambdaContext = (functionName: string): LambdaContext => {
  const deadline = Date.now() + 5_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '256',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
};

const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface InProcessLambdaOptions {
  region: string;
  /** @default the repository root */
  rootDir?: string;
  /** @default `import()`; tests hand in a fake module */
  load?: (entry: string) => Promise<{ handler: Handler }>;
}

/** Implements cognito-local's `Lambda` interface (`enabled`, `invoke`) for the triggers we define. */
export const createInProcessLambda = ({ region, rootDir = ROOT_DIR, load }: InProcessLambdaOptions) => {
  const byTrigger = new Map<string, (typeof COGNITO_TRIGGERS)[number]>(
    COGNITO_TRIGGERS.flatMap((fn) =>
      fn.triggers.filter((trigger) => LOCAL_TRIGGERS.has(trigger)).map((trigger) => [trigger, fn] as const),
    ),
  );
  const importEntry =
    load ??
    ((entry: string) =>
      import(pathToFileURL(path.join(rootDir, entry)).href) as Promise<{
        handler: Handler;
      }>);
  // Imported at first use: the handler reads its environment at import, which the local stack sets only
  // after the emulators have started. A failed import is tried again at the next invocation.
  const modules = new Map<string, Promise<{ handler: Handler }>>();
  const moduleOf = (entry: string) => {
    let loaded = modules.get(entry);
    if (!loaded) {
      loaded = importEntry(entry);
      modules.set(entry, loaded);
      loaded.catch(() => modules.delete(entry));
    }
    return loaded;
  };

  return {
    enabled: (trigger: string) => byTrigger.has(trigger),
    invoke: async (ctx: Context, trigger: TriggerName, event: CognitoLocalTriggerEvent) => {
      const fn = byTrigger.get(trigger);
      if (!fn) throw new Error(`${trigger} trigger not configured`);
      const { handler } = await moduleOf(fn.entry);
      // Through JSON, as Lambda would: the handler cannot keep a reference into cognito-local's records.
      const lambdaEvent = JSON.parse(JSON.stringify(cognitoTriggerEvent(event, region))) as TriggerEvent;
      ctx.logger.debug({ functionName: fn.name, triggerSource: lambdaEvent.triggerSource }, 'Invoking in-process');
      const result = await handler(lambdaEvent, lambdaContext(fn.name));
      return JSON.parse(JSON.stringify(result ?? lambdaEvent)).response;
    },
  };
};
