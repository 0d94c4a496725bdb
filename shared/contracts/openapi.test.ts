import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Validator } from '@seriousme/openapi-schema-validator';
import * as z from 'zod';
import { AREAS } from './areas';
import { defineArea, defineRoute, guest, normalizePath } from './define-route';
import { integrations } from './integrations';
import { ACCESS_TAGS, curlSample, openApiOptionsOf, RATE_LIMIT_HEADERS, toOpenApi } from './openapi';
import { sensorData } from './sensor-data';
import { system } from './system';
import { WEBHOOK_EVENT_TYPES } from './webhook-events';

describe('OpenAPI documents derived from the contracts', () => {
  it('lists every route of every area under its path and method', () => {
    for (const area of Object.values(AREAS)) {
      const document = toOpenApi(area);
      for (const [name, route] of Object.entries(area.routes)) {
        // A greedy parameter (`{path+}`) is written as a plain one: OpenAPI has no other.
        const path = normalizePath(route.path).replace('+}', '}');
        const operation = document.paths[path]?.[route.method.toLowerCase()] as {
          operationId: string;
        };
        expect(operation?.operationId).toBe(name);
      }
    }
  });

  it('describes path parameters, the body schema, the success status and the access rule', () => {
    const document = toOpenApi(system, 'http://localhost:3000/system');
    const update = document.paths['/update-parameter/{id}']?.put as {
      parameters: { name: string; in: string; required: boolean }[];
      requestBody: { content: { 'application/json': { schema: { required?: string[] } } } };
      responses: Record<string, unknown>;
      'x-access': unknown;
    };
    expect(update.parameters).toContainEqual(expect.objectContaining({ name: 'id', in: 'path', required: true }));
    expect(update.requestBody.content['application/json'].schema.required).toEqual(['value']);
    expect(Object.keys(update.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404']));
    expect(update['x-access']).toEqual({ kind: 'group', group: 'Administrators' });
    const remove = document.paths['/delete-parameter/{id}']?.delete as { responses: Record<string, unknown> };
    expect(remove.responses).toHaveProperty('204');
    const list = document.paths['/parameters']?.get as {
      parameters: { name: string; in: string; required: boolean }[];
    };
    expect(list.parameters).toContainEqual(expect.objectContaining({ name: 'limit', in: 'query', required: false }));
  });
});

/** As much of a JSON Schema as the test reads. */
interface Schema {
  required?: string[];
  const?: unknown;
  properties: { [name: string]: Schema };
  items: Schema;
}

describe('the webhook events (OpenAPI 3.1 webhooks)', () => {
  const document = toOpenApi(integrations) as unknown as {
    webhooks?: Record<
      string,
      { post: { parameters: { name: string }[]; requestBody: { content: Record<string, { schema: Schema }> } } }
    >;
  };

  it("lists every event a webhook is sent, each with the envelope, its data's fields and the signature headers", () => {
    expect(Object.keys(document.webhooks ?? {}).sort()).toEqual(['ping', ...WEBHOOK_EVENT_TYPES].sort());
    const readings = document.webhooks!['readings.received']!.post;
    expect(readings.parameters.map((p) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    const schema = readings.requestBody.content['application/json']!.schema;
    expect(schema.required).toEqual(['id', 'type', 'time', 'version', 'data']);
    expect(schema.properties.type).toMatchObject({ const: 'readings.received' });
    expect(schema.properties.data!.properties.batches!.items.required).toEqual([
      'deviceId',
      'batchId',
      'receivedAt',
      'readings',
    ]);
    expect(
      document.webhooks!['export.ready']!.post.requestBody.content['application/json']!.schema.properties.data!
        .properties,
    ).toHaveProperty('exportId');
  });

  it('leaves them out of a document of one credential’s routes, and out of every other area’s', () => {
    expect(toOpenApi(integrations, undefined, { access: 'signedIn' })).not.toHaveProperty('webhooks');
    expect(toOpenApi(sensorData)).not.toHaveProperty('webhooks');
  });
});

describe('the public API reference', () => {
  const document = toOpenApi(sensorData, 'https://api.example/sensor-data', openApiOptionsOf({ access: 'apiKey' }));
  const readings = document.paths['/v1/devices/{id}/readings']?.get as {
    tags: string[];
    'x-codeSamples': { lang: string; source: string }[];
    responses: Record<string, { headers?: Record<string, unknown> }>;
  };

  it('holds only the routes an API key calls when asked for `access=apiKey`', () => {
    // The reads, and the SensorThings API's root and resources (issue 41).
    expect(Object.keys(document.paths).sort()).toEqual([
      '/v1/devices/{id}/readings',
      '/v1/devices/{id}/series',
      '/v1/sta/v1.1',
      '/v1/sta/v1.1/{path}',
    ]);
    expect(document.info.title).toBe('Public API');
    expect(document.tags).toEqual([{ name: ACCESS_TAGS.apiKey }]);
    expect(readings.tags).toEqual([ACCESS_TAGS.apiKey]);
  });

  it('says how to authenticate and what the quota headers mean', () => {
    expect(document.info.description).toContain('## Authentication');
    expect(document.info.description).toContain('`x-api-key: ak_{keyId}.{secret}`');
    for (const header of [...Object.keys(RATE_LIMIT_HEADERS), 'retry-after']) {
      expect(document.info.description).toContain(header);
    }
    expect(Object.keys(readings.responses['200']?.headers ?? {})).toEqual(Object.keys(RATE_LIMIT_HEADERS));
    expect(Object.keys(readings.responses['429']?.headers ?? {})).toContain('retry-after');
  });

  it('gives each route a curl example with the key header against the server it was served from', () => {
    expect(readings['x-codeSamples']).toEqual([
      {
        lang: 'Shell',
        label: 'curl',
        source:
          "curl 'https://api.example/sensor-data/v1/devices/{id}/readings?from=1767225600000&to=1767312000000&limit=50' \\\n" +
          "  -H 'x-api-key: ak_…'",
      },
    ]);
  });

  it('keeps every route, public ones first, without a filter (or with an unknown one)', () => {
    const whole = toOpenApi(sensorData, undefined, openApiOptionsOf({ access: 'nonsense' }));
    expect(Object.keys(whole.paths).length).toBeGreaterThan(2);
    expect(whole.tags[0]).toEqual({ name: ACCESS_TAGS.apiKey });
    expect(whole.info.description).toContain('## App routes');
  });

  it('writes a body and a bearer token into the example of an app route', () => {
    const create = curlSample(sensorData.routes.createApiKey, 'http://localhost:3000/sensor-data');
    expect(create).toBe(
      "curl -X POST 'http://localhost:3000/sensor-data/api-keys' \\\n  -H 'Authorization: Bearer <access token>' \\\n" +
        "  -H 'content-type: application/json' \\\n  --data '{…}'",
    );
  });
});

describe('every area’s document, as a client generator reads it', () => {
  const documents = Object.values(AREAS).flatMap((area) =>
    [{}, { access: 'apiKey' as const }].map((options) => ({
      name: `${area.name}${options.access ? ` (${options.access})` : ''}`,
      document: toOpenApi(area, `https://api.example/${area.name}`, options),
    })),
  );

  it('is valid OpenAPI 3.1 with every reference resolved (an independent validator)', async () => {
    const validator = new Validator();
    const invalid = [];
    for (const { name, document } of documents) {
      const result = await validator.validate(structuredClone(document));
      if (!result.valid) invalid.push({ name, errors: result.errors });
    }
    expect(invalid).toEqual([]);
  });

  it('has no error under Redocly’s recommended rules', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const errors = [];
    for (const { name, document } of documents) {
      const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: `${name}.json`, config });
      errors.push(
        ...problems
          .filter((problem) => problem.severity === 'error')
          .map((problem) => `${name}: ${problem.ruleId} ${problem.message} at ${problem.location[0]?.pointer}`),
      );
    }
    expect(errors).toEqual([]);
  });

  it('holds a recursive schema once, under components/schemas, and refers to it there', () => {
    const document = toOpenApi(system);
    const schemas = document.components.schemas as Record<string, { anyOf?: { items?: { $ref?: string } }[] }>;
    expect(schemas.ParameterValue?.anyOf?.[4]?.items?.$ref).toBe('#/components/schemas/ParameterValue');
    const read = JSON.stringify(document.paths['/parameters/{id}']);
    expect(read).toContain('"value":{"$ref":"#/components/schemas/ParameterValue"}');
    expect(read).not.toContain('$defs');
  });

  it('refuses a recursive schema without a name, which a document could not refer to', () => {
    const Tree: z.ZodType<{ children: unknown[] }> = z.lazy(() => z.object({ children: z.array(Tree) }));
    const area = defineArea('trees', {
      readTree: defineRoute({ method: 'GET', path: '/tree', access: guest, summary: 'A tree.', response: Tree }),
    });
    expect(() => toOpenApi(area)).toThrow(/name each recursive schema/);
  });
});
