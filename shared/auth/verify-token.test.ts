import { createLocalJWKSet, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { createTokenVerifier, TokenRejected } from './verify-token';

const issuer = 'http://localhost:9229/local_pool';
const clientId = 'web-client';

let privateKey: CryptoKey;
let jwk: JWK;
let otherKey: CryptoKey;

beforeAll(async () => {
  const pair = await generateKeyPair('RS256');
  privateKey = pair.privateKey;
  jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256' };
  otherKey = (await generateKeyPair('RS256')).privateKey;
});

const sign = (
  claims: Record<string, unknown>,
  opts: { key?: CryptoKey; iss?: string; exp?: number; iat?: number } = {},
) => {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ token_use: 'access', client_id: clientId, 'cognito:groups': ['Employees'], ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .setSubject('user-1')
    .setIssuer(opts.iss ?? issuer)
    .setIssuedAt(opts.iat ?? now - 10)
    .setExpirationTime(opts.exp ?? now + 3600)
    .sign(opts.key ?? privateKey);
};

const verifier = () => createTokenVerifier({ issuer, clientIds: [clientId], keys: createLocalJWKSet({ keys: [jwk] }) });

describe('token verification', () => {
  it('accepts a valid access token and reads the groups', async () => {
    const caller = await verifier()(await sign({ username: 'ada' }));
    expect(caller).toMatchObject({ sub: 'user-1', username: 'ada', groups: ['Employees'], tokenUse: 'access' });
  });

  it('accepts a valid id token whose audience is the client', async () => {
    const token = await sign({ token_use: 'id', client_id: undefined, aud: clientId, 'cognito:username': 'ada' });
    await expect(verifier()(token)).resolves.toMatchObject({ tokenUse: 'id', username: 'ada' });
  });

  it.each([
    ['a foreign signature', () => sign({}, { key: otherKey })],
    ['another issuer', () => sign({}, { iss: 'http://evil/pool' })],
    ['an expired token', () => sign({}, { exp: Math.floor(Date.now() / 1000) - 60 })],
    ['another client', () => sign({ client_id: 'someone-else' })],
    ['an id token for another audience', () => sign({ token_use: 'id', client_id: undefined, aud: 'other' })],
    ['a refresh-like token use', () => sign({ token_use: 'refresh' })],
    ['a token issued in the future', () => sign({}, { iat: Math.floor(Date.now() / 1000) + 120 })],
    ['a token authenticated in the future', () => sign({ auth_time: Math.floor(Date.now() / 1000) + 120 })],
    [
      'a token authenticated after it was issued',
      () => sign({ auth_time: Math.floor(Date.now() / 1000) - 50 }, { iat: Math.floor(Date.now() / 1000) - 100 }),
    ],
  ])('rejects %s', async (_label, make) => {
    await expect(verifier()(await make())).rejects.toBeInstanceOf(TokenRejected);
  });

  it('tolerates the clock skew it is told, in iat and auth_time alike', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expect(verifier()(await sign({ auth_time: now + 2 }, { iat: now + 3 }))).resolves.toMatchObject({
      authTime: now + 2,
    });
  });

  it('rejects garbage', async () => {
    await expect(verifier()('not-a-jwt')).rejects.toBeInstanceOf(TokenRejected);
  });
});
