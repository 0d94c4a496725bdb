import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { closeServer, type Emulator, listen, readBody } from './listen';

/**
 * The key the local stack gives the handlers (STRIPE_SECRET_KEY). The local server accepts any key of Stripe's
 * shape, as Stripe's test mode would accept any of the account's keys; this one only names itself.
 */
export const LOCAL_STRIPE_SECRET_KEY = 'sk_test_local_device_data';

/** The customer fields this server keeps: a subset of Stripe's Customer object (API 2025+), in its wire shape. */
export interface LocalCustomer {
  id: string;
  object: 'customer';
  created: number;
  email: string | null;
  name: string | null;
  description: string | null;
  phone: string | null;
  metadata: Record<string, string>;
  livemode: boolean;
  address: null;
  balance: number;
  currency: null;
  default_source: null;
  delinquent: boolean;
  invoice_prefix: string;
  invoice_settings: {
    custom_fields: null;
    default_payment_method: null;
    footer: null;
    rendering_options: null;
  };
  next_invoice_sequence: number;
  preferred_locales: string[];
  shipping: null;
  tax_exempt: 'none';
  test_clock: null;
}

export interface StripeEmulator extends Emulator {
  /** True when this start found no saved state (the first start of a data dir): the moment to seed demo data. */
  fresh: boolean;
}

const NOT_IMPLEMENTED =
  'The local Stripe server implements only customers: create, retrieve, list (email, limit, starting_after) ' +
  "and search (email:'…'). Billing beyond that is a later issue (ROADMAP.md §2).";

class StripeHttpError extends Error {
  constructor(
    readonly status: number,
    readonly type: 'invalid_request_error' | 'api_error',
    message: string,
    readonly extra: { code?: string; param?: string } = {},
  ) {
    super(message);
  }
}

const invalid = (message: string, extra: { code?: string; param?: string } = {}) =>
  new StripeHttpError(400, 'invalid_request_error', message, extra);

const randomId = (prefix: string, length = 14) => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return prefix + [...randomBytes(length)].map((byte) => alphabet[byte % alphabet.length]).join('');
};

type FormValue = string | FormObject | FormValue[];
interface FormObject {
  [key: string]: FormValue;
}

/**
 * Stripe's request encoding: `application/x-www-form-urlencoded` with bracketed keys for nesting
 * (`metadata[plan]=pro`, `expand[0]=x`). Index-only children become arrays.
 */
export const parseForm = (body: string): FormObject => {
  const root: FormObject = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const [head, ...rest] = key.split('[');
    const parts = [head!, ...rest.map((part) => part.replace(/]$/, ''))];
    let node = root;
    parts.forEach((part, index) => {
      if (index === parts.length - 1) node[part] = value;
      else {
        const next = node[part];
        node[part] = typeof next === 'object' && !Array.isArray(next) ? next : {};
        node = node[part] as FormObject;
      }
    });
  }
  const arrays = (value: FormValue): FormValue => {
    if (typeof value === 'string' || Array.isArray(value)) return value;
    const keys = Object.keys(value);
    const indexed = keys.length > 0 && keys.every((k) => k === '' || /^\d+$/.test(k));
    if (indexed) return keys.map((k) => arrays(value[k]!));
    return Object.fromEntries(keys.map((k) => [k, arrays(value[k]!)]));
  };
  return arrays(root) as FormObject;
};

const stringField = (form: FormObject, name: string): string | null => {
  const value = form[name];
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string') throw invalid(`Invalid string: ${name}`, { param: name });
  return value;
};

const metadataOf = (form: FormObject): Record<string, string> => {
  const value = form.metadata;
  if (value === undefined || value === '') return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalid('Invalid object', { param: 'metadata' });
  }
  const entries = Object.entries(value);
  if (entries.some(([, v]) => typeof v !== 'string')) throw invalid('Invalid metadata value', { param: 'metadata' });
  // Stripe: setting a key to "" removes it.
  return Object.fromEntries(entries.filter(([, v]) => v !== '')) as Record<string, string>;
};

const limitOf = (query: URLSearchParams): number => {
  const raw = query.get('limit');
  if (raw === null) return 10;
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw invalid('Invalid integer: limit must be between 1 and 100', { param: 'limit' });
  }
  return limit;
};

/**
 * The one search this server understands: `email:'x'` (or `"x"`), quotes inside escaped with a backslash, as in
 * Stripe's search query language. Stripe's `:` is an exact match that ignores case.
 */
export const parseEmailQuery = (query: string): string => {
  const match = /^\s*email\s*:\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")\s*$/.exec(query);
  if (!match) {
    throw invalid(`The local Stripe server searches customers by email:'…' only; got: ${query}`, {
      param: 'query',
    });
  }
  return (match[1] ?? match[2]!).replace(/\\(.)/g, '$1');
};

/** Customers in memory, written whole to `customers.json` after each change (so a restart keeps them). */
const createCustomerStore = async (dataDir: string) => {
  await mkdir(dataDir, { recursive: true });
  const file = path.join(dataDir, 'customers.json');
  const fresh = !existsSync(file);
  const customers: LocalCustomer[] = fresh ? [] : JSON.parse(await readFile(file, 'utf8')).customers;
  let saving = Promise.resolve();
  const save = () => {
    const snapshot = `${JSON.stringify({ customers }, null, 2)}\n`;
    // One write at a time, each whole then renamed: a crash never leaves half a file.
    saving = saving.then(async () => {
      await writeFile(`${file}.tmp`, snapshot);
      await rename(`${file}.tmp`, file);
    });
    return saving;
  };
  if (fresh) await save();
  return { customers, save, fresh };
};

/**
 * The local Stripe-compatible server (ARCHITECTURE §1), driven through the real `stripe` SDK. Wire format as
 * Stripe's: bearer key auth, form-encoded requests, JSON objects with `object`, lists and search results in their
 * envelopes, errors as `{error: {type, message, code?, param?}}`. Only customers exist so far; every other API
 * path answers 501 with a message that says so, so nothing mistakes it for working billing.
 */
export const startStripe = async ({ port, dataDir }: { port: number; dataDir: string }): Promise<StripeEmulator> => {
  const store = await createCustomerStore(dataDir);
  /** POST responses by Idempotency-Key, so the SDK's retry of a create does not create twice (as Stripe). */
  const replies = new Map<string, { status: number; body: unknown }>();

  const listOf = (data: LocalCustomer[], url: string, hasMore: boolean) => ({
    object: 'list',
    data,
    has_more: hasMore,
    url,
  });
  /** Newest first, as Stripe lists. */
  const newestFirst = () => [...store.customers].reverse();

  const findCustomer = (id: string) => {
    const customer = store.customers.find((c) => c.id === id);
    if (!customer) {
      throw new StripeHttpError(404, 'invalid_request_error', `No such customer: '${id}'`, {
        code: 'resource_missing',
        param: 'id',
      });
    }
    return customer;
  };

  const createCustomer = async (form: FormObject, livemode: boolean): Promise<LocalCustomer> => {
    const customer: LocalCustomer = {
      id: randomId('cus_'),
      object: 'customer',
      created: Math.floor(Date.now() / 1000),
      email: stringField(form, 'email'),
      name: stringField(form, 'name'),
      description: stringField(form, 'description'),
      phone: stringField(form, 'phone'),
      metadata: metadataOf(form),
      livemode,
      address: null,
      balance: 0,
      currency: null,
      default_source: null,
      delinquent: false,
      invoice_prefix: randomId('', 8).toUpperCase(),
      invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
      next_invoice_sequence: 1,
      preferred_locales: [],
      shipping: null,
      tax_exempt: 'none',
      test_clock: null,
    };
    store.customers.push(customer);
    await store.save();
    return customer;
  };

  const route = async (request: IncomingMessage, url: URL, livemode: boolean): Promise<unknown> => {
    const method = request.method ?? 'GET';
    const customerPath = /^\/v1\/customers\/([^/]+)$/.exec(url.pathname);
    if (method === 'POST' && url.pathname === '/v1/customers') {
      const body = await readBody(request, 1_000_000);
      if (body === 'too-large') throw invalid('The request body is too large.');
      return createCustomer(parseForm(body.toString('utf8')), livemode);
    }
    if (method === 'GET' && url.pathname === '/v1/customers/search') {
      const query = url.searchParams.get('query');
      if (!query) throw invalid('Missing required param: query.', { param: 'query' });
      const email = parseEmailQuery(query).toLowerCase();
      const found = newestFirst().filter((c) => c.email?.toLowerCase() === email);
      const limit = limitOf(url.searchParams);
      return {
        object: 'search_result',
        data: found.slice(0, limit),
        has_more: found.length > limit,
        // Paging a search by `page` is not implemented: a local e-mail has a handful of customers at most.
        next_page: null,
        url: '/v1/customers/search',
      };
    }
    if (method === 'GET' && url.pathname === '/v1/customers') {
      const email = url.searchParams.get('email');
      const after = url.searchParams.get('starting_after');
      const limit = limitOf(url.searchParams);
      // Stripe's list filter on email is case-sensitive (its search is not).
      let found = newestFirst().filter((c) => email === null || c.email === email);
      if (after) {
        findCustomer(after);
        found = found.slice(found.findIndex((c) => c.id === after) + 1);
      }
      return listOf(found.slice(0, limit), '/v1/customers', found.length > limit);
    }
    if (method === 'GET' && customerPath) return findCustomer(decodeURIComponent(customerPath[1]!));
    throw new StripeHttpError(501, 'api_error', `${NOT_IMPLEMENTED} (${method} ${url.pathname})`);
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

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === '/health') {
      send(response, 200, { ok: true });
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
    route(request, url, key.startsWith('sk_live_'))
      .then(
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
      )
      .then((reply) => {
        if (typeof idempotencyKey === 'string') replies.set(`${key}:${idempotencyKey}`, reply);
        send(response, reply.status, reply.body);
      });
  });
  const actual = await listen(server, port);
  const url = `http://localhost:${actual}`;
  return {
    name: 'stripe',
    url,
    fresh: store.fresh,
    healthy: async () => (await fetch(`${url}/health`)).ok,
    stop: async () => {
      await closeServer(server);
      await store.save();
    },
  };
};
