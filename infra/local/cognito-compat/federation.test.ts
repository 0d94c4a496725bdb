import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { IdTokenRejected, verifyProviderIdToken } from './federation';

const issuer = 'http://localhost:9230';
const audience = 'local-identity-layer';

describe('verifyProviderIdToken', () => {
  let keys: ReturnType<typeof createLocalJWKSet>;
  let sign: (
    claims: Record<string, unknown>,
    options?: { issuer?: string; audience?: string; exp?: number },
  ) => Promise<string>;
  let signWithOther: typeof sign;

  beforeAll(async () => {
    const ours = await generateKeyPair('RS256');
    const other = await generateKeyPair('RS256');
    keys = createLocalJWKSet({ keys: [{ ...(await exportJWK(ours.publicKey)), kid: 'k1', alg: 'RS256' }] });
    const signer =
      (key: CryptoKey, kid: string): typeof sign =>
      (claims, options = {}) =>
        new SignJWT(claims)
          .setProtectedHeader({ alg: 'RS256', kid })
          .setIssuer(options.issuer ?? issuer)
          .setAudience(options.audience ?? audience)
          .setSubject('s-1')
          .setIssuedAt()
          .setExpirationTime(options.exp ?? '5m')
          .sign(key);
    sign = signer(ours.privateKey, 'k1');
    signWithOther = signer(other.privateKey, 'k1');
  });

  const check = (token: string, nonce = 'n-1') => verifyProviderIdToken(token, { keys, issuer, audience, nonce });

  it('answers the claims of a token signed by the provider for this sign-in', async () => {
    await expect(check(await sign({ nonce: 'n-1', email: 'a@b.c' }))).resolves.toMatchObject({
      sub: 's-1',
      email: 'a@b.c',
    });
  });

  it.each([
    ['another sign-in’s nonce', async () => check(await sign({ nonce: 'n-2' }))],
    ['no nonce', async () => check(await sign({}))],
    ['another issuer', async () => check(await sign({ nonce: 'n-1' }, { issuer: 'http://localhost:1' }))],
    ['another audience', async () => check(await sign({ nonce: 'n-1' }, { audience: 'someone-else' }))],
    ['an expired token', async () => check(await sign({ nonce: 'n-1' }, { exp: Math.floor(Date.now() / 1000) - 60 }))],
    ['another key', async () => check(await signWithOther({ nonce: 'n-1' }))],
  ])('refuses %s', async (_, run) => {
    await expect(run()).rejects.toBeInstanceOf(IdTokenRejected);
  });
});
