import { hasRole } from '../auth/groups';

/** Spec §2: the pages a notification links to. */
export type LinkTarget = { kind: 'person' | 'device' | 'organization'; id: string };

const SEGMENT: Record<LinkTarget['kind'], string> = {
  person: 'people',
  device: 'devices',
  organization: 'organizations',
};

/**
 * Spec §2: staff on a /dashboard path get an equivalent /admin link, unless the last path segment is a
 * bracketed dynamic parameter (`[id]`). Undefined when there is no equivalent.
 */
export const adminEquivalent = (pathname: string): string | undefined => {
  if (pathname !== '/dashboard' && !pathname.startsWith('/dashboard/')) return undefined;
  const last = pathname.split('/').filter(Boolean).at(-1) ?? '';
  if (/^\[.*\]$/.test(last)) return undefined;
  return `/admin${pathname.slice('/dashboard'.length)}`;
};

/**
 * The path a notification links to for one viewer (spec §2): `/dashboard/{people|devices|organizations}/{id}`,
 * and its /admin equivalent for employees and administrators (so `/admin/people/{id}` for administrators).
 * A target that is still a template (`[id]`) stays on the dashboard.
 */
export const linkFor = (target: LinkTarget | string, viewerGroups: readonly string[]): string => {
  const path =
    typeof target === 'string' ? target : `/dashboard/${SEGMENT[target.kind]}/${encodeURIComponent(target.id)}`;
  return hasRole(viewerGroups, 'Employees') ? (adminEquivalent(path) ?? path) : path;
};

/**
 * Rewrites the dashboard links inside a notification body for one viewer (a body is stored once, with
 * /dashboard links; staff read the /admin ones). Only `href="/dashboard…"` attributes change.
 */
export const linksForViewer = (html: string, viewerGroups: readonly string[]): string =>
  hasRole(viewerGroups, 'Employees')
    ? html.replace(/href="(\/dashboard(?:\/[^"]*)?)"/g, (whole, path: string) => {
        const admin = adminEquivalent(path.split(/[?#]/)[0]!);
        return admin ? `href="${admin}${path.slice(path.split(/[?#]/)[0]!.length)}"` : whole;
      })
    : html;
