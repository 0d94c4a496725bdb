/**
 * A route's URL from its path template and a request, without zod: the typed client (client.ts) and the web app's
 * early reads (frontend/src/early-reads.ts, which runs before the app's code and its schemas have arrived) build
 * their URLs with it, so a read asked for early is the very URL the client asks for.
 */

/** `/parameter/` and `/parameter` are one resource (API Gateway ignores a trailing slash). */
export const normalizePath = (path: string): string => (path.length > 1 ? path.replace(/\/+$/, '') : path);

export const fillPath = (path: string, params: Record<string, unknown>): string =>
  normalizePath(path).replace(/\{([^}]+)\}/g, (_m, template: string) => {
    const greedy = template.endsWith('+');
    const name = greedy ? template.slice(0, -1) : template;
    const value = params[name];
    if (value === undefined || value === null || String(value) === '') {
      throw new Error(`Missing path parameter "${name}" for ${path}`);
    }
    // A greedy parameter keeps its slashes: each segment is encoded on its own.
    return greedy ? String(value).split('/').map(encodeURIComponent).join('/') : encodeURIComponent(String(value));
  });

const toQueryString = (query: Record<string, unknown> | undefined): string => {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
};

/** The URL of a route (`path`, a template) under an area's base URL, for a request's params and query. */
export const routeUrl = (
  baseUrl: string,
  path: string,
  request: { params?: Record<string, unknown>; query?: Record<string, unknown> },
): string => `${baseUrl.replace(/\/$/, '')}${fillPath(path, request.params ?? {})}${toQueryString(request.query)}`;
