import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Stripe from 'stripe';
import { createStripeClient } from '../../../functions/_shared/billing/stripe-client';
import { LOCAL_STRIPE_SECRET_KEY, parseForm, parseSearchQuery, type StripeEmulator, startStripe } from './stripe';

/** The local Stripe server, driven through the real `stripe` SDK as the handlers drive it. */

let dataDir: string;
let server: StripeEmulator;
let stripe: Stripe;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'stripe-emulator-'));
  server = await startStripe({ port: 0, dataDir });
  stripe = createStripeClient(LOCAL_STRIPE_SECRET_KEY, server.url);
});

afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const unique = (name: string) => `${name}-${Math.random().toString(36).slice(2, 10)}@example.com`;

describe('customers through the stripe SDK', () => {
  it('creates a customer with e-mail, name and metadata, and retrieves it', async () => {
    expect(server.fresh).toBe(true);
    const email = unique('create');
    const created = await stripe.customers.create({ email, name: 'Ada Lovelace', metadata: { plan: 'pro' } });
    expect(created).toMatchObject({
      object: 'customer',
      id: expect.stringMatching(/^cus_\w{14}$/),
      email,
      name: 'Ada Lovelace',
      metadata: { plan: 'pro' },
      livemode: false,
      created: expect.any(Number),
    });
    const read = await stripe.customers.retrieve(created.id);
    expect(read).toEqual(created);
  });

  it('answers an unknown customer as Stripe does: 404 resource_missing', async () => {
    const error = await stripe.customers.retrieve('cus_nope').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({ statusCode: 404, code: 'resource_missing', message: "No such customer: 'cus_nope'" });
  });

  it('answers an object a parameter names and Stripe does not hold as Stripe does: 400 resource_missing naming it', async () => {
    const refused = async (call: Promise<unknown>) => {
      const error = await call.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      const { statusCode, code, param, message } = error as Stripe.errors.StripeInvalidRequestError;
      return { statusCode, code, param, message };
    };
    const customer = await stripe.customers.create({ email: unique('lists') });
    for (const call of [
      stripe.invoices.list({ customer: 'cus_nobody' }),
      stripe.subscriptions.list({ customer: 'cus_nobody' }),
      stripe.entitlements.activeEntitlements.list({ customer: 'cus_nobody' }),
    ]) {
      expect(await refused(call)).toEqual({
        statusCode: 400,
        code: 'resource_missing',
        param: 'customer',
        message: "No such customer: 'cus_nobody'",
      });
    }
    expect(await refused(stripe.invoices.list({ customer: customer.id, starting_after: 'not-an-invoice' }))).toEqual({
      statusCode: 400,
      code: 'resource_missing',
      param: 'starting_after',
      message: "No such invoice: 'not-an-invoice'",
    });
    // A customer that exists lists what it has, nothing here.
    await expect(stripe.invoices.list({ customer: customer.id })).resolves.toMatchObject({ data: [] });
    await expect(stripe.subscriptions.list({ customer: customer.id })).resolves.toMatchObject({ data: [] });
  });

  it('lists newest first, filtered by e-mail (case-sensitive, as Stripe), in pages', async () => {
    const email = unique('list');
    const first = await stripe.customers.create({ email });
    const second = await stripe.customers.create({ email });
    await stripe.customers.create({ email: unique('other') });
    const page = await stripe.customers.list({ email, limit: 1 });
    expect(page).toMatchObject({ object: 'list', has_more: true, url: '/v1/customers' });
    expect(page.data.map((c) => c.id)).toEqual([second.id]);
    const next = await stripe.customers.list({ email, limit: 1, starting_after: second.id });
    expect(next.data.map((c) => c.id)).toEqual([first.id]);
    expect(next.has_more).toBe(false);
    expect((await stripe.customers.list({ email: email.toUpperCase() })).data).toEqual([]);
    const all: string[] = [];
    for await (const customer of stripe.customers.list({ email, limit: 1 })) all.push(customer.id);
    expect(all).toEqual([second.id, first.id]);
  });

  it("searches by email:'…' in the search-result envelope, ignoring case, with escaped quotes", async () => {
    const email = unique("o'brien");
    const created = await stripe.customers.create({ email });
    const result = await stripe.customers.search({ query: `email:'${email.toUpperCase().replace("'", "\\'")}'` });
    expect(result).toMatchObject({ object: 'search_result', has_more: false, url: '/v1/customers/search' });
    expect(result.data.map((c) => c.id)).toEqual([created.id]);
    expect((await stripe.customers.search({ query: `email:'${unique('nobody')}'` })).data).toEqual([]);
  });

  it('searches by name and metadata too, and combines clauses with AND', async () => {
    const email = unique('grace');
    const created = await stripe.customers.create({ email, name: 'Grace Hopper', metadata: { team: 'navy' } });
    await stripe.customers.create({ email: unique('other'), name: 'Grace Hopper', metadata: { team: 'army' } });
    const found = await stripe.customers.search({ query: `name:'grace hopper' AND metadata['team']:'navy'` });
    expect(found.data.map((c) => c.id)).toEqual([created.id]);
  });

  it('refuses a search it does not understand with a 400, not an empty result', async () => {
    for (const query of ["balance_owed:'1'", 'email', "email:'a' AND name:'b' OR phone:'c'"]) {
      const error = await stripe.customers.search({ query }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect(error).toMatchObject({ statusCode: 400, param: 'query' });
    }
  });

  it('updates a customer, merging metadata and removing a key set to ""', async () => {
    const created = await stripe.customers.create({ email: unique('update'), metadata: { a: '1', b: '2' } });
    const updated = await stripe.customers.update(created.id, { name: 'New Name', metadata: { a: '', c: '3' } });
    expect(updated).toMatchObject({
      id: created.id,
      email: created.email,
      name: 'New Name',
      metadata: { b: '2', c: '3' },
    });
    expect(await stripe.customers.retrieve(created.id)).toEqual(updated);
  });

  it('refuses a missing or malformed key with 401, as Stripe', async () => {
    const bad = createStripeClient('not-a-key', server.url);
    const error = await bad.customers.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect((error as Stripe.errors.StripeError).statusCode).toBe(401);
    const none = await fetch(`${server.url}/v1/customers`);
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    const live = createStripeClient('sk_live_anything', server.url);
    expect((await live.customers.create({ email: unique('live') })).livemode).toBe(true);
  });

  it('answers everything else 501 with a message that says what exists', async () => {
    const error = await stripe.paymentIntents.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(error).toMatchObject({
      statusCode: 501,
      message: expect.stringMatching(/implements customers .*GET \/v1\/payment_intents is not implemented/),
    });
    const create = await stripe.subscriptions.create({ customer: 'cus_x', items: [] }).catch((e: unknown) => e);
    expect((create as Stripe.errors.StripeError).statusCode).toBe(501);
  });

  it('replays a create retried with the same idempotency key instead of creating twice', async () => {
    const email = unique('idempotent');
    const once = await stripe.customers.create({ email }, { idempotencyKey: 'key-1' });
    const again = await stripe.customers.create({ email }, { idempotencyKey: 'key-1' });
    expect(again.id).toBe(once.id);
    expect((await stripe.customers.list({ email })).data).toHaveLength(1);
  });

  it('keeps its customers across a restart on the same data dir', async () => {
    const email = unique('restart');
    const created = await stripe.customers.create({ email });
    await server.stop();
    server = await startStripe({ port: 0, dataDir });
    expect(server.fresh).toBe(false);
    stripe = createStripeClient(LOCAL_STRIPE_SECRET_KEY, server.url);
    expect(await stripe.customers.retrieve(created.id)).toEqual(created);
  });
});

describe('wire format', () => {
  it('parses bracketed form keys into objects and arrays', () => {
    expect(parseForm('email=a%40b.c&metadata[plan]=pro&metadata[x]=&expand[0]=a&expand[1]=b')).toEqual({
      email: 'a@b.c',
      metadata: { plan: 'pro', x: '' },
      expand: ['a', 'b'],
    });
  });

  it('reads the search language: quotes with backslash escapes, metadata keys, ~, negation, AND/OR', () => {
    expect(parseSearchQuery("email:'o\\'brien@example.com'").clauses).toEqual([
      { field: 'email', operator: ':', value: "o'brien@example.com", negated: false },
    ]);
    expect(parseSearchQuery(` email : "a@b.c" `).clauses[0]).toMatchObject({ field: 'email', value: 'a@b.c' });
    expect(parseSearchQuery(`metadata["deviceId"]:'d-1' AND -name~'Tier' AND created>1700000000`)).toEqual({
      join: 'AND',
      clauses: [
        { field: 'metadata', metadataKey: 'deviceId', operator: ':', value: 'd-1', negated: false },
        { field: 'name', operator: '~', value: 'Tier', negated: true },
        { field: 'created', operator: '>', value: '1700000000', negated: false },
      ],
    });
    expect(parseSearchQuery("active:'true' OR name:'x'").join).toBe('OR');
    expect(() => parseSearchQuery("email:'a' AND name:'b' OR x:'c'")).toThrow(/mix AND and OR/);
    expect(() => parseSearchQuery("email:'a' name:'b'")).toThrow(/could not parse/);
    expect(() => parseSearchQuery("name['x']:'a'")).toThrow(/Only metadata/);
  });
});
