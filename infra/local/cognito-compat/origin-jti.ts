import { createPrivateKey, createPublicKey, createSign, createVerify } from 'node:crypto';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// The key cognito-local signs every token with (its JWKS serves the public half, kid "CognitoLocal").
const { pem } = require('cognito-local/lib/keys/cognitoLocal.private.json') as { pem: string };
const signingKey = createPrivateKey(pem);
const verifyingKey = createPublicKey(signingKey);

/**
 * A token cognito-local signed and that has not expired: a refresh token like that which no user holds any more was
 * revoked (cognito-local's RevokeToken forgets it), not made up.
 */
export const signedHere = (token: unknown, now: number): boolean => {
  if (typeof token !== 'string') return false;
  const [header, payload, signature] = token.split('.');
  if (!header || !payload || !signature) return false;
  const valid = createVerify('RSA-SHA256').update(`${header}.${payload}`).verify(verifyingKey, signature, 'base64url');
  const exp = claimsOf(token)?.exp;
  return valid && typeof exp === 'number' && exp * 1000 > now;
};

/** Reads a cognito-local JWT's claims without verifying them: cognito-local issued it and checks it itself. */
export const claimsOf = (token: unknown): Record<string, unknown> | undefined => {
  if (typeof token !== 'string') return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
    return claims && typeof claims === 'object' ? (claims as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

/** The same token with `extra` claims, signed again by cognito-local's key; its header (kid, RS256) is kept. */
const withClaims = (token: string, extra: Record<string, unknown>): string => {
  const [header = '', ,] = token.split('.');
  const payload = Buffer.from(JSON.stringify({ ...claimsOf(token), ...extra })).toString('base64url');
  const signed = `${header}.${payload}`;
  return `${signed}.${createSign('RSA-SHA256').update(signed).sign(signingKey).toString('base64url')}`;
};

/** The refresh token's id (`jti`), which Cognito gives the access and ID tokens it mints as `origin_jti`. */
export const refreshTokenId = (refreshToken: unknown): string | undefined => {
  const jti = claimsOf(refreshToken)?.jti;
  return typeof jti === 'string' ? jti : undefined;
};

/** An access or ID token's `origin_jti`: the refresh token it came from. */
export const originOf = (token: unknown): string | undefined => {
  const origin = claimsOf(token)?.origin_jti;
  return typeof origin === 'string' ? origin : undefined;
};

interface AuthResult {
  AuthenticationResult?: { AccessToken?: string; IdToken?: string; RefreshToken?: string };
}

/**
 * Cognito stamps the access and ID tokens of a client with token revocation on with `origin_jti`, the id of the
 * refresh token they belong to (the one issued beside them, or the one a refresh used). Amplify revokes the refresh
 * token on sign-out only when the access token carries it, and a revoked refresh token takes its access tokens
 * with it; cognito-local stamps nothing, so this layer does.
 */
export const stampOrigin = <T>(result: T, refreshToken?: unknown): T => {
  const auth = (result as AuthResult | undefined)?.AuthenticationResult;
  const origin = refreshTokenId(refreshToken ?? auth?.RefreshToken);
  if (!auth || !origin) return result;
  return {
    ...result,
    AuthenticationResult: {
      ...auth,
      ...(auth.AccessToken ? { AccessToken: withClaims(auth.AccessToken, { origin_jti: origin }) } : {}),
      ...(auth.IdToken ? { IdToken: withClaims(auth.IdToken, { origin_jti: origin }) } : {}),
    },
  };
};
