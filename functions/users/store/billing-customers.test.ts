import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jest } from '@jest/globals';
import { LOCAL_STRIPE_SECRET_KEY, type StripeEmulator, startStripe } from '../../../infra/local/emulators/stripe';
import { createStripeClient } from '../../_shared/billing/stripe-client';
import { type CustomerSearchClient, createBillingCustomers, emailQuery } from './billing-customers';

const fakeStripe = (search: CustomerSearchClient['customers']['search']) => async () => ({ customers: { search } });

describe('emailQuery', () => {
  it("quotes the e-mail for Stripe's search, escaping quotes and backslashes", () => {
    expect(emailQuery('ann@example.com')).toBe("email:'ann@example.com'");
    expect(emailQuery("o'brien@example.com")).toBe("email:'o\\'brien@example.com'");
    expect(emailQuery("a\\'b@example.com")).toBe("email:'a\\\\\\'b@example.com'");
  });
});

describe('findCustomerIdByEmail with a fake client', () => {
  // Warnings: what a lookup that could not reach Stripe writes.
  let errors: jest.SpiedFunction<typeof console.warn>;
  beforeEach(() => {
    errors = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => errors.mockRestore());

  it("asks for one customer by e-mail and answers the first result's id (spec §7)", async () => {
    const search = jest.fn<CustomerSearchClient['customers']['search']>(async () => ({
      data: [{ id: 'cus_1' }, { id: 'cus_2' }],
    }));
    const billing = createBillingCustomers({ stripe: fakeStripe(search) });
    await expect(billing.findCustomerIdByEmail('ann@example.com')).resolves.toBe('cus_1');
    expect(search).toHaveBeenCalledWith({ query: "email:'ann@example.com'", limit: 1 });
  });

  it('answers undefined when no customer has the e-mail', async () => {
    const billing = createBillingCustomers({ stripe: fakeStripe(async () => ({ data: [] })) });
    await expect(billing.findCustomerIdByEmail('none@example.com')).resolves.toBeUndefined();
    expect(errors).not.toHaveBeenCalled();
  });

  it('answers undefined and logs a warning, without the e-mail, when Stripe or its key cannot be reached', async () => {
    const unreachable = Object.assign(new Error('connect ECONNREFUSED'), {
      name: 'StripeConnectionError',
      type: 'StripeConnectionError',
    });
    const down = createBillingCustomers({ stripe: fakeStripe(async () => Promise.reject(unreachable)) });
    await expect(down.findCustomerIdByEmail('ann@example.com')).resolves.toBeUndefined();
    const noSecret = createBillingCustomers({ stripe: () => Promise.reject(new Error('AccessDeniedException')) });
    await expect(noSecret.findCustomerIdByEmail('ann@example.com')).resolves.toBeUndefined();
    const lines = errors.mock.calls.map(([line]) => JSON.parse(String(line)));
    expect(lines).toEqual([
      expect.objectContaining({ level: 'WARN', errorType: 'StripeConnectionError' }),
      expect.objectContaining({ level: 'WARN', errorName: 'Error' }),
    ]);
    expect(JSON.stringify(lines)).not.toContain('ann@example.com');
  });
});

describe('findCustomerIdByEmail against the local Stripe server', () => {
  let dataDir: string;
  let server: StripeEmulator;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'billing-customers-'));
    server = await startStripe({ port: 0, dataDir });
  });
  afterAll(async () => {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('finds the customer of an e-mail with a quote in it, through the real SDK', async () => {
    const stripe = createStripeClient(LOCAL_STRIPE_SECRET_KEY, server.url);
    const customer = await stripe.customers.create({ email: "o'hara@example.com" });
    const billing = createBillingCustomers({ stripe: async () => stripe });
    await expect(billing.findCustomerIdByEmail("o'hara@example.com")).resolves.toBe(customer.id);
    await expect(billing.findCustomerIdByEmail('hara@example.com')).resolves.toBeUndefined();
  });

  it('logs a configuration error (a refused key) at error level and still answers undefined', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const billing = createBillingCustomers({ stripe: async () => createStripeClient('sk_bad', server.url) });
    await expect(billing.findCustomerIdByEmail('ann@example.com')).resolves.toBeUndefined();
    expect(JSON.parse(String(errors.mock.calls[0]![0]))).toMatchObject({
      level: 'ERROR',
      errorType: 'StripeAuthenticationError',
      statusCode: 401,
    });
    errors.mockRestore();
  });

  it('answers undefined when the server is down', async () => {
    const errors = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const stripe = createStripeClient(LOCAL_STRIPE_SECRET_KEY, 'http://127.0.0.1:9');
    const billing = createBillingCustomers({ stripe: async () => stripe });
    await expect(billing.findCustomerIdByEmail('ann@example.com')).resolves.toBeUndefined();
    expect(JSON.parse(String(errors.mock.calls[0]![0]))).toMatchObject({
      level: 'WARN',
      errorType: 'StripeConnectionError',
    });
    errors.mockRestore();
  });
});
