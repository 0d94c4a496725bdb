import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { ownValue } from '../../../shared/objects/own-value';
import { closeServer, type Emulator, listen, readBody } from './listen';
import { type Billing, createBilling } from './stripe-billing';
import { createCatalogue } from './stripe-catalogue';
import { checkoutPage, invoicePage, notFoundPage, portalPage } from './stripe-pages';
import { createReplies } from './stripe-replies';
import { createStripeStore, type LocalCustomer, type LocalSubscription, type StripeState } from './stripe-state';
import { createWebhookSender, LOCAL_STRIPE_WEBHOOK_SECRET, RETRY_DELAYS_MS, type SentEvent } from './stripe-webhooks';
import {
  type FormObject,
  invalid,
  metadataOf,
  missing,
  pageOf,
  parseForm,
  parseSearchQuery,
  randomId,
  requiredString,
  type SearchFields,
  StripeHttpError,
  searchMatcher,
  searchResultOf,
  stringField,
  stringList,
} from './stripe-wire';

export type { LocalCustomer } from './stripe-state';
export { LOCAL_STRIPE_WEBHOOK_SECRET, signatureHeader } from './stripe-webhooks';
export { parseForm, parseSearchQuery } from './stripe-wire';

/**
 * The key the local stack gives the handlers (STRIPE_SECRET_KEY). The local server accepts any key of Stripe's
 * shape, as Stripe's test mode would accept any of the account's keys; this one only names itself.
 */
export const LOCAL_STRIPE_SECRET_KEY = 'sk_test_local_device_data';

export interface StripeEmulator extends Emulator {
  /** True when this start found no saved state (the first start of a data dir): the moment to seed demo data. */
  fresh: boolean;
  /** Where events go (the webhook endpoint); the local stack knows its gateway's URL only after this starts. */
  setWebhookUrl: (url: string | undefined) => void;
  /** Every event handed to the webhook endpoint since this start, with its delivery attempts. */
  sentEvents: () => readonly SentEvent[];
  /** Resolves when no webhook delivery is under way or waiting for a retry. */
  webhooksIdle: () => Promise<void>;
}

export interface StripeOptions {
  port: number;
  dataDir: string;
  /** The webhook endpoint; none: events are only kept (for `/v1/events`). */
  webhookUrl?: string;
  /** The endpoint's signing secret. @default LOCAL_STRIPE_WEBHOOK_SECRET */
  webhookSecret?: string;
  /** Waits before each delivery retry. @default RETRY_DELAYS_MS */
  webhookRetryDelaysMs?: readonly number[];
}

const IMPLEMENTED =
  'The local Stripe server implements customers (create, retrieve, update, list, search), products and prices ' +
  '(create, retrieve, update, list, search), checkout sessions in subscription mode (create, retrieve, list, ' +
  'line_items, expire), subscriptions (retrieve, list, search, update, cancel), subscription_schedules ' +
  '(create from_subscription, retrieve, update phases, release), invoices (retrieve, list, search, ' +
  'lines), entitlements.active_entitlements (list), billing_portal.sessions (create) and events (retrieve, list); ' +
  'see docs/billing-local-stripe.md.';

const customerSearch: SearchFields<LocalCustomer> = {
  email: (c) => c.email,
  name: (c) => c.name,
  phone: (c) => c.phone,
  created: (c) => c.created,
};

/** The fields a path segment names, and the collection an id in it points into (for `expand`). */
const EXPANDABLE: Record<string, keyof StripeState> = {
  customer: 'customers',
  product: 'products',
  price: 'prices',
  default_price: 'prices',
  latest_invoice: 'invoices',
  invoice: 'invoices',
  subscription: 'subscriptions',
  schedule: 'subscriptionSchedules',
};

/**
 * The local Stripe-compatible server (docs/architecture.md#the-two-homes), driven through the real `stripe` SDK. Wire
 * format as Stripe's: bearer key auth, form-encoded requests, JSON objects with `object`, lists and search results in
 * their envelopes, errors as `{error: {type, message, code?, param?}}`, `expand[]`. It also serves the pages Stripe
 * hosts (checkout, invoices, the billing portal) and sends signed webhooks. Anything else answers 501 saying what
 * exists.
 */
export const startStripe = async ({
  port,
  dataDir,
  webhookUrl,
  webhookSecret = LOCAL_STRIPE_WEBHOOK_SECRET,
  webhookRetryDelaysMs = RETRY_DELAYS_MS,
}: StripeOptions): Promise<StripeEmulator> => {
  const store = await createStripeStore(dataDir);
  const { state } = store;
  /** POST responses by Idempotency-Key, so the SDK's retry of a create does not create twice (as Stripe). */
  const replies = createReplies<{ status: number; body: unknown }>();
  const webhooks = createWebhookSender({ secret: webhookSecret, delays: webhookRetryDelaysMs });
  webhooks.setUrl(webhookUrl);
  let baseUrl = '';
  const catalogue = createCatalogue(store);
  const billing: Billing = createBilling({ store, catalogue, baseUrl: () => baseUrl, deliver: webhooks.send });

  const newestFirst = <T>(items: T[]) => [...items].reverse();

  const search = <T extends { metadata: Record<string, string> | null }>(
    items: T[],
    form: FormObject,
    fields: SearchFields<T>,
    url: string,
  ) => {
    const matches = searchMatcher(parseSearchQuery(requiredString(form, 'query')), fields);
    return searchResultOf(newestFirst(items).filter(matches), form, url);
  };

  // ---- expand ------------------------------------------------------------------------------------------------

  const resolve = (key: string, value: unknown, parent: Record<string, unknown>): unknown => {
    if (key === 'line_items' && parent.object === 'checkout.session') {
      const data = billing.checkoutLineItems(parent.id as string);
      return { object: 'list', data, has_more: false, url: `/v1/checkout/sessions/${parent.id}/line_items` };
    }
    if (key === 'feature' && typeof value === 'string') return billing.findFeature(value);
    const collection = ownValue(EXPANDABLE, key);
    if (!collection) throw invalid(`This property cannot be expanded (${key}).`, { param: 'expand' });
    if (typeof value !== 'string') return value;
    const found = (state[collection] as { id: string }[]).find((item) => item.id === value);
    return found ? structuredClone(found) : value;
  };

  const expandPath = (node: unknown, parts: string[]) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const child of node) expandPath(child, parts);
      return;
    }
    const record = node as Record<string, unknown>;
    const [head, ...rest] = parts;
    if (rest.length === 0) record[head!] = resolve(head!, record[head!], record);
    else {
      if (typeof record[head!] === 'string') record[head!] = resolve(head!, record[head!], record);
      expandPath(record[head!], rest);
    }
  };

  const expand = (body: unknown, form: FormObject) => {
    const paths = stringList(form, 'expand');
    if (paths.length === 0) return body;
    const copy = structuredClone(body);
    for (const path of paths) {
      if (path.split('.').length > 4) throw invalid(`You cannot expand more than 4 levels of a property: ${path}`);
      expandPath(copy, path.split('.'));
    }
    return copy;
  };

  // ---- the API -----------------------------------------------------------------------------------------------

  const customerFields = (form: FormObject, current?: LocalCustomer) => {
    const field = (name: 'email' | 'name' | 'description' | 'phone') =>
      form[name] === undefined && current ? current[name] : stringField(form, name);
    return {
      email: field('email'),
      name: field('name'),
      description: field('description'),
      phone: field('phone'),
      metadata: metadataOf(form, current?.metadata),
    };
  };

  type Handler = (match: RegExpExecArray, form: FormObject, livemode: boolean) => unknown;
  const routes: [string, RegExp, Handler][] = [
    [
      'POST',
      /^\/v1\/customers$/,
      async (_, form, livemode) => {
        const customer = billing.newCustomer({ email: null }, livemode);
        Object.assign(customer, customerFields(form));
        await store.save();
        return customer;
      },
    ],
    [
      'GET',
      /^\/v1\/customers\/search$/,
      (_, form) => search(state.customers, form, customerSearch, '/v1/customers/search'),
    ],
    [
      'GET',
      /^\/v1\/customers$/,
      (_, form) => {
        const email = stringField(form, 'email');
        // Stripe's list filter on email is case-sensitive (its search is not).
        const found = newestFirst(state.customers).filter((c) => email === null || c.email === email);
        return pageOf(found, form, '/v1/customers', 'customer');
      },
    ],
    ['GET', /^\/v1\/customers\/([^/]+)$/, (m) => billing.findCustomer(m[1]!)],
    [
      'POST',
      /^\/v1\/customers\/([^/]+)$/,
      async (m, form) => {
        const customer = billing.findCustomer(m[1]!);
        Object.assign(customer, customerFields(form, customer));
        await store.save();
        billing.emit('customer.updated', customer);
        return customer;
      },
    ],

    ['POST', /^\/v1\/products$/, (_, form, livemode) => catalogue.createProduct(form, livemode)],
    [
      'GET',
      /^\/v1\/products\/search$/,
      (_, form) =>
        search(
          state.products,
          form,
          { name: (p) => p.name, active: (p) => p.active, description: (p) => p.description, url: (p) => p.url },
          '/v1/products/search',
        ),
    ],
    [
      'GET',
      /^\/v1\/products$/,
      (_, form) => {
        const active = stringField(form, 'active');
        const ids = stringList(form, 'ids');
        const found = newestFirst(state.products).filter(
          (p) => (active === null || String(p.active) === active) && (ids.length === 0 || ids.includes(p.id)),
        );
        return pageOf(found, form, '/v1/products', 'product');
      },
    ],
    ['GET', /^\/v1\/products\/([^/]+)$/, (m) => catalogue.findProduct(m[1]!)],
    ['POST', /^\/v1\/products\/([^/]+)$/, (m, form) => catalogue.updateProduct(m[1]!, form)],

    ['POST', /^\/v1\/prices$/, (_, form, livemode) => catalogue.createPrice(form, livemode)],
    [
      'GET',
      /^\/v1\/prices\/search$/,
      (_, form) =>
        search(
          state.prices,
          form,
          {
            active: (p) => p.active,
            currency: (p) => p.currency,
            lookup_key: (p) => p.lookup_key,
            product: (p) => p.product,
            type: (p) => p.type,
          },
          '/v1/prices/search',
        ),
    ],
    [
      'GET',
      /^\/v1\/prices$/,
      (_, form) => {
        const active = stringField(form, 'active');
        const product = stringField(form, 'product');
        const type = stringField(form, 'type');
        const currency = stringField(form, 'currency');
        const lookupKeys = stringList(form, 'lookup_keys');
        const interval = (form.recurring as FormObject | undefined)?.interval;
        const found = newestFirst(state.prices).filter(
          (p) =>
            (active === null || String(p.active) === active) &&
            (product === null || p.product === product) &&
            (type === null || p.type === type) &&
            (currency === null || p.currency === currency) &&
            (lookupKeys.length === 0 || (p.lookup_key !== null && lookupKeys.includes(p.lookup_key))) &&
            (interval === undefined || p.recurring?.interval === interval),
        );
        return pageOf(found, form, '/v1/prices', 'price');
      },
    ],
    ['GET', /^\/v1\/prices\/([^/]+)$/, (m) => catalogue.findPrice(m[1]!)],
    ['POST', /^\/v1\/prices\/([^/]+)$/, (m, form) => catalogue.updatePrice(m[1]!, form)],

    ['POST', /^\/v1\/checkout\/sessions$/, (_, form, livemode) => billing.createCheckoutSession(form, livemode)],
    [
      'GET',
      /^\/v1\/checkout\/sessions$/,
      (_, form) => {
        const customer = stringField(form, 'customer');
        const subscription = stringField(form, 'subscription');
        const status = stringField(form, 'status');
        const found = newestFirst(state.checkoutSessions).filter(
          (s) =>
            (customer === null || s.customer === customer) &&
            (subscription === null || s.subscription === subscription) &&
            (status === null || s.status === status),
        );
        return pageOf(found, form, '/v1/checkout/sessions', 'checkout.session');
      },
    ],
    ['GET', /^\/v1\/checkout\/sessions\/([^/]+)$/, (m) => billing.findSession(m[1]!)],
    [
      'GET',
      /^\/v1\/checkout\/sessions\/([^/]+)\/line_items$/,
      (m, form) =>
        pageOf(billing.checkoutLineItems(m[1]!), form, `/v1/checkout/sessions/${m[1]}/line_items`, 'line item'),
    ],
    ['POST', /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/, (m) => billing.expireCheckoutSession(m[1]!)],

    [
      'GET',
      /^\/v1\/subscriptions\/search$/,
      (_, form) =>
        search(
          state.subscriptions,
          form,
          { status: (s) => s.status, created: (s) => s.created },
          '/v1/subscriptions/search',
        ),
    ],
    [
      'GET',
      /^\/v1\/subscriptions$/,
      (_, form) => {
        const customer = stringField(form, 'customer');
        // As Stripe: a customer named in the filter must exist.
        if (customer !== null) billing.findCustomer(customer, 'customer');
        const price = stringField(form, 'price');
        const status = stringField(form, 'status');
        // Stripe lists subscriptions that have not been canceled unless asked for `canceled`, `ended` or `all`.
        const statusMatches = (s: LocalSubscription) =>
          status === 'all' ||
          (status === 'ended'
            ? s.status === 'canceled' || s.status === 'incomplete_expired'
            : status === null
              ? s.status !== 'canceled'
              : s.status === status);
        const found = newestFirst(state.subscriptions).filter(
          (s) =>
            statusMatches(s) &&
            (customer === null || s.customer === customer) &&
            (price === null || s.items.data.some((i) => i.price.id === price)),
        );
        return pageOf(found, form, '/v1/subscriptions', 'subscription');
      },
    ],
    ['GET', /^\/v1\/subscriptions\/([^/]+)$/, (m) => billing.findSubscription(m[1]!)],
    ['POST', /^\/v1\/subscriptions\/([^/]+)$/, (m, form) => billing.updateSubscription(m[1]!, form)],
    ['DELETE', /^\/v1\/subscriptions\/([^/]+)$/, (m) => billing.cancelSubscription(m[1]!)],

    ['POST', /^\/v1\/subscription_schedules$/, (_, form, livemode) => billing.createSchedule(form, livemode)],
    ['GET', /^\/v1\/subscription_schedules\/([^/]+)$/, (m) => billing.findSchedule(m[1]!)],
    ['POST', /^\/v1\/subscription_schedules\/([^/]+)$/, (m, form) => billing.updateSchedule(m[1]!, form)],
    ['POST', /^\/v1\/subscription_schedules\/([^/]+)\/release$/, (m) => billing.releaseSchedule(m[1]!)],

    [
      'GET',
      /^\/v1\/invoices\/search$/,
      (_, form) =>
        search(
          state.invoices,
          form,
          {
            customer: (i) => i.customer,
            status: (i) => i.status,
            number: (i) => i.number,
            subscription: (i) => i.parent?.subscription_details.subscription,
            total: (i) => i.total,
            currency: (i) => i.currency,
            created: (i) => i.created,
          },
          '/v1/invoices/search',
        ),
    ],
    [
      'GET',
      /^\/v1\/invoices$/,
      (_, form) => {
        const customer = stringField(form, 'customer');
        if (customer !== null) billing.findCustomer(customer, 'customer');
        const subscription = stringField(form, 'subscription');
        const status = stringField(form, 'status');
        const found = newestFirst(state.invoices).filter(
          (i) =>
            (customer === null || i.customer === customer) &&
            (subscription === null || i.parent?.subscription_details.subscription === subscription) &&
            (status === null || i.status === status),
        );
        return pageOf(found, form, '/v1/invoices', 'invoice');
      },
    ],
    ['GET', /^\/v1\/invoices\/([^/]+)$/, (m) => billing.findInvoice(m[1]!)],
    [
      'GET',
      /^\/v1\/invoices\/([^/]+)\/lines$/,
      (m, form) => pageOf(billing.findInvoice(m[1]!).lines.data, form, `/v1/invoices/${m[1]}/lines`, 'line item'),
    ],

    [
      'GET',
      /^\/v1\/entitlements\/active_entitlements$/,
      (_, form) =>
        pageOf(
          billing.activeEntitlements(requiredString(form, 'customer')),
          form,
          '/v1/entitlements/active_entitlements',
          'active entitlement',
        ),
    ],
    ['GET', /^\/v1\/entitlements\/features\/([^/]+)$/, (m) => billing.findFeature(m[1]!)],

    ['POST', /^\/v1\/billing_portal\/sessions$/, (_, form, livemode) => billing.createPortalSession(form, livemode)],

    [
      'GET',
      /^\/v1\/events$/,
      (_, form) => {
        const type = stringField(form, 'type');
        const types = stringList(form, 'types');
        const matches = (t: string) =>
          (type === null || (type.endsWith('*') ? t.startsWith(type.slice(0, -1)) : t === type)) &&
          (types.length === 0 || types.includes(t));
        return pageOf(
          newestFirst(state.events).filter((e) => matches(e.type)),
          form,
          '/v1/events',
          'event',
        );
      },
    ],
    [
      'GET',
      /^\/v1\/events\/([^/]+)$/,
      (m) => {
        const event = state.events.find((e) => e.id === m[1]);
        if (!event) throw missing('event', m[1]!);
        return event;
      },
    ],
  ];

  const route = async (request: IncomingMessage, url: URL, livemode: boolean): Promise<unknown> => {
    const method = request.method ?? 'GET';
    const body = await readBody(request, 1_000_000);
    if (body === 'too-large') throw invalid('The request body is too large.');
    // GET and DELETE carry their parameters in the query string; POST in the body.
    const form = { ...parseForm(url.searchParams.toString()), ...parseForm(body.toString('utf8')) };
    for (const [routeMethod, pattern, handler] of routes) {
      const match = pattern.exec(url.pathname);
      if (!match || routeMethod !== method) continue;
      for (let i = 1; i < match.length; i++) match[i] = decodeURIComponent(match[i]!);
      const result = await handler(match, form, livemode);
      return expand(result, form);
    }
    throw new StripeHttpError(501, 'api_error', `${IMPLEMENTED} (${method} ${url.pathname} is not implemented)`);
  };

  // ---- hosted pages and test helpers --------------------------------------------------------------------------

  const html = (response: ServerResponse, status: number, body: string) => {
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
  };

  const pageRoute = async (request: IncomingMessage, response: ServerResponse, url: URL): Promise<boolean> => {
    const method = request.method ?? 'GET';
    const checkout = /^\/checkout\/([^/]+)$/.exec(url.pathname);
    if (checkout) {
      const id = decodeURIComponent(checkout[1]!);
      const session = state.checkoutSessions.find((s) => s.id === id) && billing.findSession(id);
      if (!session) {
        html(response, 404, notFoundPage('No such checkout session.'));
        return true;
      }
      const render = (status: number, error?: string, card?: string) =>
        html(
          response,
          status,
          checkoutPage({
            session,
            lineItems: billing.checkoutLineItems(id),
            productName: billing.productName,
            ...(error ? { error } : {}),
            ...(card ? { card } : {}),
          }),
        );
      if (method === 'GET') render(200);
      else if (method === 'POST') {
        if (session.status !== 'open') {
          render(409);
          return true;
        }
        const body = await readBody(request, 100_000);
        const fields = new URLSearchParams(body === 'too-large' ? '' : body.toString('utf8'));
        const card = fields.get('card') ?? '';
        const outcome = await billing.payCheckoutSession(id, card, fields.get('email') ?? undefined);
        if (outcome.ok) response.writeHead(303, { location: billing.successRedirect(session) }).end();
        else render(402, outcome.message, card);
      } else return false;
      return true;
    }
    if (method !== 'GET') return false;
    const invoice = /^\/invoices\/([^/]+)$/.exec(url.pathname);
    if (invoice) {
      const found = state.invoices.find((i) => i.id === decodeURIComponent(invoice[1]!));
      html(response, found ? 200 : 404, found ? invoicePage(found) : notFoundPage('No such invoice.'));
      return true;
    }
    const portal = /^\/portal\/([^/]+)$/.exec(url.pathname);
    if (portal) {
      const session = state.portalSessions.find((s) => s.id === decodeURIComponent(portal[1]!));
      if (!session) {
        html(response, 404, notFoundPage('No such billing portal session.'));
        return true;
      }
      html(
        response,
        200,
        portalPage({
          session,
          customer: billing.findCustomer(session.customer),
          subscriptions: newestFirst(state.subscriptions).filter((s) => s.customer === session.customer),
          invoices: newestFirst(state.invoices).filter((i) => i.customer === session.customer),
          productName: billing.productName,
        }),
      );
      return true;
    }
    return false;
  };

  /** Test-only controls, under `/_test/` and only on this local server: Stripe has no such routes. */
  const testRoute = async (request: IncomingMessage, url: URL): Promise<unknown> => {
    const method = request.method ?? 'GET';
    if (method === 'GET' && url.pathname === '/_test/events') {
      return { object: 'list', data: webhooks.sent(), webhook_url: webhooks.url() ?? null };
    }
    const match = /^\/_test\/subscriptions\/([^/]+)\/(advance|payment_failed|trial_will_end|status)$/.exec(
      url.pathname,
    );
    if (method !== 'POST' || !match) {
      throw new StripeHttpError(
        404,
        'invalid_request_error',
        'Test routes: GET /_test/events; POST /_test/subscriptions/{id}/advance | payment_failed | trial_will_end | status (status=…).',
      );
    }
    const id = decodeURIComponent(match[1]!);
    const body = await readBody(request, 100_000);
    const form = parseForm(body === 'too-large' ? '' : body.toString('utf8'));
    switch (match[2]) {
      case 'advance':
        return billing.advanceToPeriodEnd(id);
      case 'payment_failed':
        return billing.failPayment(id);
      case 'trial_will_end':
        return billing.trialWillEnd(id);
      default:
        return billing.setStatus(id, requiredString(form, 'status'));
    }
  };

  const send = (response: ServerResponse, status: number, body: unknown) => {
    response
      .writeHead(status, {
        'content-type': 'application/json',
        'request-id': randomId('req_'),
        // Stripe's own hint, which the SDK follows: only a failure of the server itself is worth a retry.
        'stripe-should-retry': String(status === 500),
      })
      .end(JSON.stringify(body));
  };

  const answer = (promise: Promise<unknown>) =>
    promise.then(
      (body) => ({ status: 200, body }),
      (error: unknown) => {
        if (error instanceof StripeHttpError) {
          return {
            status: error.status,
            body: { error: { type: error.type, message: error.message, ...error.extra } },
          };
        }
        console.error('Local Stripe server:', error);
        return { status: 500, body: { error: { type: 'api_error', message: 'The local Stripe server failed.' } } };
      },
    );

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === '/health') {
      send(response, 200, { ok: true });
      return;
    }
    if (url.pathname.startsWith('/_test/')) {
      answer(testRoute(request, url)).then((reply) => send(response, reply.status, reply.body));
      return;
    }
    if (!url.pathname.startsWith('/v1/')) {
      pageRoute(request, response, url)
        .then((handled) => {
          if (!handled)
            send(response, 404, {
              error: { type: 'invalid_request_error', message: `${IMPLEMENTED} (${request.method} ${url.pathname})` },
            });
        })
        .catch((error: unknown) => {
          console.error('Local Stripe server page:', error);
          if (!response.headersSent) html(response, 500, notFoundPage('The local Stripe server failed.'));
        });
      return;
    }
    const key = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!key) {
      send(response, 401, {
        error: {
          type: 'invalid_request_error',
          message: 'You did not provide an API key. Provide it as a bearer token (Authorization: Bearer sk_…).',
        },
      });
      return;
    }
    if (!/^sk_(test|live)_\w+$/.test(key)) {
      send(response, 401, {
        error: {
          type: 'invalid_request_error',
          code: 'api_key_invalid',
          message: `Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 8))}`,
        },
      });
      return;
    }
    const idempotencyKey = request.method === 'POST' ? request.headers['idempotency-key'] : undefined;
    const replay = typeof idempotencyKey === 'string' ? replies.get(`${key}:${idempotencyKey}`) : undefined;
    if (replay) {
      send(response, replay.status, replay.body);
      return;
    }
    answer(route(request, url, key.startsWith('sk_live_'))).then((reply) => {
      if (typeof idempotencyKey === 'string') replies.set(`${key}:${idempotencyKey}`, reply);
      send(response, reply.status, reply.body);
    });
  });
  const actual = await listen(server, port);
  baseUrl = `http://localhost:${actual}`;
  rebase(state, baseUrl);
  return {
    name: 'stripe',
    url: baseUrl,
    fresh: store.fresh,
    setWebhookUrl: webhooks.setUrl,
    sentEvents: webhooks.sent,
    webhooksIdle: webhooks.idle,
    healthy: async () => (await fetch(`${baseUrl}/health`)).ok,
    stop: async () => {
      await webhooks.stop();
      await closeServer(server);
      await store.save();
    },
  };
};

/** The hosted pages' URLs saved by an earlier start point at this start's port (a test stack's port changes). */
const rebase = (state: StripeState, baseUrl: string) => {
  const move = (url: string | null) => (url ? url.replace(/^http:\/\/localhost:\d+/, baseUrl) : url);
  for (const session of state.checkoutSessions) session.url = move(session.url);
  for (const invoice of state.invoices) invoice.hosted_invoice_url = move(invoice.hosted_invoice_url);
  for (const session of state.portalSessions) session.url = move(session.url)!;
};
