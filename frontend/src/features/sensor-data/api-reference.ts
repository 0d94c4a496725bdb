import { OPENAPI_PATH } from '../../../../shared/contracts/openapi';

/**
 * Where the reference reads the public API's description: the sensor-data area's OpenAPI document, only the routes an
 * API key calls (docs/sensor-data.md, "API reference"). The document is the gateway's, derived from the contract.
 */
export const publicApiSpecUrl = (sensorDataBaseUrl: string): string =>
  `${sensorDataBaseUrl.replace(/\/$/, '')}${OPENAPI_PATH}?access=apiKey`;

/** The integrations area's document: its `webhooks` are the events a receiver is sent (docs/integrations.md). */
export const webhookEventsSpecUrl = (integrationsBaseUrl: string): string =>
  `${integrationsBaseUrl.replace(/\/$/, '')}${OPENAPI_PATH}`;

/** What the reference says of webhooks, above their events: the headers, the signature and a receiver (Markdown). */
export const WEBHOOKS_TEXT = [
  "Instead of polling, a webhook of a device, a campaign's or an organization's devices (its page, Integrations) sends",
  'each event below as a POST of JSON, signed the Standard Webhooks way: `webhook-id` (the same on every retry),',
  "`webhook-timestamp` and `webhook-signature` (HMAC-SHA256 with the webhook's `whsec_…` secret; two during a",
  'rotation). Verify with a Standard Webhooks library, e.g. for Node:',
  '',
  '```js',
  "import { Webhook } from 'standardwebhooks';",
  'const event = new Webhook(process.env.WEBHOOK_SECRET).verify(body, headers); // throws on a bad or old signature',
  '```',
  '',
  'Answer 2xx within 15 seconds. Anything else is retried for 24 hours (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, with',
  'jitter), then the webhook is turned off and its owner told; 410 Gone turns it off at once.',
].join('\n');

/**
 * The public API's document with the webhook events of the integrations area's beside its routes (OpenAPI 3.1
 * `webhooks`), so one reference shows what a script calls and what it is sent.
 */
export const withWebhookEvents = (publicSpec: unknown, integrationsSpec: unknown): unknown => {
  const webhooks = (integrationsSpec as { webhooks?: unknown } | undefined)?.webhooks;
  const schemas = (integrationsSpec as OpenApiDocument | undefined)?.components?.schemas;
  if (!webhooks) return publicSpec;
  const spec = publicSpec as OpenApiDocument;
  // The events' payloads may refer to the integrations document's named schemas: both sets travel together.
  return {
    ...spec,
    components: { ...spec.components, schemas: { ...schemas, ...spec.components?.schemas } },
    webhooks,
  };
};

/**
 * The document with this home's sensor-data address in its curl examples: made at build time without a server
 * (frontend/build/api-reference.ts), they say `{baseUrl}`.
 */
export const withServer = (document: unknown, baseUrl: string): unknown => {
  const spec = document as OpenApiDocument;
  const fill = (methods: Record<string, OpenApiOperation>) =>
    Object.fromEntries(
      Object.entries(methods).map(([method, operation]) => [
        method,
        operation['x-codeSamples']
          ? {
              ...operation,
              'x-codeSamples': operation['x-codeSamples'].map((sample) => ({
                ...sample,
                source: sample.source.replaceAll('{baseUrl}', baseUrl),
              })),
            }
          : operation,
      ]),
    );
  return {
    ...spec,
    servers: [{ url: baseUrl }],
    paths: Object.fromEntries(Object.entries(spec.paths ?? {}).map(([path, methods]) => [path, fill(methods)])),
  };
};

/** A JSON Schema as the contracts' documents write it (zod's output): read loosely, shown as far as it is known. */
export type Schema = { [key: string]: unknown };

interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  'x-access'?: { kind: string; group?: string };
  'x-codeSamples'?: { lang?: string; label?: string; source: string }[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<
    string,
    {
      description?: string;
      content?: Record<string, { schema?: Schema }>;
      headers?: Record<string, { description?: string }>;
    }
  >;
}

interface OpenApiDocument {
  info?: { title?: string; description?: string };
  tags?: { name: string }[];
  components?: { schemas?: Record<string, Schema> };
  paths?: Record<string, Record<string, OpenApiOperation>>;
  webhooks?: Record<string, Record<string, OpenApiOperation>>;
}

export interface ReferenceParameter {
  name: string;
  in: string;
  required: boolean;
  description?: string;
  schema: Schema;
}

export interface ReferenceResponse {
  status: string;
  description: string;
  schema?: Schema;
  headers: { name: string; description: string }[];
}

/** One route (or one webhook event) as the reference shows it. */
export interface ReferenceOperation {
  /** A route a script calls, or an event (a webhook) a receiver is sent. */
  kind: 'route' | 'event';
  /** Its fragment: `#op-apiReadings`, `#event-alert-fired`, a link a person can share. */
  anchor: string;
  method: string;
  path: string;
  summary: string;
  /** Who may call it, in words (the contract's access rule, `x-access`). */
  access?: string;
  parameters: ReferenceParameter[];
  body?: Schema;
  responses: ReferenceResponse[];
  samples: { label: string; source: string }[];
  /** The document's first tag of it: the group it is listed under. */
  tag: string;
}

export interface Reference {
  title: string;
  /** Markdown: how to authenticate and the quota (`info.description`). */
  description: string;
  /** The routes by the document's tags (one per credential: the public API's is its only one), in its order. */
  groups: { name: string; anchor: string; operations: ReferenceOperation[] }[];
  events: ReferenceOperation[];
  /** The named schemas (the error shapes, recursive values) operations refer to: each shown once. */
  schemas: { name: string; anchor: string; schema: Schema }[];
}

/** A fragment of letters, digits, `-` and `_` only: shared, pasted and selected (`#id`) without escaping. */
const slug = (text: string) => text.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-|-$/g, '');

export const schemaAnchor = (name: string) => `schema-${slug(name)}`;

const COMPONENT_SCHEMAS = '#/components/schemas/';

/** The named schema a `$ref` points at, or undefined for a schema written in place. */
export const refName = (schema: Schema): string | undefined =>
  typeof schema.$ref === 'string' && schema.$ref.startsWith(COMPONENT_SCHEMAS)
    ? schema.$ref.slice(COMPONENT_SCHEMAS.length)
    : undefined;

const ACCESS_WORDS: Record<string, string> = {
  apiKey: 'An API key (x-api-key header); reads only the devices its owner may see',
  signedIn: 'A signed-in person (the app’s access token)',
  guest: 'Anyone, guests included',
  device: 'A device’s ingress credential',
};

const accessWords = (access: OpenApiOperation['x-access']) =>
  access && (access.kind === 'group' ? `Staff: the ${access.group} role or higher` : ACCESS_WORDS[access.kind]);

const jsonSchemaOf = (content: Record<string, { schema?: Schema }> | undefined) =>
  content?.['application/json']?.schema ?? Object.values(content ?? {})[0]?.schema;

const operationOf = (
  kind: ReferenceOperation['kind'],
  anchor: string,
  method: string,
  path: string,
  operation: OpenApiOperation,
): ReferenceOperation => ({
  kind,
  anchor,
  method: method.toUpperCase(),
  path,
  summary: operation.summary ?? '',
  access: accessWords(operation['x-access']),
  parameters: (operation.parameters ?? []).map((parameter) => ({
    name: parameter.name,
    in: parameter.in,
    required: parameter.required ?? false,
    description: parameter.description,
    schema: parameter.schema ?? {},
  })),
  body: jsonSchemaOf(operation.requestBody?.content),
  responses: Object.entries(operation.responses ?? {}).map(([status, response]) => ({
    status,
    description: response.description ?? '',
    schema: jsonSchemaOf(response.content),
    headers: Object.entries(response.headers ?? {}).map(([name, header]) => ({
      name,
      description: header.description ?? '',
    })),
  })),
  samples: (operation['x-codeSamples'] ?? []).map((sample) => ({
    label: sample.label ?? sample.lang ?? 'Example',
    source: sample.source,
  })),
  tag: operation.tags?.[0] ?? 'Routes',
});

/**
 * What the reference page draws, read from an OpenAPI 3.1 document (the contracts' `toOpenApi`, with the webhook
 * events beside): every operation with its anchor, access rule, parameters, body and answers, grouped by tag.
 */
export const referenceOf = (document: unknown): Reference => {
  const spec = document as OpenApiDocument;
  const operations = Object.entries(spec.paths ?? {}).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) =>
      operationOf('route', `op-${slug(operation.operationId ?? `${method}-${path}`)}`, method, path, operation),
    ),
  );
  const names = [...(spec.tags ?? []).map((tag) => tag.name), ...operations.map((operation) => operation.tag)];
  const groups = [...new Set(names)]
    .map((name) => ({
      name,
      anchor: `tag-${slug(name)}`,
      operations: operations.filter((operation) => operation.tag === name),
    }))
    .filter((group) => group.operations.length > 0);
  const events = Object.entries(spec.webhooks ?? {}).flatMap(([type, methods]) =>
    Object.entries(methods).map(([method, operation]) =>
      operationOf('event', `event-${slug(type)}`, method, type, { ...operation, summary: operation.description ?? '' }),
    ),
  );
  return {
    title: spec.info?.title ?? 'API reference',
    description: spec.info?.description ?? '',
    groups,
    events,
    schemas: Object.entries(spec.components?.schemas ?? {}).map(([name, schema]) => ({
      name,
      anchor: schemaAnchor(name),
      schema,
    })),
  };
};

/** The largest integer JSON carries exactly: zod writes it as every integer's bound, which tells a reader nothing. */
const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * A schema's type in a few words (`integer`, `array of string`, `object: string → number`, `"good" | "bad"`), with
 * the bounds and defaults worth reading; nested objects are drawn as their fields, not here.
 */
export const typeWords = (schema: Schema): string => {
  const name = refName(schema);
  if (name) return name;
  if (schema.const !== undefined) return `always ${JSON.stringify(schema.const)}`;
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((value) => JSON.stringify(value)).join(', ')}`;
  const union = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(union)) return union.map(typeWords).join(' or ');
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type as string | undefined);
  if (type === 'array') return `array of ${schema.items ? typeWords(schema.items as Schema) : 'anything'}`;
  if (type === 'object' && !schema.properties && schema.additionalProperties && schema.additionalProperties !== true) {
    return `object: name → ${typeWords(schema.additionalProperties as Schema)}`;
  }
  return type ?? 'any JSON value';
};

const BOUNDS: readonly [key: string, before: string, after: string][] = [
  ['minimum', '≥ ', ''],
  ['exclusiveMinimum', '> ', ''],
  ['maximum', '≤ ', ''],
  ['exclusiveMaximum', '< ', ''],
  ['minLength', 'at least ', ' characters'],
  ['maxLength', 'at most ', ' characters'],
  ['minItems', 'at least ', ' items'],
  ['maxItems', 'at most ', ' items'],
];

/** A schema's bounds, pattern and default, as a reader checks a value against them. */
export const constraintWords = (schema: Schema): string[] => [
  ...BOUNDS.flatMap(([key, before, after]) => {
    const value = schema[key];
    if (typeof value !== 'number' || Math.abs(value) === SAFE) return [];
    return [value === 1 && after ? `${before}1${after.replace(/s$/, '')}` : `${before}${value}${after}`];
  }),
  ...(typeof schema.format === 'string' ? [`format ${schema.format}`] : []),
  ...(typeof schema.pattern === 'string' ? [`matches ${schema.pattern}`] : []),
  ...(schema.default !== undefined ? [`default ${JSON.stringify(schema.default)}`] : []),
];

/** The fields a schema's value has, when it is an object (or an array of objects) written in place. */
export const fieldsOf = (schema: Schema): { name: string; required: boolean; schema: Schema }[] => {
  const inner = schema.type === 'array' ? schema.items : schema.properties ? undefined : schema.additionalProperties;
  // An array's items, or a map's values (`series`: measurement → its line), when they are objects written in place.
  if (inner && typeof inner === 'object' && !refName(inner as Schema)) return fieldsOf(inner as Schema);
  const properties = schema.properties as Record<string, Schema> | undefined;
  if (!properties) return [];
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, field]) => ({ name, required: required.has(name), schema: field }));
};
