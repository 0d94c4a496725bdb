import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import * as z from 'zod';
import { apiKey, defineArea, defineRoute, deviceCredential } from '../../../shared/contracts/define-route';
import { callerOf } from '../../../test/support/callers';
import type { UserSession } from '../access/access-version-store';
import { TooManyRequests } from '../errors';
import { NOTHING_AHEAD } from '../read-ahead';
import { httpArea } from './http-area';
import { createSessionGuard } from './session-guard';

const area = defineArea('test', {
  ingest: defineRoute({
    method: 'POST',
    path: '/readings',
    access: deviceCredential,
    summary: 'device',
    response: z.object({ deviceId: z.string() }),
  }),
  metered: defineRoute({
    method: 'GET',
    path: '/v1/things',
    access: apiKey,
    summary: 'api key',
    query: z.object({ over: z.string().optional() }),
    response: z.object({ owner: z.string(), keyId: z.string(), groups: z.array(z.string()) }),
  }),
});

const ownerCaller = (sub: string) => callerOf(sub, []);

const openSession: UserSession = { version: 0, changedAt: 0, disabled: false, signedOutAt: 0, groupsChangedAt: 0 };
let session = openSession;
const verifierCalls: string[] = [];

const handler = httpArea(
  area,
  {
    ingest: ({ device }) => ({ deviceId: device.deviceId }),
    metered: ({ apiKey: key, caller, query, setHeader }) => {
      setHeader('X-RateLimit-Remaining', '41');
      if (query.over)
        throw new TooManyRequests('Quota used up; it resets at 2026-12-01T00:00:00.000Z', { 'retry-after': '60' });
      return { owner: caller.sub, keyId: key.keyId, groups: caller.groups };
    },
  },
  {
    audit: {},
    deps: () => ({}),
    verifier: () => async () => {
      throw new Error('no person token is verified on these routes');
    },
    session: () =>
      createSessionGuard(
        { keyRead: (userId) => ({ table: 'sessions', key: { userId }, consistent: true }), get: async () => session },
        async () => NOTHING_AHEAD,
      ),
    credentials: {
      device: () => async (token) => {
        verifierCalls.push(token);
        return token === 'dc_good.secret' ? { deviceId: 'dev-1' } : undefined;
      },
      apiKey: () => async (key) =>
        key === 'ak_k1.secret'
          ? { apiKey: { keyId: 'k1', ownerId: 'owner-1' }, caller: ownerCaller('owner-1') }
          : undefined,
    },
  },
);

const call = async (
  method: string,
  resource: string,
  headers: Record<string, string>,
  query?: Record<string, string>,
) => {
  const event = {
    httpMethod: method,
    resource,
    path: resource,
    headers,
    pathParameters: null,
    queryStringParameters: query ?? null,
    body: null,
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEvent;
  const result = await handler(event, {} as Context);
  return { status: result.statusCode, body: JSON.parse(result.body), headers: result.headers ?? {} };
};

afterEach(() => {
  session = openSession;
  verifierCalls.length = 0;
});

describe('device-credential routes', () => {
  it('take the device from its credential', async () => {
    expect(await call('POST', '/readings', { Authorization: 'Bearer dc_good.secret' })).toMatchObject({
      status: 200,
      body: { deviceId: 'dev-1' },
    });
  });

  it('refuse a wrong credential, a missing one, and a person token without looking it up as a credential', async () => {
    expect((await call('POST', '/readings', { Authorization: 'Bearer dc_bad.secret' })).status).toBe(401);
    expect((await call('POST', '/readings', {})).body.message).toMatch(/device credential/);
    expect((await call('POST', '/readings', { Authorization: 'Bearer eyJhbGciOi.x.y' })).status).toBe(401);
    expect(verifierCalls).toEqual(['dc_bad.secret']);
  });
});

describe('API-key routes', () => {
  it("act as the key's owner without staff groups, and carry the handler's headers", async () => {
    const result = await call('GET', '/v1/things', { 'X-Api-Key': 'ak_k1.secret' });
    expect(result).toMatchObject({ status: 200, body: { owner: 'owner-1', keyId: 'k1', groups: [] } });
    expect(result.headers['x-ratelimit-remaining']).toBe('41');
  });

  it('refuse an unknown key, a missing key and a bearer token instead of a key', async () => {
    expect((await call('GET', '/v1/things', { 'x-api-key': 'ak_k2.secret' })).status).toBe(401);
    expect((await call('GET', '/v1/things', {})).body.message).toMatch(/API key/);
    expect((await call('GET', '/v1/things', { Authorization: 'Bearer ak_k1.secret' })).status).toBe(401);
  });

  it("refuse the key of a disabled owner (the session guard applies to the key's owner)", async () => {
    session = { ...openSession, disabled: true };
    expect(await call('GET', '/v1/things', { 'x-api-key': 'ak_k1.secret' })).toMatchObject({
      status: 401,
      body: { message: 'This account is disabled' },
    });
  });

  it("answers a 429 with the error's own headers and message", async () => {
    const result = await call('GET', '/v1/things', { 'x-api-key': 'ak_k1.secret' }, { over: '1' });
    expect(result.status).toBe(429);
    expect(result.body.message).toContain('resets at 2026-12-01');
    expect(result.headers['retry-after']).toBe('60');
  });
});
