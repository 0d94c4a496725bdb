import { runtimeConfig } from './runtime-config';
import {
  clearSessionCookieString,
  parseSessionStart,
  readCookie,
  SESSION_COOKIE,
  sessionCookieString,
} from './session-rules';

/** The browser side of the session cookie (spec §9); the rules themselves are in session-rules.ts. */

export const readSessionStart = (): number | undefined =>
  parseSessionStart(readCookie(document.cookie, SESSION_COOKIE));

/** Marks now as the start of the session: called on every completed sign-in. */
export const markSessionStart = (now = Date.now()): void => {
  // biome-ignore lint/suspicious/noDocumentCookie: one cookie with explicit attributes; no library needed.
  document.cookie = sessionCookieString(now, runtimeConfig().cookies);
};

export const clearSessionStart = (): void => {
  // biome-ignore lint/suspicious/noDocumentCookie: see markSessionStart.
  document.cookie = clearSessionCookieString(runtimeConfig().cookies);
};
