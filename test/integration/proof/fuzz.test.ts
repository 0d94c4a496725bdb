import fc from 'fast-check';
import * as z from 'zod';
import { AREAS, type AreaName } from '../../../shared/contracts/areas';
import { type AnyRoute, API_KEY_HEADER, fillPath, pathParamNames } from '../../../shared/contracts/define-route';
import { freshUser } from '../../support/people';
import { freshDevice } from '../../support/sensor-data';
import { apiAs, areaUrl, tokenOf } from '../../support/stack';

/**
 * Issue 19: property-based bad input over every route of every contract, as a plain user, as staff, as a guest and
 * with a device credential or an API key where a route takes one: wrong types and missing fields derived from each
 * route's own schemas, extra fields, huge strings and arrays, unsafe numbers, deep nesting, unicode and control
 * characters, injection strings, traversal and encoded separators in ids, malformed percent-encoding, oversized
 * bodies and wrong content types. At least 10,000 requests; not one may answer 5xx or drop the connection, and every
 * 4xx names its rule. Every generated body of the first test breaks its schema somewhere, so none can change anything.
 * The second test (issue 35, the outside audit's 500s) sends requests that pass the schemas, every text in them a name
 * every plain object inherits (`__proto__`, `constructor`, `toString`, …), an id nobody holds (Stripe's customers,
 * invoices, subscriptions) or a cursor that is not ours, from a fresh person and a fresh administrator: they reach the
 * use cases and the stores, and still not one may answer 5xx. The audit's own requests are among them.
 *
 * The seed is printed; `FUZZ_SEED=… npm run test:stack -- test/integration/proof/fuzz` replays a run.
 */

const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_000);
const CONCURRENCY = 8;
/** Schema-valid requests per route (the second test), each text in them a hostile id. */
const VALID_PER_ROUTE = Number(process.env.FUZZ_VALID_PER_ROUTE ?? 12);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  additionalProperties?: JsonSchema | boolean;
  propertyNames?: JsonSchema;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  const?: Json;
  enum?: Json[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  maxItems?: number;
}

const HOSTILE_TEXT = [
  '',
  ' ',
  '../../etc/passwd',
  '..%2F..%2Fsecret',
  '%2e%2e%2f',
  'a/b',
  'a\\b',
  '__proto__',
  'constructor',
  "' OR '1'='1' --",
  '"; DROP TABLE users; --',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log-injection probe, sent as it is written
  '${jndi:ldap://x/a}',
  '{{7*7}}',
  '\u0000',
  '\u0007\u001b[31m',
  '\u202e\u0645\u0631\u062d\u0628\u0627',
  '😀'.repeat(50),
  'Ω≈ç√∫˜µ≤≥÷',
  '\ud800',
  'x'.repeat(5_000),
  'null',
  'undefined',
  'NaN',
  '-1',
  '1e309',
];
const HOSTILE_NUMBERS = [-1, 0, 1.5, -0, 2 ** 53, -(2 ** 53), 1e308, -1e308, 1e-320, 2 ** 64, 9e15];

/** Any JSON value, hostile text and numbers included, nested a little. */
const anyJson: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom<Json>(null, true, false),
    fc.constantFrom(...HOSTILE_NUMBERS),
    fc.double(),
    fc.constantFrom(...HOSTILE_TEXT),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 8 }), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** A value that is not of the schema's type: a string where a number goes, an object where text goes, … */
const wrongFor = (schema: JsonSchema | undefined): fc.Arbitrary<Json> => {
  const types = [schema?.type ?? []].flat();
  const options: fc.Arbitrary<Json>[] = [];
  if (!types.includes('string')) options.push(fc.constantFrom(...HOSTILE_TEXT));
  if (!types.includes('number') && !types.includes('integer')) options.push(fc.constantFrom(...HOSTILE_NUMBERS));
  if (!types.includes('object'))
    options.push(fc.constant({ $where: 'sleep(1000)', __proto__: { admin: true } } as Json));
  if (!types.includes('array')) options.push(fc.constant(Array.from({ length: 2_000 }, () => 'x') as Json));
  if (!types.includes('boolean')) options.push(fc.constant(true));
  // A field of any type cannot be given a wrong one: it goes missing instead (undefined is dropped from the JSON).
  return options.length ? fc.oneof(...options) : fc.constant(undefined as unknown as Json);
};

const deep = (levels: number): Json => (levels === 0 ? 1 : [deep(levels - 1)]);

/** A body that breaks the route's schema: a required field missing or of the wrong type, or no object at all. */
const badBody = (schema: JsonSchema | undefined): fc.Arbitrary<{ body: string; contentType?: string }> => {
  const required = schema?.required ?? [];
  const properties = schema?.properties ?? {};
  const asJson = (value: Json) => ({ body: JSON.stringify(value) });
  const shapes: fc.Arbitrary<{ body: string; contentType?: string }>[] = [
    // Not an object at all (every body of ours is one).
    fc.oneof(fc.constantFrom<Json>(null, 7, 'text', [1, 2]), fc.array(anyJson, { maxLength: 3 })).map(asJson),
    fc.constant({ body: JSON.stringify({ a: deep(200) }) }),
    fc.constant({ body: '{"a": ' }),
    fc.constant({ body: JSON.stringify({ pad: 'x'.repeat(300 * 1024) }) }),
    fc.constant({ body: '{}', contentType: 'text/plain' }),
    fc.constant({ body: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' }),
  ];
  if (required.length) {
    // Every known field given a hostile value, and one required field of the wrong type (or gone): invalid whatever
    // else is drawn.
    const fields = fc.record(Object.fromEntries(Object.keys(properties).map((key) => [key, anyJson])), {
      requiredKeys: [],
    });
    shapes.push(
      fc
        .tuple(fields, fc.constantFrom(...required), fc.boolean(), fc.dictionary(fc.string({ maxLength: 6 }), anyJson))
        .chain(([values, broken, drop, extra]) =>
          wrongFor(properties[broken]).map((wrong) => {
            const body: Record<string, Json | undefined> = { ...extra, ...values };
            if (drop) delete body[broken];
            else body[broken] = wrong;
            return asJson(body as Json);
          }),
        ),
    );
  }
  return fc.oneof(...shapes);
};

const schemaOf = (schema: z.ZodType | undefined): JsonSchema | undefined => {
  if (!schema) return undefined;
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch {
    return undefined;
  }
};

/**
 * The values the audit found 500s with, given where a valid request has text: the names every plain object inherits,
 * ids nobody holds (Stripe's included: customers, invoices, subscriptions, products, prices), and cursors that are not
 * ours (garbage, a base64url JSON of the wrong shape, another list's id).
 */
const HOSTILE_IDS = [
  '__proto__',
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'cus_nobody',
  'in_nothing',
  'sub_nothing',
  'prod_nothing',
  'price_nothing',
  'not-a-cursor',
  Buffer.from(JSON.stringify({ x: 1 })).toString('base64url'),
  Buffer.from('[1,2]').toString('base64url'),
];

const resolveRef = (schema: JsonSchema, root: JsonSchema): JsonSchema | undefined => {
  if (!schema.$ref) return schema;
  if (schema.$ref === '#') return root;
  const name = /^#\/\$defs\/(.+)$/.exec(schema.$ref)?.[1];
  return name ? root.$defs?.[name] : undefined;
};

/** Text the schema takes: a hostile id where it fits, else text made to fit its pattern and length. */
const validText = (schema: JsonSchema): fc.Arbitrary<Json> => {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? 200;
  if (schema.format === 'email') return fc.constantFrom('nobody@example.com', 'constructor@example.com');
  if (schema.format === 'uri' || schema.format === 'url') return fc.constant('https://example.com/__proto__');
  if (schema.format === 'date-time') return fc.constant('2026-06-15T12:00:00.000Z');
  const pattern = schema.pattern ? new RegExp(schema.pattern, 'u') : undefined;
  const fits = HOSTILE_IDS.filter((id) => id.length >= min && id.length <= max && (!pattern || pattern.test(id)));
  const made = pattern
    ? fc.stringMatching(pattern).filter((text) => text.length >= min && text.length <= max)
    : fc.constant('x'.repeat(Math.max(1, min)));
  return fits.length
    ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...fits) }, { weight: 1, arbitrary: made })
    : made;
};

/** A value the schema takes, its text fields drawn from HOSTILE_IDS: it passes validation and reaches the route. */
const validFor = (input: JsonSchema | undefined, root: JsonSchema, depth = 0): fc.Arbitrary<Json> => {
  const schema = input && resolveRef(input, root);
  if (!schema || depth > 6) return fc.constantFrom<Json>(...HOSTILE_IDS);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices?.length) return fc.oneof(...choices.map((choice) => validFor(choice, root, depth + 1)));
  const type = [schema.type ?? []].flat().find((t) => t !== 'null') ?? (schema.properties ? 'object' : undefined);
  switch (type) {
    case 'string':
      return validText(schema);
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0);
      const max = Math.min(schema.maximum ?? min + 1_000, min + 1_000);
      return fc.integer({ min: Math.ceil(min), max: Math.max(Math.ceil(min), Math.floor(max)) });
    }
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const minLength = schema.minItems ?? 0;
      return fc.array(validFor(schema.items, root, depth + 1), {
        minLength,
        maxLength: Math.min(schema.maxItems ?? minLength + 2, minLength + 2),
      });
    }
    case 'object': {
      const properties = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const known = fc.record(
        Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, validFor(value, root, depth + 1)])),
        { requiredKeys: [...required].filter((key) => key in properties) },
      );
      const extra = schema.additionalProperties;
      if (!extra || extra === true || Object.keys(properties).length > 0) return known as fc.Arbitrary<Json>;
      // A record: its keys are names from outside too.
      const keys = schema.propertyNames ? validText(schema.propertyNames) : fc.constantFrom(...HOSTILE_IDS);
      return fc.dictionary(keys as fc.Arbitrary<string>, validFor(extra, root, depth + 1), {
        minKeys: 1,
        maxKeys: 2,
      }) as fc.Arbitrary<Json>;
    }
    case 'null':
      return fc.constant(null);
    default:
      return fc.constantFrom<Json>(...HOSTILE_IDS);
  }
};

interface Case {
  route: AnyRoute;
  area: AreaName;
  name: string;
  path: string;
  query: string;
  body?: string;
  contentType?: string;
  as: 'guest' | 'user' | 'staff' | 'credential';
  /** Set for a request that passes the route's schemas: it reaches the use case with the values it carries. */
  valid?: boolean;
}

const routes = Object.entries(AREAS).flatMap(([area, { routes }]) =>
  Object.entries(routes as Record<string, AnyRoute>).map(([name, route]) => ({ area: area as AreaName, name, route })),
);

/** Requests for one route: hostile path values, query values and bodies, from each kind of caller. */
const casesFor = ({ area, name, route }: (typeof routes)[number]): fc.Arbitrary<Case> => {
  const names = pathParamNames(route.path);
  const pathValue = fc.oneof(
    fc.constantFrom(...HOSTILE_TEXT.filter((t) => t !== '')),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }),
  );
  const rawPath = fc.constantFrom('%ZZ', '%', '%E2%82', '%C0%AF', '..%2F..', '%00');
  const path = fc
    .tuple(fc.array(pathValue, { minLength: names.length, maxLength: names.length }), fc.option(rawPath, { freq: 4 }))
    .map(([values, raw]) => {
      // Every byte percent-encoded, as UTF-8 (a lone surrogate becomes U+FFFD, as a browser sends it).
      const encoded = values.map((v) =>
        [...Buffer.from(v || 'x', 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''),
      );
      const template = fillPath(route.path, Object.fromEntries(names.map((n, i) => [n, `P${i}P`])));
      const filled = encoded.reduce((path, value, i) => path.replace(`P${i}P`, value), template);
      return raw && names.length
        ? template.replace('P0P', raw).replace(/P(\d+)P/g, (_m, i) => encoded[Number(i)]!)
        : filled;
    });
  const querySchema = schemaOf(route.query);
  const queryKeys = Object.keys(querySchema?.properties ?? {});
  const query = fc
    .dictionary(
      fc.oneof(fc.constantFrom(...(queryKeys.length ? queryKeys : ['q'])), fc.string({ maxLength: 6 })),
      fc.oneof(fc.constantFrom(...HOSTILE_TEXT), fc.constantFrom(...HOSTILE_NUMBERS.map(String))),
      { maxKeys: 3 },
    )
    .map((values) => new URLSearchParams(values).toString());
  const takesCredential = route.access.kind === 'device' || route.access.kind === 'apiKey';
  const as = fc.constantFrom<Case['as']>(
    ...(takesCredential ? (['credential', 'guest'] as const) : (['user', 'staff', 'guest'] as const)),
  );
  const body = route.body ? fc.option(badBody(schemaOf(route.body)), { freq: 10 }) : fc.constant(null);
  return fc.record({ path, query, body, as }).map(({ path: p, query: q, body: b, as: who }) => ({
    route,
    area,
    name,
    path: p,
    query: q,
    as: who,
    ...(b ? { body: b.body, contentType: b.contentType ?? 'application/json' } : {}),
  }));
};

/**
 * Requests that pass the route's schemas, every text in them a name an object inherits, an id nobody holds or a
 * cursor that is not ours: they reach the use cases and stores, where the audit's 500s were. Sent by a fresh person
 * and a fresh administrator (what they make is theirs alone), or with a credential where the route takes one.
 */
const validCasesFor = ({ area, name, route }: (typeof routes)[number]): fc.Arbitrary<Case> => {
  const paramsSchema = schemaOf(route.params);
  const queryOf = schemaOf(route.query);
  const bodySchema = schemaOf(route.body);
  const names = pathParamNames(route.path);
  const params = paramsSchema
    ? (validFor(paramsSchema, paramsSchema) as fc.Arbitrary<Record<string, Json>>)
    : fc.constant({} as Record<string, Json>);
  const path = fc
    .tuple(params, fc.array(fc.constantFrom(...HOSTILE_IDS), { minLength: names.length, maxLength: names.length }))
    .map(([values, fallback]) =>
      fillPath(
        route.path,
        Object.fromEntries(names.map((n, i) => [n, encodeURIComponent(String(values[n] ?? fallback[i]))])),
      ),
    );
  const query = queryOf
    ? (validFor(queryOf, queryOf) as fc.Arbitrary<Record<string, Json>>).map((values) =>
        new URLSearchParams(
          Object.entries(values ?? {}).flatMap(([key, value]) =>
            Array.isArray(value) ? value.map((v) => [key, String(v)]) : [[key, String(value)]],
          ),
        ).toString(),
      )
    : fc.constant('');
  const body = bodySchema ? validFor(bodySchema, bodySchema).map((value) => JSON.stringify(value)) : fc.constant(null);
  const takesCredential = route.access.kind === 'device' || route.access.kind === 'apiKey';
  const as = fc.constantFrom<Case['as']>(
    ...(takesCredential ? (['credential'] as const) : (['user', 'staff'] as const)),
  );
  return fc.record({ path, query, body, as }).map(({ path: p, query: q, body: b, as: who }) => ({
    route,
    area,
    name,
    path: p,
    query: q,
    as: who,
    valid: true,
    ...(b !== null ? { body: b, contentType: 'application/json' } : {}),
  }));
};

describe('fuzzing every route with bad input', () => {
  const credentials: Record<'user' | 'staff', string> & { device?: string; apiKey?: string } = { user: '', staff: '' };
  /** The fresh person and administrator of the schema-valid requests. */
  const fresh: Record<'user' | 'staff', string> = { user: '', staff: '' };
  const failures: string[] = [];
  const statuses = new Map<number, number>();

  beforeAll(async () => {
    console.log(`fuzz seed ${SEED} (replay with FUZZ_SEED=${SEED}), ${REQUESTS} requests`);
    credentials.user = await tokenOf('user@example.com');
    credentials.staff = await tokenOf('admin@example.com');
    credentials.device = (await freshDevice()).credential;
    const keyOwner = await freshUser({ prefix: 'fuzz-key' });
    credentials.apiKey = (await apiAs('sensor-data', keyOwner.token).createApiKey({ body: { name: 'fuzz' } })).key;
    fresh.user = (await freshUser({ prefix: 'fuzz-valid' })).token;
    fresh.staff = (await freshUser({ prefix: 'fuzz-valid-admin', groups: ['Administrators'] })).token;
  });

  beforeEach(() => {
    failures.length = 0;
    statuses.clear();
  });

  // The schema-valid requests may make system parameters named like inherited names: none is left for later tests.
  afterAll(async () => {
    const system = apiAs('system', credentials.staff);
    await Promise.all(HOSTILE_IDS.map((id) => system.deleteParameter({ params: { id } }).catch(() => undefined)));
  });

  const send = async (c: Case) => {
    const headers: Record<string, string> = {};
    if (c.as === 'user' || c.as === 'staff') headers.authorization = `Bearer ${(c.valid ? fresh : credentials)[c.as]}`;
    if (c.as === 'credential') {
      if (c.route.access.kind === 'device') headers.authorization = `Bearer ${credentials.device}`;
      else headers[API_KEY_HEADER] = credentials.apiKey!;
    }
    if (c.contentType) headers['content-type'] = c.contentType;
    const label = `${c.as} ${c.route.method} /${c.area}${c.path.slice(0, 150)}${c.query ? `?${c.query.slice(0, 80)}` : ''} ${c.body?.slice(0, 120) ?? ''}`;
    try {
      const response = await fetch(`${areaUrl(c.area)}${c.path}${c.query ? `?${c.query}` : ''}`, {
        method: c.route.method,
        headers,
        body: c.route.method === 'GET' ? undefined : c.body,
      });
      const text = await response.text();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      // The SensorThings routes (errorShape 'odata') answer in OData's error shape, and 501 for a standard option or
      // function the service does not implement, as OGC 18-088 asks (docs/decisions/071-odata-parser.md); a 501 there
      // still names it.
      const sensorThings = c.route.errorShape === 'odata';
      if (response.status >= 500 && !(sensorThings && response.status === 501)) {
        failures.push(`${response.status} ${label}: ${text.slice(0, 200)}`);
      } else if (response.status >= 400) {
        const message = (() => {
          try {
            const body = JSON.parse(text) as Record<string, unknown> & {
              error?: { code?: unknown; message?: unknown };
            };
            // Every refusal there, whoever makes it (the gateway, the chain, the service), is OData's one `error`
            // member with the status as its code (docs/decisions/093-odata-errors-on-sensorthings-paths.md).
            if (!sensorThings) return body.message;
            const odata = Object.keys(body).length === 1 && body.error?.code === String(response.status);
            return odata ? body.error?.message : undefined;
          } catch {
            return undefined;
          }
        })();
        if (typeof message !== 'string' || message.trim().length < 5) {
          failures.push(
            `${response.status} without a message${sensorThings ? " in OData's shape" : ''} ${label}: ${text.slice(0, 200)}`,
          );
        }
      }
    } catch (error) {
      failures.push(`connection failed ${label}: ${String((error as Error).cause ?? error)}`);
    }
  };

  const sendAll = async (cases: readonly Case[]) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < cases.length) await send(cases[next++]!);
      }),
    );
    console.log(
      `fuzz statuses: ${[...statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${status}×${n}`)
        .join(' ')}`,
    );
  };

  it(`answers ${REQUESTS} hostile requests over every route with 4xx naming the rule: no 5xx, no dropped connection`, async () => {
    const perRoute = Math.ceil(REQUESTS / routes.length);
    const cases = routes.flatMap((route, i) => fc.sample(casesFor(route), { seed: SEED + i, numRuns: perRoute }));
    expect(cases.length).toBeGreaterThanOrEqual(REQUESTS);
    await sendAll(cases);
    expect(failures.slice(0, 20)).toEqual([]);
  }, 900_000);

  it(`answers ${VALID_PER_ROUTE} schema-valid requests per route with inherited names, unknown ids and foreign cursors: no 5xx`, async () => {
    const cases = routes.flatMap((route, i) =>
      fc.sample(validCasesFor(route), { seed: SEED + 7_919 + i, numRuns: VALID_PER_ROUTE }),
    );
    // What the audit sent, whatever the draw: every route with each inherited name in each text it takes.
    const audit: Case[] = [
      { method: 'PUT', path: '/update-parameter/__proto__', body: { value: 'fuzz' } },
      { method: 'PUT', path: '/update-parameter/constructor', body: { value: 'fuzz' } },
      { method: 'POST', path: '/parameter', body: { id: '__proto__', value: 'fuzz' } },
      { method: 'POST', path: '/parameter', body: { id: 'toString', value: { a: 1 } } },
      { method: 'DELETE', path: '/delete-parameter/__proto__' },
      { method: 'DELETE', path: '/delete-parameter/toString' },
    ].map(({ method, path, body }) => {
      const found = routes.find(
        (r) =>
          r.area === 'system' &&
          r.route.method === method &&
          path.startsWith(r.route.path.split('{')[0]!.replace(/\/$/, '')),
      )!;
      return {
        ...found,
        path,
        query: '',
        as: 'staff' as const,
        valid: true,
        ...(body ? { body: JSON.stringify(body), contentType: 'application/json' } : {}),
      };
    });
    // Every area's OpenAPI document, asked for one credential's routes by names no credential has.
    const documents: Case[] = Object.keys(AREAS).flatMap((area) =>
      HOSTILE_IDS.slice(0, 6).map((access) => ({
        route: { method: 'GET', path: '/openapi.json', access: { kind: 'guest' } } as unknown as AnyRoute,
        area: area as AreaName,
        name: 'openapi',
        path: '/openapi.json',
        query: new URLSearchParams({ access }).toString(),
        as: 'guest' as const,
      })),
    );
    await sendAll([...cases, ...audit, ...documents]);
    expect(failures.slice(0, 20)).toEqual([]);
  }, 900_000);
});
