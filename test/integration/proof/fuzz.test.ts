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
 * 4xx names its rule. Every generated body breaks its schema somewhere, so no request can change anything.
 *
 * The seed is printed; `FUZZ_SEED=… npm run test:stack -- test/integration/proof/fuzz` replays a run.
 */

const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_000);
const CONCURRENCY = 8;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
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

interface Case {
  route: AnyRoute;
  area: AreaName;
  name: string;
  path: string;
  query: string;
  body?: string;
  contentType?: string;
  as: 'guest' | 'user' | 'staff' | 'credential';
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

describe('fuzzing every route with bad input', () => {
  const credentials: Record<'user' | 'staff', string> & { device?: string; apiKey?: string } = { user: '', staff: '' };

  beforeAll(async () => {
    console.log(`fuzz seed ${SEED} (replay with FUZZ_SEED=${SEED}), ${REQUESTS} requests`);
    credentials.user = await tokenOf('user@example.com');
    credentials.staff = await tokenOf('admin@example.com');
    credentials.device = (await freshDevice()).credential;
    const keyOwner = await freshUser({ prefix: 'fuzz-key' });
    credentials.apiKey = (await apiAs('sensor-data', keyOwner.token).createApiKey({ body: { name: 'fuzz' } })).key;
  });

  it(`answers ${REQUESTS} hostile requests over every route with 4xx naming the rule: no 5xx, no dropped connection`, async () => {
    const perRoute = Math.ceil(REQUESTS / routes.length);
    const cases = routes.flatMap((route, i) => fc.sample(casesFor(route), { seed: SEED + i, numRuns: perRoute }));
    expect(cases.length).toBeGreaterThanOrEqual(REQUESTS);

    const failures: string[] = [];
    const statuses = new Map<number, number>();
    const send = async (c: Case) => {
      const headers: Record<string, string> = {};
      if (c.as === 'user' || c.as === 'staff') headers.authorization = `Bearer ${credentials[c.as]}`;
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
        if (response.status >= 500) failures.push(`${response.status} ${label}: ${text.slice(0, 200)}`);
        else if (response.status >= 400) {
          const message = (() => {
            try {
              return (JSON.parse(text) as { message?: unknown }).message;
            } catch {
              return undefined;
            }
          })();
          if (typeof message !== 'string' || message.trim().length < 5) {
            failures.push(`${response.status} without a message ${label}: ${text.slice(0, 200)}`);
          }
        }
      } catch (error) {
        failures.push(`connection failed ${label}: ${String((error as Error).cause ?? error)}`);
      }
    };
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < cases.length) await send(cases[next++]!);
      }),
    );
    console.log(
      `fuzz statuses: ${[...statuses]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}×${n}`)
        .join(' ')}`,
    );
    expect(failures.slice(0, 20)).toEqual([]);
  }, 900_000);
});
