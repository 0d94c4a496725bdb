import { integrations } from '../../../../shared/contracts/integrations';
import { toOpenApi } from '../../../../shared/contracts/openapi';
import { sensorData } from '../../../../shared/contracts/sensor-data';
import {
  constraintWords,
  fieldsOf,
  referenceOf,
  typeWords,
  webhookEventsSpecUrl,
  withWebhookEvents,
} from './api-reference';

describe('the API reference with the webhook events', () => {
  const routes = toOpenApi(sensorData, 'https://api.example/sensor-data', { access: 'apiKey' });

  it("puts the integrations area's events beside the public routes", () => {
    const merged = withWebhookEvents(routes, toOpenApi(integrations)) as typeof routes & {
      webhooks: Record<string, unknown>;
    };
    expect(Object.keys(merged.webhooks)).toContain('readings.received');
    expect(merged.paths).toBe(routes.paths);
    expect(Object.keys(merged.components.schemas)).toEqual(expect.arrayContaining(['ErrorBody', 'ODataErrorBody']));
  });

  it('shows the routes alone when the events could not be read', () => {
    expect(withWebhookEvents(routes, undefined)).toBe(routes);
  });

  it('reads the whole document of the integrations area', () => {
    expect(webhookEventsSpecUrl('https://api.example/integrations/')).toBe(
      'https://api.example/integrations/openapi.json',
    );
  });
});

describe('what the reference page draws from the document', () => {
  const reference = referenceOf(
    withWebhookEvents(
      toOpenApi(sensorData, 'https://api.example/sensor-data', { access: 'apiKey' }),
      toOpenApi(integrations),
    ),
  );
  const readings = reference.groups.flatMap((group) => group.operations).find((op) => op.anchor === 'op-apiReadings');

  it('lists every public route under its tag, with an anchor, its access rule and a curl example', () => {
    expect(reference.groups.map((group) => group.name)).toEqual(['Public API (API key)']);
    expect(reference.groups[0]?.operations.map((op) => `${op.method} ${op.path}`)).toEqual([
      'GET /v1/devices/{id}/readings',
      'GET /v1/devices/{id}/series',
      'GET /v1/sta/v1.1',
      'GET /v1/sta/v1.1/{path}',
    ]);
    expect(readings?.access).toMatch(/API key \(x-api-key header\)/);
    expect(readings?.samples[0]?.source).toMatch(
      /^curl 'https:\/\/api\.example\/sensor-data\/v1\/devices\/\{id\}\/readings/,
    );
    expect(readings?.parameters.map((p) => `${p.in} ${p.name}`)).toContain('path id');
    expect(readings?.responses.map((r) => r.status)).toEqual(['200', '400', '401', '404', '429']);
  });

  it("shows a reading's nested fields, and the error shape by name", () => {
    const ok = readings?.responses.find((r) => r.status === '200')?.schema ?? {};
    const items = fieldsOf(ok).find((field) => field.name === 'items');
    expect(items && typeWords(items.schema)).toBe('array of object');
    expect(fieldsOf(items?.schema ?? {}).map((field) => `${field.name}${field.required ? '*' : ''}`)).toEqual(
      expect.arrayContaining(['timestamp*', 'values*', 'quality']),
    );
    expect(readings?.responses.find((r) => r.status === '400')?.schema?.$ref).toBe('#/components/schemas/ErrorBody');
    expect(reference.schemas.map((schema) => schema.anchor)).toContain('schema-ErrorBody');
  });

  it('keeps the bounds a reader checks and drops the integer bounds zod writes everywhere', () => {
    const limit = readings?.parameters.find((p) => p.name === 'limit')?.schema ?? {};
    expect(constraintWords(limit)).toEqual(['≥ 1', '≤ 500', 'default 50']);
    expect(constraintWords({ type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER })).toEqual(['≥ 0']);
    expect(typeWords({ type: 'string', enum: ['good', 'bad'] })).toBe('one of "good", "bad"');
    expect(typeWords({ type: 'object', additionalProperties: { type: 'number' } })).toBe('object: name → number');
  });

  it('lists each webhook event with its payload', () => {
    const fired = reference.events.find((event) => event.anchor === 'event-alert-fired');
    expect(fired?.method).toBe('POST');
    expect(fired?.path).toBe('alert.fired');
    expect(fired?.parameters.map((p) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    const data = fieldsOf(fired?.body ?? {}).find((field) => field.name === 'data');
    expect(fieldsOf(data?.schema ?? {}).map((field) => field.name)).toContain('ruleName');
  });
});
