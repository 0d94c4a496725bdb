/**
 * Pure rules about where the app sends people (spec §2): the login redirect with its destination, the
 * section a path belongs to, and the admin equivalent of a dashboard path. No React, no browser globals,
 * so the unit tests run them in node.
 */

export const DEFAULT_DESTINATION = '/dashboard';
export const LOGIN_PATH = '/login';

/** Why the login page was opened; shown to the user in words (see ui-messages.ts). */
export type LoginReason = 'session-expired' | 'signed-out';

/** How a session ended: decides where the route guard sends the user. */
export type SessionEnd = 'signed-out' | 'session-expired' | 'signed-out-elsewhere';

export type Section = 'admin' | 'dashboard';

// Only used to resolve a relative path; never shown and never requested.
const PROBE_ORIGIN = 'https://app.invalid';

/** Whether `pathname` is `path` or a page under it (`/dashboard/api/keys` is under `/dashboard/api`). */
export const isAtOrUnder = (pathname: string, path: string): boolean =>
  pathname === path || pathname.startsWith(`${path}/`);

/**
 * The path to go to after sign-in. Only a same-origin path starting with a single `/` is accepted:
 * `//evil.example`, `/\evil.example`, `https://…` and paths that the URL parser would turn into another
 * host (tabs and newlines are stripped by browsers) fall back to the dashboard, and so does the login
 * page itself, which would only loop.
 */
export const safeDestination = (raw: string | null | undefined, fallback = DEFAULT_DESTINATION): string => {
  if (!raw?.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return fallback;
  let url: URL;
  try {
    url = new URL(raw, PROBE_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== PROBE_ORIGIN) return fallback;
  if (isAtOrUnder(url.pathname, LOGIN_PATH)) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
};

/** Spec §2: `/login?destination={encoded path+query+hash}&reason=…`. */
export const loginPath = (
  location: { pathname: string; search?: string; hash?: string },
  reason?: LoginReason,
): string => {
  const destination = `${location.pathname}${location.search ?? ''}${location.hash ?? ''}`;
  const parts = [`destination=${encodeURIComponent(destination)}`];
  if (reason) parts.push(`reason=${encodeURIComponent(reason)}`);
  return `${LOGIN_PATH}?${parts.join('&')}`;
};

/**
 * Where a guest is sent from a protected page: after their own sign-out to the plain login page, else to
 * the login page that brings them back here, with the reason when the session ended on its own.
 */
export const loginRedirect = (
  location: { pathname: string; search?: string; hash?: string },
  ended: SessionEnd | undefined,
): string => {
  switch (ended) {
    case 'signed-out':
      return LOGIN_PATH;
    case 'session-expired':
      return loginPath(location, 'session-expired');
    case 'signed-out-elsewhere':
      return loginPath(location, 'signed-out');
    default:
      return loginPath(location);
  }
};

/** Spec §2: the section is admin when the path starts with /admin, otherwise dashboard. */
export const sectionOf = (pathname: string): Section =>
  pathname === '/admin' || pathname.startsWith('/admin/') ? 'admin' : 'dashboard';

/** Spec §2's admin link rule lives with the notification links, which the worker's e-mails use too. */
export { adminEquivalent } from '../../../shared/notifications/links';
