/**
 * Spec §9 session rules, pure (no document, no clock of its own) so the unit tests cover them:
 * - Amplify keeps the tokens in cookies that live 1 year (the refresh token's own validity still decides
 *   whether they can be refreshed);
 * - a separate session cookie of 7 days records when the session started; while tokens remain, a session
 *   cookie that is gone or older than 7 days ends the session as expired;
 * - every cookie has path /, same-site strict (lax locally) and secure except locally, as the runtime
 *   configuration says (never decided by code that asks which environment it runs in).
 */

export const DAY_MS = 24 * 60 * 60 * 1000;
/** The session cookie: when the session started. */
export const SESSION_COOKIE = 'ddp.session-started';
export const SESSION_MAX_AGE_DAYS = 7;
export const SESSION_MAX_AGE_MS = SESSION_MAX_AGE_DAYS * DAY_MS;
/** Amplify's token cookies. */
export const TOKEN_COOKIE_DAYS = 365;

export interface CookiePolicy {
  secure: boolean;
  sameSite: 'strict' | 'lax';
}

export type SessionVerdict =
  /** No tokens: a guest, nothing to end. */
  | 'none'
  /** Tokens and a session cookie younger than 7 days. */
  | 'active'
  /**
   * Tokens, but the session cookie is gone, unreadable, from the future or older than 7 days; or the tokens
   * were there and could not be refreshed (revoked by a global sign-out, expired, user disabled).
   */
  | 'expired';

export const sessionVerdict = ({
  hasTokens,
  startedAt,
  now,
  refreshFailed = false,
}: {
  hasTokens: boolean;
  startedAt: number | undefined;
  now: number;
  /**
   * Amplify failed to refresh the stored tokens while they were read. It then clears them and answers as it
   * would for a guest, so without this a session that ended elsewhere would look like no session at all.
   */
  refreshFailed?: boolean;
}): SessionVerdict => {
  if (!hasTokens) return refreshFailed ? 'expired' : 'none';
  if (startedAt === undefined || !Number.isFinite(startedAt)) return 'expired';
  // A start in the future is a tampered or skewed cookie: it must not extend the session.
  if (startedAt > now + 5 * 60 * 1000) return 'expired';
  return now - startedAt >= SESSION_MAX_AGE_MS ? 'expired' : 'active';
};

/** The value of one cookie in a `document.cookie` string, decoded; undefined when absent. */
export const readCookie = (cookies: string, name: string): string | undefined => {
  for (const part of cookies.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (decoded(part.slice(0, index).trim()) !== name) continue;
    return decoded(part.slice(index + 1).trim());
  }
  return undefined;
};

/** A cookie's name or value as js-cookie (Amplify's cookie store) wrote it, percent-encoded, read back. */
const decoded = (raw: string): string => {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
};

/** The epoch milliseconds the session cookie holds; undefined when missing or not a number. */
export const parseSessionStart = (value: string | undefined): number | undefined => {
  if (!value || !/^\d{1,16}$/.test(value)) return undefined;
  return Number(value);
};

/** A `document.cookie` assignment: the session cookie set to `startedAt`, expiring 7 days later. */
export const sessionCookieString = (startedAt: number, policy: CookiePolicy): string =>
  cookieString(SESSION_COOKIE, String(startedAt), {
    ...policy,
    expires: new Date(startedAt + SESSION_MAX_AGE_MS),
  });

/** A `document.cookie` assignment that removes the session cookie. */
export const clearSessionCookieString = (policy: CookiePolicy): string =>
  cookieString(SESSION_COOKIE, '', { ...policy, expires: new Date(0) });

const cookieString = (name: string, value: string, options: CookiePolicy & { expires: Date }): string =>
  [
    `${name}=${encodeURIComponent(value)}`,
    'path=/',
    `expires=${options.expires.toUTCString()}`,
    `samesite=${options.sameSite}`,
    ...(options.secure ? ['secure'] : []),
  ].join('; ');
