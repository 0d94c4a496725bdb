import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { importJWK, type JWK, SignJWT } from 'jose';
import { AREAS, type AreaName } from '../../../shared/contracts/areas';
import { type AnyRoute, fillPath, pathParamNames } from '../../../shared/contracts/define-route';
import { freshUser, signInFresh } from '../../support/people';
import { apiAs, areaUrl, signIn, stack, subOfToken, tokenOf } from '../../support/stack';

/**
 * Issue 19: every protected route (signed in or a group) walked with every kind of token that must not pass:
 * forged, expired, another issuer, another client, the wrong token use, `alg: none`, HS256 signed with the public
 * key, issued in the future, a disabled person's, a deleted person's. Each is a 401 on every one of them. A token
 * that still names a group the person lost gets none of its rights: 403 on every staff route.
 *
 * Tokens are minted with the local identity provider's own signing key (cognito-local ships it), so each differs
 * from a real one only in the claim under test.
 */

const require = createRequire(import.meta.url);
const privateJwk = (
  JSON.parse(readFileSync(require.resolve('cognito-local/lib/keys/cognitoLocal.private.json'), 'utf8')) as {
    jwk: JWK;
  }
).jwk;
const publicJwk = (
  JSON.parse(readFileSync(require.resolve('cognito-local/lib/keys/cognitoLocal.public.json'), 'utf8')) as {
    jwk: JWK;
  }
).jwk;

const protectedRoutes = Object.entries(AREAS).flatMap(([area, { routes }]) =>
  Object.entries(routes as Record<string, AnyRoute>)
    .filter(([, route]) => route.access.kind === 'signedIn' || route.access.kind === 'group')
    .map(([name, route]) => ({ area: area as AreaName, name, route })),
);

/** The route called with placeholder parameters and no body: a refused token is refused before any of it is read. */
const statusWith = async ({ area, route }: (typeof protectedRoutes)[number], token: string) => {
  const path = fillPath(route.path, Object.fromEntries(pathParamNames(route.path).map((n) => [n, `x-${n}`])));
  const response = await fetch(`${areaUrl(area)}${path}`, {
    method: route.method,
    headers: { authorization: `Bearer ${token}`, ...(route.body ? { 'content-type': 'application/json' } : {}) },
    body: route.body ? '{}' : undefined,
  });
  await response.arrayBuffer();
  return response.status;
};

const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('every protected route refuses every token it must not take', () => {
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    const { issuer, clientId } = stack().auth;
    const real = await signIn('admin@example.com');
    const claims = JSON.parse(Buffer.from(real.accessToken.split('.')[1]!, 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
    const now = Math.floor(Date.now() / 1000);
    const key = await importJWK(privateJwk, 'RS256');
    const mint = (
      change: Record<string, unknown>,
      { iss = issuer, iat = now, exp = now + 3600 }: { iss?: string; iat?: number; exp?: number } = {},
    ) =>
      new SignJWT({ ...claims, ...change })
        .setProtectedHeader({ alg: 'RS256', kid: 'CognitoLocal' })
        .setIssuer(iss)
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(key);

    // The minted copy of a real token passes: what follows differs from it in one thing each.
    const control = await mint({});
    // A read of the person's own small list (their API keys). Not their devices: after the authorization matrix the
    // demo administrator holds thousands, and that list answers 500 there (an open bug, noted on issue 35).
    expect((await apiAs('sensor-data', control).listApiKeys({})).items).toEqual(expect.any(Array));

    const [header, payload] = real.accessToken.split('.');
    tokens.set('a forged signature', `${header}.${payload}.${Buffer.from('forged').toString('base64url')}`);
    tokens.set('an expired token', await mint({}, { iat: now - 7200, exp: now - 3600 }));
    tokens.set(
      'another issuer',
      await mint({}, { iss: 'https://cognito-idp.us-west-2.amazonaws.com/us-west-2_other' }),
    );
    tokens.set('another client', await mint({ client_id: `${clientId}x` }));
    tokens.set('an ID token as bearer', real.idToken);
    tokens.set('a refresh token use', await mint({ token_use: 'refresh' }));
    tokens.set('alg: none', `${part({ alg: 'none', typ: 'JWT' })}.${payload}.`);
    tokens.set(
      'HS256 with the public key as secret',
      await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', kid: 'CognitoLocal' })
        .sign(new TextEncoder().encode(JSON.stringify(publicJwk))),
    );
    tokens.set('issued in the future', await mint({ auth_time: now + 600 }, { iat: now + 600 }));

    const disabled = await freshUser({ prefix: 'tokens-disabled' });
    await apiAs('users', await tokenOf('admin@example.com')).disableUser({ params: { id: disabled.id } });
    tokens.set("a disabled person's token", disabled.token);

    const deleted = await freshUser({ prefix: 'tokens-deleted' });
    await apiAs('users', await tokenOf('admin@example.com')).adminDeleteUser({ params: { id: deleted.id } });
    tokens.set("a deleted person's token", deleted.token);
  });

  it.each([
    'a forged signature',
    'an expired token',
    'another issuer',
    'another client',
    'an ID token as bearer',
    'a refresh token use',
    'alg: none',
    'HS256 with the public key as secret',
    'issued in the future',
    "a disabled person's token",
    "a deleted person's token",
  ])('%s: 401 on every protected route', async (kind) => {
    expect(protectedRoutes.length).toBeGreaterThan(100);
    const token = tokens.get(kind)!;
    const passed: string[] = [];
    for (const entry of protectedRoutes) {
      const status = await statusWith(entry, token);
      if (status !== 401) passed.push(`${entry.area}.${entry.name} ${status}`);
    }
    expect(passed).toEqual([]);
  });

  it('a token naming a group the person lost gets none of its rights: 403 on every staff route', async () => {
    const admin = await tokenOf('admin@example.com');
    const former = await freshUser({ prefix: 'tokens-former', groups: ['Administrators'] });
    const stale = await signInFresh(former.email);
    await apiAs('users', admin).removeUserFromGroup({
      params: { id: former.id, group: 'Administrators', actor: subOfToken(admin) },
    });
    const staffRoutes = protectedRoutes.filter(
      ({ route }) => route.access.kind === 'group' && ['Administrators', 'Employees'].includes(route.access.group),
    );
    expect(staffRoutes.length).toBeGreaterThan(20);
    const passed: string[] = [];
    for (const entry of staffRoutes) {
      const status = await statusWith(entry, stale);
      if (status !== 403) passed.push(`${entry.area}.${entry.name} ${status}`);
    }
    expect(passed).toEqual([]);
  });
});
