import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * A device's ingress token is `{credentialId}.{secret}`: the id finds the stored row, the secret is checked
 * against its hash. The secret is 32 random bytes, so a plain SHA-256 is enough: slow, salted hashes (bcrypt,
 * argon2) defend guessable human passwords, and 256 random bits cannot be guessed; a fast hash also keeps the
 * check cheap on every ingress message. docs/devices.md says more.
 */
export const CREDENTIAL_ID_PREFIX = 'dc_';

export const newCredentialId = (): string => `${CREDENTIAL_ID_PREFIX}${randomBytes(12).toString('base64url')}`;

export const newSecret = (): string => randomBytes(32).toString('base64url');

export const hashSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

export const tokenOf = (credentialId: string, secret: string): string => `${credentialId}.${secret}`;

const TOKEN = /^(dc_[A-Za-z0-9_-]{1,60})\.([A-Za-z0-9_-]{20,128})$/;

/** @returns undefined for anything that is not a well-formed token */
export const parseToken = (token: unknown): { credentialId: string; secret: string } | undefined => {
  if (typeof token !== 'string') return undefined;
  const match = TOKEN.exec(token.trim());
  return match ? { credentialId: match[1]!, secret: match[2]! } : undefined;
};

/** Compares a secret with a stored hex hash in constant time (for hashes of equal length). */
export const secretMatches = (secret: string, storedHash: unknown): boolean => {
  if (typeof storedHash !== 'string') return false;
  const expected = Buffer.from(storedHash, 'hex');
  const actual = Buffer.from(hashSecret(secret), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
};
