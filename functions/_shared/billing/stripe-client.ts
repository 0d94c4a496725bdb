import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import Stripe from 'stripe';
import { type EnvSource, readChoiceEnv, readEnvOr, readOneOfEnv } from '../env';
import { STRIPE_MODE_ENV, STRIPE_MODES, type StripeMode } from './stripe-mode';

/**
 * Where billing's settings come from (docs/decisions/010-stripe-secret-key.md). Exactly one of the key variables is set:
 * - STRIPE_SECRET_KEY: the key itself. Only the local stack sets it (a fixed test key for the local server).
 * - STRIPE_SECRET_ARN: the Secrets Manager secret holding the key. The CDK sets it, so the key never sits in the
 *   Lambda's environment, where anyone who may read the function's configuration would see it.
 * STRIPE_API_URL is set only locally (the local Stripe server); elsewhere it is Stripe's own API, {@link STRIPE_API}.
 */
export const BILLING_ENV = {
  secretKey: 'STRIPE_SECRET_KEY',
  secretArn: 'STRIPE_SECRET_ARN',
  apiUrl: 'STRIPE_API_URL',
} as const;

/** Stripe's API, which every cloud environment talks to: the address the SDK takes by default. */
export const STRIPE_API = 'https://api.stripe.com';

/** The key, or where to read it. */
export type StripeKeySource = { secretKey: string } | { secretArn: string };

export interface BillingEnv {
  key: StripeKeySource;
  /** Which keys the environment takes; unset means test, so a function that lost the variable never charges a card. */
  mode: StripeMode;
  /** The Stripe-compatible server to talk to: Stripe's own API but locally. */
  apiUrl: string;
}

/** Reads billing's environment once; throws at cold start when neither or both key variables are set. */
export const readBillingEnv = (env?: EnvSource): BillingEnv => ({
  key: readOneOfEnv({ secretKey: BILLING_ENV.secretKey, secretArn: BILLING_ENV.secretArn }, env),
  mode: readChoiceEnv(STRIPE_MODE_ENV, STRIPE_MODES, 'test', env),
  apiUrl: readEnvOr(BILLING_ENV.apiUrl, STRIPE_API, env),
});

/** Reads a secret's string value (Secrets Manager GetSecretValue). */
export type ReadSecret = (secretId: string) => Promise<string | undefined>;

export const secretsManagerReader =
  (client: SecretsManagerClient): ReadSecret =>
  async (secretId) =>
    (await client.send(new GetSecretValueCommand({ SecretId: secretId }))).SecretString;

/**
 * The one place that knows where the key is: the handler code never asks whether it runs locally or in the cloud.
 * A secret that holds no `sk_…` key (an operator has not put it yet) is an error naming the secret, not the value;
 * so is a key of the other mode (a live key in a test environment, or a test key in production).
 */
export const resolveStripeSecretKey = async (
  source: StripeKeySource,
  readSecret: ReadSecret,
  mode: StripeMode = 'test',
): Promise<string> => {
  const where = 'secretKey' in source ? BILLING_ENV.secretKey : `The secret ${source.secretArn}`;
  const value = 'secretKey' in source ? source.secretKey : (await readSecret(source.secretArn))?.trim();
  if (!value?.startsWith('sk_') && !value?.startsWith('rk_')) {
    throw new Error(`${where} holds no Stripe secret key (sk_… or rk_…): see docs/decisions/010-stripe-secret-key.md`);
  }
  if (!new RegExp(`^[sr]k_${mode}_`).test(value)) {
    throw new Error(
      `${where} holds a Stripe key that is not a ${mode} key, and this environment takes ${mode} keys (${STRIPE_MODE_ENV})`,
    );
  }
  return value;
};

/** The SDK's `host`/`port`/`protocol` for a Stripe-compatible server's URL; nothing for Stripe itself. */
export const connectionOf = (apiUrl?: string): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> => {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol.replace(/:$/, '');
  if (protocol !== 'http' && protocol !== 'https') throw new Error(`STRIPE_API_URL must be http(s): ${apiUrl}`);
  return { host: url.hostname, port: url.port || (protocol === 'https' ? 443 : 80), protocol };
};

/**
 * A `stripe` SDK client. Calls run inside a Lambda with a 10-second timeout behind API Gateway, so the SDK's own
 * 80-second default would outlive the request: a call gets 3 seconds and one retry.
 */
export const createStripeClient = (secretKey: string, apiUrl?: string): Stripe =>
  new Stripe(secretKey, {
    ...connectionOf(apiUrl),
    timeout: 3_000,
    maxNetworkRetries: 1,
    // No request-latency headers to Stripe, and none that the local server would have to ignore.
    telemetry: false,
  });

/**
 * The area's client, built once per cold start: the key is read (from Secrets Manager in the cloud) when this is
 * called, and the client is shared by every later request. A failed read is not remembered, so the next request
 * tries again instead of the container staying without billing until it is recycled.
 */
export const stripeClientProvider = (billing: BillingEnv, readSecret: ReadSecret): (() => Promise<Stripe>) => {
  let client: Promise<Stripe> | undefined;
  const get = () => {
    client ??= resolveStripeSecretKey(billing.key, readSecret, billing.mode).then(
      (key) => createStripeClient(key, billing.apiUrl),
      (error: unknown) => {
        client = undefined;
        throw error;
      },
    );
    return client;
  };
  // Start reading the key now, at cold start, so the first request that needs it does not wait for the read.
  get().catch(() => undefined);
  return get;
};
