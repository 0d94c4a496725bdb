import * as z from 'zod';
import {
  type Access,
  type AnyRoute,
  API_KEY_HEADER,
  type Area,
  normalizePath,
  pathParamNames,
  successStatus,
} from './define-route';
import { ErrorBody, ODataErrorBody } from './errors';

/** The headers of every metered public-API answer (functions/sensor-data/domain/api-metering.ts), refused or not. */
export const RATE_LIMIT_HEADERS = {
  'x-ratelimit-limit': "The device's monthly quota: its tier's apiMaxRequests.",
  'x-ratelimit-remaining': 'Requests left this calendar month (UTC) for this device, after this one.',
  'x-ratelimit-reset': 'When the count starts again: the first of next month, 00:00 UTC, in epoch seconds.',
} as const;

/** Tags group the operations by the credential they take, so a reader finds the public API at once. */
export const ACCESS_TAGS: Record<Access['kind'], string> = {
  apiKey: 'Public API (API key)',
  signedIn: 'App (signed-in session)',
  group: 'App (staff roles)',
  guest: 'App (open to guests)',
  device: 'Devices (ingress credential)',
};

/**
 * The reference's opening text: how to authenticate and what the quota headers mean, in Markdown (the renderer and
 * code generators show `info.description`). Written once here, so both homes serve the same words.
 */
const description = (area: Area, publicOnly: boolean) => {
  const kinds = new Set(Object.values(area.routes).map((route) => route.access.kind));
  const parts = [
    publicOnly
      ? `The public API of the ${area.name} area: the routes a script calls with an API key.`
      : `Every route of the ${area.name} area, derived from its contract (the same definition the service validates with).`,
  ];
  if (kinds.has('apiKey')) {
    parts.push(
      [
        '## Authentication',
        `Public API routes take a personal API key in the \`${API_KEY_HEADER}\` header: \`${API_KEY_HEADER}: ak_{keyId}.{secret}\`.`,
        'Make a key on the API page of the web app (Dashboard → API); its secret is shown once, then stored only as a',
        'hash. A key acts as you, through your own relations (never with staff powers), and reads only the devices you',
        'may see. A missing, unknown or revoked key is answered 401; a device you may not read, 403 or 404.',
        '',
        '## Quota',
        "Each device's public-API requests are counted per calendar month (UTC) against its tier's quota. Every metered",
        'answer carries:',
        '',
        ...Object.entries(RATE_LIMIT_HEADERS).map(([name, text]) => `- \`${name}\`: ${text}`),
        '',
        'Over the quota the answer is **429** with the same headers and `retry-after` (seconds until the reset).',
        'The web app warns at 70, 90 and 100 % of the quota.',
      ].join('\n'),
    );
  }
  if (!publicOnly && (kinds.has('signedIn') || kinds.has('group'))) {
    parts.push(
      "## App routes\nThe other routes serve the web app: they take the signed-in session's access token " +
        '(`Authorization: Bearer …`) and may change between releases. Scripts should use the public API.',
    );
  }
  return parts.join('\n\n');
};

/** The value a curl example puts in a path parameter: a placeholder a reader replaces. */
const placeholder = (name: string) => `{${name}}`;

/** A copyable request for one route: curl with the credential it takes (`x-codeSamples`, shown by the renderer). */
export const curlSample = (route: AnyRoute, serverUrl = '{baseUrl}') => {
  const path = normalizePath(route.path).replace(/\{([^}+]+)\+?\}/g, (_m, name: string) => placeholder(name));
  const query = route.query ? Object.keys((route.query as { shape: Record<string, unknown> }).shape) : [];
  // Only the range of a read is filled in: a sample runs as pasted once the ids are replaced.
  const example = query.filter((name) => name === 'from' || name === 'to' || name === 'limit');
  const url = `${serverUrl.replace(/\/$/, '')}${path}${example.length ? `?${example.map(exampleParam).join('&')}` : ''}`;
  const credential =
    route.access.kind === 'apiKey'
      ? `-H '${API_KEY_HEADER}: ak_…'`
      : route.access.kind === 'device'
        ? "-H 'Authorization: Bearer dc_…'"
        : route.access.kind === 'guest'
          ? undefined
          : "-H 'Authorization: Bearer <access token>'";
  const lines = [
    `curl${route.method === 'GET' ? '' : ` -X ${route.method}`} '${url}'`,
    ...(credential ? [credential] : []),
    ...(route.body ? ["-H 'content-type: application/json'", "--data '{…}'"] : []),
  ];
  return lines.join(' \\\n  ');
};

const exampleParam = (name: string) =>
  name === 'limit' ? 'limit=50' : name === 'from' ? 'from=1767225600000' : 'to=1767312000000';

/** The schemas one document's operations share, by name: its `components.schemas`. */
type SharedSchemas = Record<string, unknown>;

const DEFS = '#/$defs/';
const COMPONENT_SCHEMAS = '#/components/schemas/';

/** zod's `$ref`s point into the schema's own `$defs`; in a document they point at the document's components. */
const pointAtComponents = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(pointAtComponents);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => {
      if (key !== '$ref' || typeof value !== 'string') return [key, pointAtComponents(value)];
      // A `$ref` resolves against the whole document, whose root is no schema: "#" (zod's ref to an unnamed recursive
      // root) and "#/$defs/__schemaN" (an unnamed recursive part) would point at nothing.
      if (!value.startsWith(DEFS) || value.startsWith(`${DEFS}__schema`)) throw unnamedRecursion(value);
      return [key, `${COMPONENT_SCHEMAS}${value.slice(DEFS.length)}`];
    }),
  );
};

const unnamedRecursion = (ref: string) =>
  new Error(
    `A contract schema refers to ${ref}: name each recursive schema (.register(z.globalRegistry, { id })) so the ` +
      'OpenAPI document holds it once under components/schemas',
  );

/**
 * A schema as a document embeds it: the named schemas zod writes into `$defs` (recursive ones, and any registered with
 * an id) are moved into `shared`, once per name, and every reference points there.
 */
const jsonSchema = (schema: z.ZodType, io: 'input' | 'output', shared: SharedSchemas) => {
  const {
    $schema: _ignored,
    $defs,
    ...rest
  } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown> & {
    $defs?: Record<string, unknown>;
  };
  for (const [name, definition] of Object.entries($defs ?? {})) {
    if (name.startsWith('__schema')) throw unnamedRecursion(`${DEFS}${name}`);
    const hoisted = pointAtComponents(definition);
    // Input and output of one schema can differ (defaults, transforms): one name must mean one shape.
    if (name in shared && JSON.stringify(shared[name]) !== JSON.stringify(hoisted)) {
      throw new Error(`Two different schemas are named ${name} in one OpenAPI document`);
    }
    shared[name] = hoisted;
  }
  return pointAtComponents(rest) as Record<string, unknown>;
};

const errorResponse = (description: string, shared: SharedSchemas, route: AnyRoute) => ({
  description,
  content: {
    'application/json': {
      schema: jsonSchema(route.errorShape === 'odata' ? ODataErrorBody : ErrorBody, 'output', shared),
    },
  },
});

const rateLimitHeaders = Object.fromEntries(
  Object.entries(RATE_LIMIT_HEADERS).map(([name, text]) => [name, { description: text, schema: { type: 'integer' } }]),
);

const operation = (name: string, route: AnyRoute, serverUrl: string | undefined, shared: SharedSchemas) => {
  const status = successStatus(route);
  const metered = route.access.kind === 'apiKey';
  const paramsSchema = route.params
    ? (jsonSchema(route.params, 'input', shared) as { properties?: Record<string, unknown> })
    : {};
  const querySchema = route.query
    ? (jsonSchema(route.query, 'input', shared) as { properties?: Record<string, unknown>; required?: string[] })
    : {};
  return {
    operationId: name,
    summary: route.summary,
    tags: [ACCESS_TAGS[route.access.kind]],
    'x-codeSamples': [{ lang: 'Shell', label: 'curl', source: curlSample(route, serverUrl) }],
    // Our own extension: the access rule the API enforces (spec §6 groups and precedence).
    'x-access': route.access,
    security:
      route.access.kind === 'guest'
        ? [{}, { bearer: [] }]
        : route.access.kind === 'device'
          ? [{ deviceCredential: [] }]
          : route.access.kind === 'apiKey'
            ? [{ apiKey: [] }]
            : [{ bearer: [] }],
    parameters: [
      ...pathParamNames(route.path).map((param) => ({
        name: param,
        in: 'path',
        required: true,
        schema: paramsSchema.properties?.[param] ?? { type: 'string' },
      })),
      ...Object.entries(querySchema.properties ?? {}).map(([param, schema]) => ({
        name: param,
        in: 'query',
        required: querySchema.required?.includes(param) ?? false,
        schema,
      })),
    ],
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(route.body, 'input', shared) } },
          },
        }
      : {}),
    responses: {
      [status]:
        status === 204
          ? { description: 'Done' }
          : {
              description: 'Success',
              content: { 'application/json': { schema: jsonSchema(route.response, 'output', shared) } },
              ...(metered ? { headers: rateLimitHeaders } : {}),
            },
      400: errorResponse(
        route.errorShape === 'odata'
          ? 'Invalid input; `target` names the query option at fault, `details` each of several'
          : 'Invalid input; `issues` names each bad field',
        shared,
        route,
      ),
      401: errorResponse(
        metered
          ? `No valid API key: the ${API_KEY_HEADER} header is missing, or its key is unknown or revoked`
          : 'No valid token (or a bad one)',
        shared,
        route,
      ),
      ...(route.access.kind === 'group'
        ? { 403: errorResponse(`Requires the ${route.access.group} role`, shared, route) }
        : {}),
      ...(route.params ? { 404: errorResponse('Not found', shared, route) } : {}),
      ...(metered
        ? {
            429: {
              ...errorResponse(
                "The device's quota for this month is used up; the message says when it resets",
                shared,
                route,
              ),
              headers: {
                ...rateLimitHeaders,
                'retry-after': { description: 'Seconds until the quota resets.', schema: { type: 'integer' } },
              },
            },
          }
        : {}),
    },
  };
};

/** Where each area serves its document, beside its routes, in both homes (the local gateway, the area's Lambda). */
export const OPENAPI_PATH = '/openapi.json';

/** Which routes a document holds: all, or only those one credential calls (`?access=apiKey`: the public API). */
export interface OpenApiOptions {
  access?: Access['kind'];
}

/** `?access=` of a GET of `/openapi.json`, as both homes read it; anything else is the whole document. */
export const openApiOptionsOf = (query: Record<string, string | undefined> | null | undefined): OpenApiOptions => {
  const access = query?.access;
  return access && access in ACCESS_TAGS ? { access: access as Access['kind'] } : {};
};

/** The OpenAPI 3.1 document of one service area, derived from its contract. */
export const toOpenApi = (area: Area, serverUrl?: string, options: OpenApiOptions = {}) => {
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas: SharedSchemas = {};
  const routes = Object.entries(area.routes).filter(
    ([, route]) => !options.access || route.access.kind === options.access,
  );
  for (const [name, route] of routes) {
    // OpenAPI has no greedy parameter: `{path+}` is written `{path}` (its value may hold slashes).
    const path = normalizePath(route.path).replace(/\{([^}]+)\+\}/g, '{$1}');
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation(name, route, serverUrl, schemas) };
  }
  const webhooks = area.webhooks && !options.access ? { webhooks: webhooksOf(area.webhooks, schemas) } : {};
  const tags = [...new Set(routes.map(([, route]) => ACCESS_TAGS[route.access.kind]))].sort(
    (a, b) => Number(b === ACCESS_TAGS.apiKey) - Number(a === ACCESS_TAGS.apiKey),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: options.access === 'apiKey' ? 'Public API' : `${area.name} API`,
      version: '1.0.0',
      description: description(area, options.access === 'apiKey'),
    },
    tags: tags.map((name) => ({ name })),
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    components: {
      schemas,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        deviceCredential: { type: 'http', scheme: 'bearer', bearerFormat: 'dc_{credentialId}.{secret}' },
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Api-Key',
          description: 'A personal API key, `ak_{keyId}.{secret}`, made on the API page of the web app.',
        },
      },
    },
    paths,
    ...webhooks,
  };
};

/**
 * The events the area sends to receivers' URLs (OpenAPI 3.1 `webhooks`): each a POST whose body is the event, signed
 * the Standard Webhooks way (docs/integrations.md); a 2xx answer within 15 seconds is success.
 */
const webhooksOf = (events: NonNullable<Area['webhooks']>, shared: SharedSchemas) =>
  Object.fromEntries(
    Object.entries(events).map(([type, event]) => [
      type,
      {
        post: {
          operationId: `event:${type}`,
          summary: type,
          description: event.summary,
          // The receiver's URL takes no credential of ours: the request proves itself by its signature headers.
          security: [],
          parameters: [
            ['webhook-id', 'The message id: the same on every retry of this delivery (de-duplicate on it).'],
            ['webhook-timestamp', 'When this attempt was signed, in epoch seconds (refuse one far from now).'],
            ['webhook-signature', 'Space-separated `v1,{base64 HMAC-SHA256}`: two during a secret rotation.'],
          ].map(([name, text]) => ({
            name,
            in: 'header',
            required: true,
            description: text,
            schema: { type: 'string' },
          })),
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(event.schema, 'output', shared) } },
          },
          responses: {
            '200': {
              description:
                'Any 2xx within 15 seconds: delivered. 410 Gone turns the webhook off; anything else is retried.',
            },
          },
        },
      },
    ]),
  );
