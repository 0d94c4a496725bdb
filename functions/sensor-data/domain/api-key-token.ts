import { randomBytes } from 'node:crypto';
import { newSecret } from '../../_shared/devices/credential-token';

/**
 * A public API key is `ak_{keyId}.{secret}`, as a device credential is `{credentialId}.{secret}`: the id finds the
 * stored row, the 32-byte random secret is checked against its SHA-256 (credential-token.ts says why a fast hash is
 * enough for random secrets). The prefix tells a key from a device credential or a token at a glance.
 */
export const API_KEY_PREFIX = 'ak_';

export const newKeyId = (): string => randomBytes(12).toString('base64url');

export const newApiKeySecret = newSecret;

export const apiKeyOf = (keyId: string, secret: string): string => `${API_KEY_PREFIX}${keyId}.${secret}`;

const API_KEY = /^ak_([A-Za-z0-9_-]{8,64})\.([A-Za-z0-9_-]{20,128})$/;

/** @returns undefined for anything that is not a well-formed key */
export const parseApiKey = (key: unknown): { keyId: string; secret: string } | undefined => {
  if (typeof key !== 'string') return undefined;
  const match = API_KEY.exec(key.trim());
  return match ? { keyId: match[1]!, secret: match[2]! } : undefined;
};
