import type { AuthTokens, JWT } from 'aws-amplify/auth';
import { readCookie } from './session-rules';

/**
 * The tokens Amplify keeps in this browser's cookies, read without Amplify while they are fresh (issue 36, decision
 * 111): a returning person's first page asks the API at once, instead of after Amplify's chunks (about 28 kB in six
 * files, asked for once the entry has run) have arrived and run. Tokens near or past their expiry are not answered:
 * Amplify reads them then, and refreshes them, as before.
 *
 * The names are Amplify's token store's (`CognitoIdentityServiceProvider.{clientId}.LastAuthUser`, then
 * `….{username}.accessToken`, `.idToken`, `.clockDrift`), written by js-cookie, whose encoding `readCookie` reads.
 */

/** Tokens this close to expiry are left to Amplify, which refreshes them (its own margin is 5 s). */
export const FRESH_MARGIN_MS = 60_000;

/** The start of the names of Amplify's token cookies (`CognitoIdentityServiceProvider.{clientId}.…`). */
export const TOKEN_COOKIE_PREFIX = 'CognitoIdentityServiceProvider.';

/**
 * A JWT's payload, as Amplify's `decodeJWT` reads it (the signature is the API's to check, not the browser's). Not
 * Amplify's own: importing it would bring the chunks this module is here to wait without.
 */
const decode = (token: string): JWT | undefined => {
  const parts = token.split('.');
  const part = parts[1];
  if (parts.length !== 3 || !part) return undefined;
  try {
    const json = atob(part.replace(/-/g, '+').replace(/_/g, '/'));
    const payload = JSON.parse(decodeURIComponent(escapeBytes(json))) as JWT['payload'];
    return payload && typeof payload === 'object' ? { payload, toString: () => token } : undefined;
  } catch {
    return undefined;
  }
};

/** The binary string `atob` gives, as percent-escapes, so `decodeURIComponent` reads it as UTF-8. */
const escapeBytes = (binary: string) =>
  Array.from(binary, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');

interface Decoded {
  accessToken: JWT;
  idToken: JWT;
  /** Amplify's stored clock drift (issuer's clock minus this browser's), in ms. */
  drift: number;
}

/**
 * The last cookies decoded, and what they held: every API call reads the tokens, and a device page makes about twenty
 * as it loads; the cookies change only when Amplify stores new tokens.
 */
let lastDecoded: { cookies: string; clientId: string; decoded: Decoded | undefined } | undefined;

const decodeStored = (cookies: string, clientId: string): Decoded | undefined => {
  const read = (name: string) => readCookie(cookies, `${TOKEN_COOKIE_PREFIX}${clientId}.${name}`);
  const username = read('LastAuthUser');
  if (!username) return undefined;
  const accessRaw = read(`${username}.accessToken`);
  const idRaw = read(`${username}.idToken`);
  const accessToken = accessRaw ? decode(accessRaw) : undefined;
  const idToken = idRaw ? decode(idRaw) : undefined;
  if (!accessToken || !idToken) return undefined;
  const drift = Number.parseInt(read(`${username}.clockDrift`) ?? '0', 10);
  return { accessToken, idToken, drift: Number.isFinite(drift) ? drift : 0 };
};

/**
 * The access and ID tokens of `clientId` stored in `cookies` (a `document.cookie` string), when both are there and
 * neither expires within `FRESH_MARGIN_MS` of `now` on the issuer's clock (Amplify's stored clock drift applied, as
 * its own expiry check does); otherwise undefined, and Amplify is asked.
 */
export const freshStoredTokens = (cookies: string, clientId: string, now: number): AuthTokens | undefined => {
  if (lastDecoded?.cookies !== cookies || lastDecoded.clientId !== clientId)
    lastDecoded = { cookies, clientId, decoded: decodeStored(cookies, clientId) };
  const stored = lastDecoded.decoded;
  if (!stored) return undefined;
  const issuerNow = now + stored.drift;
  const fresh = (token: JWT) =>
    typeof token.payload.exp === 'number' && issuerNow + FRESH_MARGIN_MS < token.payload.exp * 1000;
  return fresh(stored.accessToken) && fresh(stored.idToken)
    ? { accessToken: stored.accessToken, idToken: stored.idToken }
    : undefined;
};
