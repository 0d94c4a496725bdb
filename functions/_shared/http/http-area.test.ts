import {
  ConditionalCheckFailedException,
  InternalServerError,
  ProvisionedThroughputExceededException,
} from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose';
import * as z from 'zod';
import { createTokenVerifier } from '../../../shared/auth/verify-token';
import { defineArea, defineRoute, guest, minGroup, signedIn } from '../../../shared/contracts/define-route';
import type { UserSession } from '../access/access-version-store';
import { Conflict } from '../errors';
import type { KeyRead, ReadAhead } from '../read-ahead';
import { httpArea } from './http-area';
import { DEPENDENCY_RETRY_AFTER_SECONDS, DEPENDENCY_UNAVAILABLE } from './http-errors';
import { createSessionGuard } from './session-guard';

const issuer = 'http://localhost/pool';
const clientId = 'client';

const area = defineArea('test', {
  open: defineRoute({
    method: 'GET',
    path: '/open',
    access: guest,
    summary: 'guest',
    response: z.object({ who: z.string() }),
  }),
  mine: defineRoute({
    method: 'GET',
    path: '/things/{id}',
    access: signedIn,
    summary: 'signed in',
    params: z.object({ id: z.string().min(2) }),
    query: z.object({ n: z.coerce.number().int().optional() }),
    response: z.object({ id: z.string(), n: z.number().optional(), sub: z.string() }),
  }),
  write: defineRoute({
    method: 'POST',
    path: '/thing/',
    access: minGroup('Employees'),
    summary: 'staff',
    body: z.object({ name: z.string() }).strict(),
    response: z.object({ name: z.string() }),
    status: 201,
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/things/{id}',
    access: minGroup('Administrators'),
    summary: 'x',
    params: z.object({ id: z.string() }),
    response: z.void(),
  }),
  broken: defineRoute({
    method: 'GET',
    path: '/broken',
    access: guest,
    summary: 'bad response',
    response: z.object({ ok: z.boolean() }),
  }),
  crash: defineRoute({
    method: 'GET',
    path: '/crash',
    access: guest,
    summary: 'throws what `kind` names',
    query: z.object({ kind: z.enum(['plain', 'outage', 'throttled', 'refused', 'network']).optional() }),
    response: z.object({}),
  }),
  conflict: defineRoute({
    method: 'GET',
    path: '/conflict',
    access: guest,
    summary: 'typed error',
    response: z.object({}),
  }),
  watch: defineRoute({
    method: 'POST',
    path: '/watch',
    access: guest,
    summary: 'a body that names an ID token',
    body: z.object({ idToken: z.string().optional() }),
    response: z.object({ who: z.string() }),
  }),
  peek: defineRoute({
    method: 'GET',
    path: '/peek/{id}',
    access: guest,
    summary: 'reads ahead',
    params: z.object({ id: z.string().min(2) }),
    response: z.object({ label: z.string().optional(), who: z.string(), early: z.string().optional() }),
  }),
  standard: defineRoute({
    method: 'GET',
    path: '/standard/v1/{path+}',
    access: signedIn,
    summary: "a route that speaks a standard's error shape (SensorThings' OData)",
    params: z.object({ path: z.string() }),
    query: z.object({ $top: z.string().max(5).optional(), $skip: z.string().max(5).optional() }),
    response: z.object({ path: z.string() }),
    errorShape: 'odata',
  }),
});

const thingRead = (id: string): KeyRead => ({ table: 'things', key: { id }, consistent: true });
const sessionRead = (userId: string): KeyRead => ({ table: 'sessions', key: { userId }, consistent: true });
/** Every read-together the chain made, and the thing items it finds. */
let reads: KeyRead[][] = [];
/** What a route started beside the session record: a read of the thing's history (a Query in a real store). */
class History {
  constructor(readonly value: Promise<string>) {}
}
/** In order: when each read beside was started and each session read answered. */
let order: string[] = [];
const things: Record<string, { label: string }> = { ab: { label: 'thing ab' } };
const aheadOf = (done: readonly KeyRead[]): ReadAhead => {
  const has = (read: KeyRead) => done.some((d) => d.table === read.table && d.key.id === read.key.id);
  return { has, item: (read) => (has(read) ? things[read.key.id as string] : undefined) };
};

let sign: (claims: Record<string, unknown>) => Promise<string>;
let signAs: (sub: string, claims: Record<string, unknown>) => Promise<string>;
const openSession: UserSession = { version: 0, changedAt: 0, disabled: false, signedOutAt: 0, groupsChangedAt: 0 };
let session = openSession;
let handler: ReturnType<typeof httpArea<typeof area, { label: string }>>;

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k', alg: 'RS256' };
  signAs = (sub, claims) =>
    new SignJWT({ token_use: 'access', client_id: clientId, ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'k' })
      .setSubject(sub)
      .setIssuer(issuer)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
  sign = (claims) =>
    new SignJWT({ token_use: 'access', client_id: clientId, ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'k' })
      .setSubject('user-1')
      .setIssuer(issuer)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
  handler = httpArea(
    area,
    {
      open: ({ caller }) => ({ who: caller?.sub ?? 'guest' }),
      mine: ({ params, query, caller }) => ({ id: params.id, n: query.n, sub: caller.sub }),
      write: ({ body }) => ({ name: body.name }),
      remove: () => undefined,
      broken: () => ({ ok: 'yes' }) as never,
      crash: ({ query }) => {
        const metadata = { $metadata: {} };
        switch (query.kind) {
          case 'outage':
            throw new InternalServerError({ message: 'secret table detail', ...metadata });
          case 'throttled':
            throw new ProvisionedThroughputExceededException({ message: 'secret table detail', ...metadata });
          case 'refused':
            throw new ConditionalCheckFailedException({ message: 'secret table detail', ...metadata });
          case 'network':
            throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' });
          default:
            throw new Error('secret database detail');
        }
      },
      conflict: () => {
        throw new Conflict('Already there');
      },
      watch: ({ caller }) => ({ who: caller?.sub ?? 'guest' }),
      peek: async ({ params, caller, ahead, beside }) => ({
        label: ahead.item(thingRead(params.id))?.label as string | undefined,
        who: caller?.sub ?? 'guest',
        early: beside instanceof History ? await beside.value : undefined,
      }),
      standard: ({ params }) => {
        if (params.path === 'conflict') throw Object.assign(new Conflict('Already there'), { target: '$top' });
        if (params.path === 'crash') throw new Error('secret database detail');
        return { path: params.path };
      },
    },
    {
      audit: {},
      deps: () => ({ label: 'deps' }),
      verifier: () => createTokenVerifier({ issuer, clientIds: [clientId], keys: createLocalJWKSet({ keys: [jwk] }) }),
      corsOrigins: ['http://app.local'],
      session: () =>
        createSessionGuard({ keyRead: sessionRead, get: async () => session }, async (together) => {
          reads.push([...together]);
          order.push('session read');
          return aheadOf(together);
        }),
      readAhead: { peek: ({ params }) => [thingRead(params.id)] },
      readBeside: {
        peek: ({ params }) => {
          order.push('history started');
          return new History(Promise.resolve(`history of ${params.id}`));
        },
      },
    },
  );
});

afterEach(() => {
  session = openSession;
  reads = [];
  order = [];
});

const call = async (
  method: string,
  resource: string,
  options: {
    path?: Record<string, string>;
    query?: Record<string, string>;
    body?: string;
    token?: string;
    origin?: string;
    /** @default application/json when a body is sent; null sends none */
    contentType?: string | null;
  } = {},
) => {
  const headers: Record<string, string> = {};
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  const contentType = options.contentType === undefined && options.body ? 'application/json' : options.contentType;
  if (contentType) headers['Content-Type'] = contentType;
  if (options.origin) headers.Origin = options.origin;
  const event = {
    httpMethod: method,
    resource,
    path: resource,
    headers,
    pathParameters: options.path ?? null,
    queryStringParameters: options.query ?? null,
    body: options.body ?? null,
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEvent;
  const result = await handler(event, {} as Context);
  return {
    status: result.statusCode,
    body: result.body ? JSON.parse(result.body) : undefined,
    headers: result.headers ?? {},
  };
};

describe('the http chain', () => {
  it('lets a guest call a guest route and sees a signed-in caller there too', async () => {
    expect(await call('GET', '/open')).toMatchObject({ status: 200, body: { who: 'guest' } });
    expect((await call('GET', '/open', { token: await sign({}) })).body).toEqual({ who: 'user-1' });
  });

  it('answers 401 to a bad token even on a guest route', async () => {
    expect((await call('GET', '/open', { token: 'garbage' })).status).toBe(401);
  });

  it('answers 401 to a guest on a signed-in route, and 401 to a malformed Authorization header', async () => {
    expect((await call('GET', '/things/{id}', { path: { id: 'ab' } })).status).toBe(401);
    const event = {
      httpMethod: 'GET',
      resource: '/open',
      headers: { authorization: 'Basic abc' },
    } as unknown as APIGatewayProxyEvent;
    expect((await handler(event, {} as Context)).statusCode).toBe(401);
  });

  it('parses path and query with the contract schemas', async () => {
    const result = await call('GET', '/things/{id}', { path: { id: 'ab' }, query: { n: '7' }, token: await sign({}) });
    expect(result).toMatchObject({ status: 200, body: { id: 'ab', n: 7, sub: 'user-1' } });
  });

  it('answers 400 naming the bad field of path, query and body', async () => {
    const token = await sign({ 'cognito:groups': ['Employees'] });
    const path = await call('GET', '/things/{id}', { path: { id: 'a' }, token });
    expect(path.status).toBe(400);
    expect(path.body.issues[0].path).toBe('path.id');
    const query = await call('GET', '/things/{id}', { path: { id: 'ab' }, query: { n: 'x' }, token });
    expect(query.body.issues[0].path).toBe('query.n');
    const body = await call('POST', '/thing/', { body: '{"name":1}', token });
    expect(body).toMatchObject({ status: 400, body: { issues: [{ path: 'body.name' }] } });
    expect((await call('POST', '/thing/', { body: '{', token })).body.message).toBe('Request body is not valid JSON');
  });

  it('answers 415 to a body not sent as JSON, whatever it holds', async () => {
    const token = await sign({ 'cognito:groups': ['Employees'] });
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', null]) {
      const refused = await call('POST', '/thing/', { body: '{"name":"x"}', token, contentType });
      expect([refused.status, refused.body.message]).toEqual([
        415,
        contentType
          ? `Content-Type must be application/json, not ${contentType}`
          : 'Content-Type must be application/json (none was sent)',
      ]);
    }
    for (const contentType of ['application/json; charset=utf-8', 'APPLICATION/JSON', 'application/merge-patch+json']) {
      expect((await call('POST', '/thing/', { body: '{"name":"x"}', token, contentType })).status).toBe(201);
    }
  });

  it('answers 413 to a body over 256 KB, and 400 naming the place of what no store keeps exactly', async () => {
    const token = await sign({ 'cognito:groups': ['Employees'] });
    const big = await call('POST', '/thing/', { body: JSON.stringify({ name: 'x'.repeat(256 * 1024) }), token });
    expect([big.status, big.body.message]).toEqual([413, 'Request body is larger than 256 KB']);
    const refused = async (body: string) => {
      const answer = await call('POST', '/thing/', { body, token });
      expect(answer.status).toBe(400);
      return answer.body.issues[0];
    };
    expect(await refused('{"name":"x","n":12345678901234567890}')).toEqual({
      path: 'body.n',
      message: 'numbers must be whole numbers between -9007199254740991 and 9007199254740991, or decimals',
    });
    expect((await refused('{"name":"x","a":[1,1e308]}')).path).toBe('body.a.1');
    expect((await refused('{"name":"x","a":-1e-200}')).message).toBe('numbers must be 0 or at least 1e-130 in size');
    expect(await refused(`{"name":"x","d":${'['.repeat(40)}${']'.repeat(40)}}`)).toMatchObject({
      message: 'Request body nests deeper than 32 levels',
    });
    expect(await refused('{"name":"\\ud800"}')).toEqual({
      path: 'body.name',
      message: 'text must be well-formed Unicode (a lone surrogate was sent)',
    });
    // What a store keeps exactly still passes: the largest safe integer, small and negative decimals.
    expect((await call('POST', '/thing/', { body: '{"name":"x"}', token })).status).toBe(201);
    const deep = await call('GET', '/things/{id}', { path: { id: 'a\ud800' }, token });
    expect([deep.status, deep.body.issues[0].path]).toEqual([400, 'path.id']);
  });

  it('takes access tokens as bearer tokens, and an ID token in a body only when it is the caller’s own', async () => {
    const idToken = () => signAs('user-1', { token_use: 'id', client_id: undefined, aud: clientId });
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${part({ alg: 'none' })}.${part({ sub: 'user-1', token_use: 'id', aud: clientId, iss: issuer })}.`;
    const asBearer = await call('GET', '/open', { token: await idToken() });
    expect([asBearer.status, asBearer.body.message]).toEqual([
      401,
      'Send the access token as the bearer token: an ID token is not accepted in the Authorization header',
    ]);
    const token = await sign({});
    const own = await call('POST', '/watch', { body: JSON.stringify({ idToken: await idToken() }), token });
    expect(own).toMatchObject({ status: 200, body: { who: 'user-1' } });
    // Garbage, the caller's own access token, and an unsigned ID token are no ID token of the caller.
    for (const body of [{ idToken: 'garbage' }, { idToken: token }, { idToken: unsigned }]) {
      const refused = await call('POST', '/watch', { body: JSON.stringify(body), token });
      expect([refused.status, refused.body.message]).toEqual([
        403,
        'The ID token (idToken) is not a valid ID token of the signed-in user',
      ]);
    }
    // Someone else's ID token, and an ID token sent by a guest, name nobody the request may act as.
    const other = await signAs('user-2', { token_use: 'id', client_id: undefined, aud: clientId });
    expect((await call('POST', '/watch', { body: JSON.stringify({ idToken: other }), token })).status).toBe(403);
    expect((await call('POST', '/watch', { body: JSON.stringify({ idToken: await idToken() }) })).status).toBe(403);
    expect((await call('POST', '/watch', { body: '{}', token })).status).toBe(200);
  });

  it('answers 403 when the role is too low and the success status when it is enough', async () => {
    const user = await sign({ 'cognito:groups': ['Authenticated_users'] });
    const staff = await sign({ 'cognito:groups': ['Employees'] });
    expect((await call('POST', '/thing/', { body: '{"name":"x"}', token: user })).status).toBe(403);
    expect(await call('POST', '/thing/', { body: '{"name":"x"}', token: staff })).toMatchObject({
      status: 201,
      body: { name: 'x' },
    });
    expect((await call('DELETE', '/things/{id}', { path: { id: 'ab' }, token: staff })).status).toBe(403);
    const admin = await sign({ 'cognito:groups': ['Administrators'] });
    expect(await call('DELETE', '/things/{id}', { path: { id: 'ab' }, token: admin })).toMatchObject({
      status: 204,
      body: undefined,
    });
  });

  it("refuses a disabled user's token, and tokens authenticated before a global sign-out", async () => {
    const token = await sign({ auth_time: Math.floor(Date.now() / 1000) - 60 });
    session = { ...openSession, disabled: true };
    expect(await call('GET', '/things/{id}', { path: { id: 'ab' }, token })).toMatchObject({
      status: 401,
      body: { message: 'This account is disabled' },
    });
    session = { ...openSession, signedOutAt: Date.now() - 1000 };
    expect((await call('GET', '/things/{id}', { path: { id: 'ab' }, token })).status).toBe(401);
    const later = await sign({ auth_time: Math.floor(Date.now() / 1000) });
    expect((await call('GET', '/things/{id}', { path: { id: 'ab' }, token: later })).status).toBe(200);
    // auth_time is whole seconds: a token of the sign-out's own second may predate it, so it is refused.
    const second = Math.floor(Date.now() / 1000);
    session = { ...openSession, signedOutAt: second * 1000 + 999 };
    const same = await sign({ auth_time: second });
    expect((await call('GET', '/things/{id}', { path: { id: 'ab' }, token: same })).status).toBe(401);
  });

  it('replaces the groups of a token issued before the groups changed', async () => {
    const staff = await sign({ 'cognito:groups': ['Employees'] });
    session = { ...openSession, groups: ['Authenticated_users'], groupsChangedAt: Date.now() + 1000 };
    expect((await call('POST', '/thing/', { body: '{"name":"x"}', token: staff })).status).toBe(403);
    session = { ...openSession, groups: ['Authenticated_users'], groupsChangedAt: Date.now() - 5000 };
    expect((await call('POST', '/thing/', { body: '{"name":"x"}', token: staff })).status).toBe(201);
  });

  it("reads a route's read-ahead with the session record in one round trip, and hands the items to the handler", async () => {
    const early = 'history of ab';
    expect((await call('GET', '/peek/{id}', { path: { id: 'ab' } })).body).toEqual({
      label: 'thing ab',
      who: 'guest',
      early,
    });
    expect(reads).toEqual([[thingRead('ab')]]);

    reads = [];
    const token = await sign({});
    expect((await call('GET', '/peek/{id}', { path: { id: 'ab' }, token })).body).toEqual({
      label: 'thing ab',
      who: 'user-1',
      early,
    });
    expect(reads).toEqual([[sessionRead('user-1'), thingRead('ab')]]);

    // A route without read-ahead reads the session record alone.
    reads = [];
    await call('GET', '/things/{id}', { path: { id: 'ab' }, token });
    expect(reads).toEqual([[sessionRead('user-1')]]);
  });

  it('starts what a route reads beside the session record before that read answers', async () => {
    await call('GET', '/peek/{id}', { path: { id: 'ab' }, token: await sign({}) });
    expect(order).toEqual(['history started', 'session read']);
  });

  it('checks the session before the handler runs, whatever was read ahead or beside', async () => {
    session = { ...openSession, disabled: true };
    const refused = await call('GET', '/peek/{id}', { path: { id: 'ab' }, token: await sign({}) });
    expect([refused.status, refused.body]).toEqual([401, { message: 'This account is disabled' }]);
    expect(order).toEqual(['history started', 'session read']);
  });

  it('reads nothing ahead for a bad input or a request the route refuses, and still answers in the same order', async () => {
    expect((await call('GET', '/peek/{id}', { path: { id: 'a' } })).status).toBe(400);
    expect((await call('GET', '/things/{id}', { path: { id: 'a' } })).status).toBe(401);
    expect(reads).toEqual([]);
    expect(order).toEqual([]);
    session = { ...openSession, disabled: true };
    expect((await call('GET', '/things/{id}', { path: { id: 'a' }, token: await sign({}) })).status).toBe(401);
  });

  it('maps typed errors to their status and hides everything else behind a bare 500', async () => {
    expect(await call('GET', '/conflict')).toMatchObject({ status: 409, body: { message: 'Already there' } });
    const crash = await call('GET', '/crash');
    expect(crash).toMatchObject({ status: 500, body: { message: 'Internal error' } });
    expect(JSON.stringify(crash.body)).not.toContain('secret');
    expect((await call('GET', '/broken')).status).toBe(500);
  });

  it("answers a store's outage, throttle or a refused connection with 503 and Retry-After, its own refusal with 500", async () => {
    for (const kind of ['outage', 'throttled', 'network']) {
      const answer = await call('GET', '/crash', { query: { kind } });
      expect([kind, answer.status, answer.body]).toEqual([kind, 503, { message: DEPENDENCY_UNAVAILABLE }]);
      expect(answer.headers['retry-after']).toBe(String(DEPENDENCY_RETRY_AFTER_SECONDS));
    }
    // A failed condition is the code's own mistake to map: retrying it gives the same answer.
    const refused = await call('GET', '/crash', { query: { kind: 'refused' } });
    expect(refused).toMatchObject({ status: 500, body: { message: 'Internal error' } });
    expect(refused.headers['retry-after']).toBeUndefined();
  });

  it('answers unknown routes with 404 and known paths with the wrong method with 405', async () => {
    expect((await call('GET', '/nope')).status).toBe(404);
    expect((await call('PUT', '/open')).status).toBe(405);
  });

  it("answers every refusal on a route of OData's error shape in that shape, whoever refuses, and only there", async () => {
    const odata = (status: number, message: unknown, more: object = {}) => ({
      status,
      body: { error: { code: String(status), message, ...more } },
    });
    const resource = '/standard/v1/{path+}';
    const token = await sign({});
    // The chain's own checks: sign-in, the query's schema (one issue names its option, several are listed).
    expect(await call('GET', resource, { path: { path: 'Things' } })).toMatchObject(odata(401, 'Sign-in required'));
    expect(await call('GET', resource, { path: { path: 'Things' }, token: 'garbage' })).toMatchObject({
      status: 401,
      body: { error: { code: '401', message: expect.any(String) } },
    });
    const tooLong = await call('GET', resource, { path: { path: 'Things' }, query: { $top: '123456' }, token });
    expect(tooLong).toEqual({
      ...odata(400, expect.stringContaining('query.$top'), { target: '$top' }),
      headers: expect.any(Object),
    });
    const two = await call('GET', resource, { path: { path: 'T' }, query: { $top: '123456', $skip: '123456' }, token });
    expect(two.body.error.details.map((d: { target: string }) => d.target)).toEqual(['$top', '$skip']);
    expect(two.body.error.target).toBeUndefined();
    // A method the route does not take, a path under its root that no route matches.
    expect(await call('POST', resource, { path: { path: 'Things' }, token })).toMatchObject(
      odata(405, 'Method POST is not allowed on /standard/v1/{path+}'),
    );
    expect(await call('GET', '/standard/v1', { token })).toMatchObject(
      odata(404, 'No route GET /standard/v1 in the test API'),
    );
    // The handler's typed errors keep their target; anything else is the bare 500, in the same shape.
    expect(await call('GET', resource, { path: { path: 'conflict' }, token })).toMatchObject(
      odata(409, 'Already there', { target: '$top' }),
    );
    const crash = await call('GET', resource, { path: { path: 'crash' }, token });
    expect(crash.body).toEqual({ error: { code: '500', message: 'Internal error' } });
    // Everywhere else the platform's shape, a path that only starts like the root included.
    expect((await call('GET', '/standard/v10')).body).toEqual({
      message: 'No route GET /standard/v10 in the test API',
    });
    expect((await call('GET', '/things/{id}', { path: { id: 'ab' } })).body).toEqual({ message: 'Sign-in required' });
  });

  it("serves the area's OpenAPI document to anyone, its server the stage the request came through", async () => {
    const event = {
      httpMethod: 'GET',
      resource: '/openapi.json',
      path: '/openapi.json',
      headers: { Origin: 'http://app.local' },
      queryStringParameters: null,
      requestContext: { domainName: 'abc.execute-api.eu-west-1.amazonaws.com', path: '/prod/openapi.json' },
    } as unknown as APIGatewayProxyEvent;
    const result = await handler(event, {} as Context);
    expect(result.statusCode).toBe(200);
    expect(result.headers?.['access-control-allow-origin']).toBe('http://app.local');
    const document = JSON.parse(result.body) as { servers: { url: string }[]; paths: Record<string, unknown> };
    expect(document.servers).toEqual([{ url: 'https://abc.execute-api.eu-west-1.amazonaws.com/prod' }]);
    expect(Object.keys(document.paths)).toContain('/things/{id}');
    expect(reads).toEqual([]);
  });

  it('echoes only allowed origins for CORS, on success and on error', async () => {
    expect((await call('GET', '/open', { origin: 'http://app.local' })).headers['access-control-allow-origin']).toBe(
      'http://app.local',
    );
    expect((await call('GET', '/crash', { origin: 'http://app.local' })).headers['access-control-allow-origin']).toBe(
      'http://app.local',
    );
    expect(
      (await call('GET', '/open', { origin: 'http://evil' })).headers['access-control-allow-origin'],
    ).toBeUndefined();
  });
});
