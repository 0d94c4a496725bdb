import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { jest } from '@jest/globals';
import { mockClient } from 'aws-sdk-client-mock';
import {
  connectionOf,
  type ReadSecret,
  readBillingEnv,
  resolveStripeSecretKey,
  secretsManagerReader,
  stripeClientProvider,
} from './stripe-client';

const ARN = 'arn:aws:secretsmanager:us-west-2:123456789012:secret:device-data/prod/stripe-secret-key-AbCdEf';

describe('readBillingEnv', () => {
  it("takes the key itself (local) or the secret that holds it (cloud), and the local server's URL or Stripe's", () => {
    expect(readBillingEnv({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_API_URL: 'http://localhost:12111' })).toEqual({
      key: { secretKey: 'sk_test_x' },
      mode: 'test',
      apiUrl: 'http://localhost:12111',
    });
    expect(readBillingEnv({ STRIPE_SECRET_ARN: ARN })).toEqual({
      key: { secretArn: ARN },
      mode: 'test',
      apiUrl: 'https://api.stripe.com',
    });
  });

  it('fails fast when neither or both are set', () => {
    expect(() => readBillingEnv({})).toThrow('Missing environment variables: STRIPE_SECRET_KEY or STRIPE_SECRET_ARN');
    expect(() => readBillingEnv({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_SECRET_ARN: ARN })).toThrow(/not both/);
  });
});

describe('resolveStripeSecretKey', () => {
  const secrets = mockClient(SecretsManagerClient);
  afterEach(() => secrets.reset());

  it('answers a key given directly without reading any secret', async () => {
    const readSecret = jest.fn<ReadSecret>();
    await expect(resolveStripeSecretKey({ secretKey: 'sk_test_x' }, readSecret)).resolves.toBe('sk_test_x');
    expect(readSecret).not.toHaveBeenCalled();
  });

  it('reads the key from the secret, trimmed', async () => {
    secrets.on(GetSecretValueCommand, { SecretId: ARN }).resolves({ SecretString: ' sk_live_abc\n' });
    const read = secretsManagerReader(new SecretsManagerClient({ region: 'us-west-2' }));
    await expect(resolveStripeSecretKey({ secretArn: ARN }, read, 'live')).resolves.toBe('sk_live_abc');
  });

  it('refuses a secret that holds no key (not yet put by an operator), naming the secret and not the value', async () => {
    const error = await resolveStripeSecretKey({ secretArn: ARN }, async () => 'placeholder-value').catch(
      (e: Error) => e,
    );
    expect((error as Error).message).toContain(ARN);
    expect((error as Error).message).not.toContain('placeholder-value');
  });
});

describe('the Stripe mode of the environment', () => {
  it('is test unless the environment says live, and nothing else', () => {
    expect(readBillingEnv({ STRIPE_SECRET_ARN: ARN }).mode).toBe('test');
    expect(readBillingEnv({ STRIPE_SECRET_ARN: ARN, STRIPE_MODE: 'live' }).mode).toBe('live');
    expect(() => readBillingEnv({ STRIPE_SECRET_ARN: ARN, STRIPE_MODE: 'production' })).toThrow(
      'STRIPE_MODE is "production": use one of test, live',
    );
  });

  it('refuses a live key in a test environment and a test key in production, naming neither value', async () => {
    const live = await resolveStripeSecretKey({ secretArn: ARN }, async () => 'sk_live_secret1', 'test').catch(
      (e: Error) => e,
    );
    expect((live as Error).message).toBe(
      `The secret ${ARN} holds a Stripe key that is not a test key, and this environment takes test keys (STRIPE_MODE)`,
    );
    const test = await resolveStripeSecretKey({ secretKey: 'rk_test_secret2' }, async () => undefined, 'live').catch(
      (e: Error) => e,
    );
    expect((test as Error).message).toMatch(/^STRIPE_SECRET_KEY holds a Stripe key that is not a live key/);
    expect((test as Error).message).not.toContain('secret2');
    await expect(resolveStripeSecretKey({ secretKey: 'rk_live_ok' }, async () => undefined, 'live')).resolves.toBe(
      'rk_live_ok',
    );
  });
});

describe('connectionOf', () => {
  it("gives the SDK host, port and protocol for a local server, and nothing for Stripe's default", () => {
    expect(connectionOf('http://localhost:12111')).toEqual({ host: 'localhost', port: '12111', protocol: 'http' });
    expect(connectionOf('https://stripe.example.com')).toEqual({
      host: 'stripe.example.com',
      port: 443,
      protocol: 'https',
    });
    expect(connectionOf(undefined)).toEqual({});
    // Stripe's own API, as every cloud environment reads it: the SDK's defaults, spelled out.
    expect(connectionOf('https://api.stripe.com')).toEqual({ host: 'api.stripe.com', port: 443, protocol: 'https' });
    expect(() => connectionOf('ftp://x')).toThrow(/http/);
  });
});

describe('stripeClientProvider', () => {
  it('reads the secret once for every request, and again after a failed read', async () => {
    const readSecret = jest
      .fn<ReadSecret>()
      .mockRejectedValueOnce(new Error('Secrets Manager unreachable'))
      .mockResolvedValue('sk_test_from_secret');
    const get = stripeClientProvider(
      { key: { secretArn: ARN }, mode: 'test', apiUrl: 'https://api.stripe.com' },
      readSecret,
    );
    await expect(get()).rejects.toThrow('Secrets Manager unreachable');
    const client = await get();
    expect(await get()).toBe(client);
    expect(readSecret).toHaveBeenCalledTimes(2);
  });
});
