import { hashSecret, newCredentialId, newSecret, parseToken, secretMatches, tokenOf } from './credential-token';

describe('device credential tokens', () => {
  it('round-trips a new token', () => {
    const credentialId = newCredentialId();
    const secret = newSecret();
    expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
    expect(parseToken(tokenOf(credentialId, secret))).toEqual({ credentialId, secret });
  });

  it.each([
    undefined,
    42,
    '',
    'nodot',
    'dc_abc.',
    '.secretsecretsecretsecret',
    'xx_abc.secretsecretsecretsecret',
    'dc_a.b.c',
  ])('refuses the malformed token %p', (token) => {
    expect(parseToken(token)).toBeUndefined();
  });

  it('matches a secret against its hash only', () => {
    const secret = newSecret();
    expect(secretMatches(secret, hashSecret(secret))).toBe(true);
    expect(secretMatches(newSecret(), hashSecret(secret))).toBe(false);
    expect(secretMatches(secret, 'abcd')).toBe(false);
    expect(secretMatches(secret, undefined)).toBe(false);
  });

  it('stores no secret in the hash', () => {
    const secret = newSecret();
    expect(hashSecret(secret)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashSecret(secret)).not.toContain(secret);
  });
});
