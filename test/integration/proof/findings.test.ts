import { Agent, request as httpRequest } from 'node:http';
import { AREAS, type AreaName } from '../../../shared/contracts/areas';
import { fillPath, pathParamNames } from '../../../shared/contracts/define-route';
import { freshUser, nextSecond, signInFresh } from '../../support/people';
import { freshDevice } from '../../support/sensor-data';
import { apiAs, apiRejection, areaUrl, signIn, stack, tokenOf } from '../../support/stack';

/**
 * Issue 19's findings from outside, each through the local gateway as a client would meet it: every one of these
 * failed on the main the issue measured (a 502, a 500, a hang, or an accepted request that should be refused).
 */

const MINUTE = 60_000;

/** One request with a raw body and headers, answered status and message (no client-side encoding or parsing). */
const raw = async (
  method: string,
  url: string,
  { body, headers = {}, token }: { body?: string; headers?: Record<string, string>; token?: string } = {},
) => {
  const response = await fetch(url, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body,
  });
  const text = await response.text();
  let message: string | undefined;
  try {
    // The platform's `{message}`, or OData's `{error: {message}}` on the SensorThings routes (decision 093).
    const parsed = JSON.parse(text) as { message?: string; error?: { message?: string } };
    message = parsed.message ?? parsed.error?.message;
  } catch {
    message = text;
  }
  return { status: response.status, message };
};

const json = { 'content-type': 'application/json' };

describe('issue 19 findings, refused as a client would want', () => {
  it('answers 400 naming the parameter to malformed percent-encoding on every route with path parameters', async () => {
    const routes = Object.entries(AREAS).flatMap(([area, { routes }]) =>
      Object.values(routes)
        .filter((route) => pathParamNames(route.path).length > 0)
        .map((route) => ({ area: area as AreaName, route })),
    );
    expect(routes.length).toBeGreaterThan(50);
    const seen = new Set<number>();
    for (const [i, { area, route }] of routes.entries()) {
      const names = pathParamNames(route.path);
      const bad = ['%ZZ', 'a%', '%E2%82', '%C0%AF'][i % 4]!;
      // fillPath encodes; the bad value goes in afterwards, as a hand-written client would send it.
      const path = fillPath(route.path, Object.fromEntries(names.map((n) => [n, `P${n}`]))).replace(
        `P${names[0]}`,
        bad,
      );
      const answer = await raw(route.method, `${areaUrl(area)}${path}`);
      seen.add(answer.status);
      expect([route.path, answer.status, answer.message]).toEqual([
        route.path,
        400,
        `Path parameter "${names[0]}" is not valid percent-encoding`,
      ]);
    }
    expect([...seen]).toEqual([400]);
  });

  it('refuses bodies not sent as JSON (415), over the limit (413) and values no store keeps (400), never 500', async () => {
    const admin = await tokenOf('admin@example.com');
    const create = (body: string, headers: Record<string, string> = json) =>
      raw('POST', `${areaUrl('system')}/parameter/`, { body, headers, token: admin });
    const id = `proof-${Date.now().toString(36)}`;

    expect(await create(JSON.stringify({ id, value: 1 }), { 'content-type': 'text/plain' })).toEqual({
      status: 415,
      message: 'Content-Type must be application/json, not text/plain',
    });
    expect((await create(JSON.stringify({ id, value: 1 }), {})).status).toBe(415);
    expect(await create(JSON.stringify({ id, value: 'x'.repeat(450_000) }))).toEqual({
      status: 413,
      message: 'Request body is larger than 256 KB',
    });
    for (const value of [
      '12345678901234567890123',
      '1e200',
      '-1e-200',
      '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
    ]) {
      const answer = await create(`{"id":"${id}","value":${value}}`);
      expect([value, answer.status]).toEqual([value, 400]);
      expect(answer.message).toMatch(/^Invalid body: body\.value/);
    }
    expect((await create(`{"id":"${id}","value":"\\udc00"}`)).message).toMatch(/well-formed Unicode/);
    // Nothing of it was stored.
    expect((await apiRejection(apiAs('system', admin).getParameter({ params: { id } }))).status).toBe(404);
  });

  it('refuses an ingest reading with a time or value no store keeps, one reading at a time', async () => {
    const device = await freshDevice();
    const now = Date.now();
    const result = await raw('POST', `${areaUrl('data-ingress')}/readings`, {
      token: device.credential,
      headers: json,
      body: `{"readings":[{"timestamp":1e308,"values":{"co2":400}},{"timestamp":${2 ** 53},"values":{"co2":400}},{"timestamp":${now - MINUTE},"values":{"soil":1e200}},{"timestamp":${now - MINUTE},"values":{"co2":410}}]}`,
    });
    expect(result.status).toBe(200);
    const stored = await fetch(`${areaUrl('data-ingress')}/readings`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${device.credential}` },
      body: JSON.stringify({ readings: [{ timestamp: 2 ** 53 - 1, values: { co2: 1 } }] }),
    });
    expect(stored.status).toBe(400);
    const answer = (await stored.json()) as { issues: { message: string }[] };
    expect(answer.issues[0]!.message).toMatch(/^future: timestamp 9007199254740991 ms/);
  });

  it('answers prototype names as ids like any unknown person: 404, never 200 or 500', async () => {
    const admin = apiAs('users', await tokenOf('admin@example.com'));
    for (const id of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      for (const call of [
        () => admin.getUser({ params: { id } }),
        () => admin.getUserRecord({ params: { id } }),
        () => admin.listGroupsForUser({ params: { id } }),
        () => admin.disableUser({ params: { id } }),
      ]) {
        const refused = await apiRejection(call());
        expect([id, refused.status]).toEqual([id, 404]);
      }
    }
  });

  it('answers the request after a 413 on the same keep-alive connection at once', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const { hostname, port } = new URL(stack().endpoints.gateway);
    const send = (path: string, body?: Buffer) =>
      new Promise<{ status: number; ms: number }>((resolve, reject) => {
        const started = Date.now();
        const req = httpRequest(
          { hostname, port, path, method: body ? 'POST' : 'GET', agent, headers: body ? json : {} },
          (response) => {
            response.resume();
            response.on('end', () => resolve({ status: response.statusCode!, ms: Date.now() - started }));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    try {
      const tooLarge = await send('/system/parameter/', Buffer.alloc(11 * 1024 * 1024, 32)).catch(() => undefined);
      expect([413, undefined]).toContain(tooLarge?.status);
      const next = await send('/system/tier-features');
      expect(next.status).toBe(200);
      expect(next.ms).toBeLessThan(2_000);
    } finally {
      agent.destroy();
    }
  });

  it('refuses a token authenticated in the same second as a global sign-out, and the sign-out waits out its second', async () => {
    const person = await freshUser({ prefix: 'proof-signout' });
    await nextSecond();
    const token = await signInFresh(person.email);
    const started = Date.now();
    await apiAs('users', token).adminUserGlobalSignOut({ params: { id: person.id } });
    // The answer comes once the sign-out's second is over, so the token of that second is refused...
    expect((await apiRejection(apiAs('users', token).getUserRecord({ params: { id: person.id } }))).status).toBe(401);
    expect(Date.now() - started).toBeLessThan(3_000);
    // ...and a sign-in after the answer is a later second, accepted.
    const again = await signInFresh(person.email);
    expect((await apiAs('users', again).getUserRecord({ params: { id: person.id } })).id).toBe(person.id);
  });

  it('takes access tokens only as bearer tokens, and a body idToken only when it is the caller’s own', async () => {
    const user = await signIn('user@example.com');
    const other = await signIn('approved@example.com');
    const idAsBearer = await apiRejection(apiAs('devices', user.idToken).listMine({ query: {} }));
    expect([idAsBearer.status, idAsBearer.message]).toEqual([
      401,
      'Send the access token as the bearer token: an ID token is not accepted in the Authorization header',
    ]);
    const live = apiAs('sensor-data', user.accessToken);
    for (const idToken of [other.idToken, 'garbage', user.accessToken]) {
      const refused = await apiRejection(live.watchLive({ params: { id: 'demo-device-1' }, body: { idToken } }));
      expect(refused.status).toBe(403);
      const sign = await apiRejection(
        apiAs('api', user.accessToken).aws({
          body: {
            action: 'getSignedS3Url',
            params: { bucket: 'chartData', key: 'charts/demo-device-1/day/2020.json' },
            idToken,
          },
        }),
      );
      expect(sign.status).toBe(403);
    }
    expect((await live.watchLive({ params: { id: 'demo-device-1' }, body: { idToken: user.idToken } })).topic).toEqual(
      expect.any(String),
    );
  });

  it('refuses a revoked device credential on its very next request', async () => {
    const device = await freshDevice();
    const ingest = () =>
      raw('POST', `${areaUrl('data-ingress')}/readings`, {
        token: device.credential,
        headers: json,
        body: JSON.stringify({ readings: [{ timestamp: Date.now() - MINUTE, values: { co2: 420 } }] }),
      });
    expect((await ingest()).status).toBe(200);
    const devices = apiAs('devices', device.ownerToken);
    const [credential] = (await devices.listCredentials({ params: { id: device.id } })).items;
    await devices.revokeCredential({ params: { id: device.id, credentialId: credential!.credentialId } });
    expect((await ingest()).status).toBe(401);
  });
});
