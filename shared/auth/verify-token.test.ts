import { createLocalJWKSet, exportJWK, generateKeyPair, type JWK, type JWTVerifyGetKey, SignJWT } from 'jose';
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

describe('a token verified once', () => {
  const at = Date.UTC(2026, 5, 10, 10, 17, 30);
  const seconds = Math.floor(at / 1000);
  /** A verifier on a clock of its own, counting how often it looked for a signing key (once per signature check). */
  const counted = (clock: { now: number }, verifiedTokens?: number) => {
    const local = createLocalJWKSet({ keys: [jwk] });
    const calls = { keys: 0 };
    const keys: JWTVerifyGetKey = (header, token) => {
      calls.keys += 1;
      return local(header, token);
    };
    const verify = createTokenVerifier({ issuer, clientIds: [clientId], keys, now: () => clock.now, verifiedTokens });
    return { verify, calls };
  };

  it('is not checked again while it is valid, and reads the same each time', async () => {
    const clock = { now: at };
    const { verify, calls } = counted(clock);
    const token = await sign({ username: 'ada' }, { iat: seconds - 10, exp: seconds + 60 });
    const first = await verify(token);
    first.groups.push('Administrators');
    clock.now = at + 30_000;
    expect(await verify(token)).toMatchObject({ sub: 'user-1', username: 'ada', groups: ['Employees'] });
    expect(calls.keys).toBe(1);
  });

  it('is refused once it expires, as a token never seen before is (the same clock tolerance)', async () => {
    const clock = { now: at };
    const { verify } = counted(clock);
    const token = await sign({}, { iat: seconds - 10, exp: seconds + 60 });
    await verify(token);
    clock.now = (seconds + 64) * 1000;
    await expect(verify(token)).resolves.toMatchObject({ sub: 'user-1' });
    clock.now = (seconds + 65) * 1000;
    await expect(verify(token)).rejects.toThrow(new TokenRejected('Token expired'));
    const fresh = counted(clock);
    await expect(fresh.verify(token)).rejects.toThrow(new TokenRejected('Token expired'));
  });

  it('keeps only as many tokens as it is told, the least recently used dropped first', async () => {
    const clock = { now: at };
    const { verify, calls } = counted(clock, 2);
    const [a, b, c] = await Promise.all(
      ['a', 'b', 'c'].map((username) => sign({ username }, { iat: seconds - 10, exp: seconds + 600 })),
    );
    await verify(a!);
    await verify(b!);
    await verify(a!);
    await verify(c!);
    expect(calls.keys).toBe(3);
    await verify(a!);
    expect(calls.keys).toBe(3);
    await verify(b!);
    expect(calls.keys).toBe(4);
  });

  it('keeps nothing of a token it refused', async () => {
    const clock = { now: at };
    const { verify, calls } = counted(clock);
    const foreign = await sign({}, { key: otherKey, iat: seconds - 10, exp: seconds + 60 });
    await expect(verify(foreign)).rejects.toBeInstanceOf(TokenRejected);
    await expect(verify(foreign)).rejects.toBeInstanceOf(TokenRejected);
    expect(calls.keys).toBe(2);
  });
});
