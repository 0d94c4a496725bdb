import type * as z from 'zod';
import { MESSAGES } from '../messages';
import { type AnyRoute, type Area, fillPath, type RouteRequest, type RouteResponse } from './define-route';
import { ErrorBody } from './errors';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.message);
  }
}

/** Spec §8 REST client errors: no API is configured at all, or not the one asked for. */
export class RestApiConfigError extends Error {
  override readonly name = 'RestApiConfigError';
}

/**
 * The base URL of one API (a service area) from the configured ones (`apiBaseUrls` of the runtime configuration):
 * none configured is 'API category not configured', a name without a URL 'API {name} does not exist'.
 */
export const resolveApiBaseUrl = (configured: Record<string, string> | undefined, name: string): string => {
  if (!configured || Object.keys(configured).length === 0)
    throw new RestApiConfigError(MESSAGES.apiCategoryNotConfigured);
  const url = Object.hasOwn(configured, name) ? configured[name] : undefined;
  if (!url) throw new RestApiConfigError(MESSAGES.apiDoesNotExist(name));
  return url;
};

export interface ClientOptions {
  /** The area's base URL: `http://localhost:3000/system` locally, `https://system.{apiHost}` in the cloud. */
  baseUrl: string;
  /** Returns the caller's token, or undefined for a guest. */
  getToken?: () => Promise<string | undefined> | string | undefined;
  /** Sent with every request (e.g. `x-api-key` for the public API). */
  headers?: Record<string, string>;
  fetch?: typeof fetch;
}

export type AreaClient<A extends Area> = {
  [K in keyof A['routes']]: (request: RouteRequest<A['routes'][K]>) => Promise<RouteResponse<A['routes'][K]>>;
};

const toQueryString = (query: Record<string, unknown> | undefined): string => {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
};

const readError = async (response: Response): Promise<ErrorBody> => {
  const text = await response.text();
  try {
    return ErrorBody.parse(JSON.parse(text));
  } catch {
    return { message: text || response.statusText || `HTTP ${response.status}` };
  }
};

/** Calls one route: fills the path, sends the token, parses the response with the route's own schema. */
export const callRoute = async <R extends AnyRoute>(
  route: R,
  request: RouteRequest<R>,
  options: ClientOptions,
): Promise<RouteResponse<R>> => {
  const { params, query, body } = request as {
    params?: Record<string, unknown>;
    query?: Record<string, unknown>;
    body?: unknown;
  };
  const url = `${options.baseUrl.replace(/\/$/, '')}${fillPath(route.path, params ?? {})}${toQueryString(query)}`;
  const token = await options.getToken?.();
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await (options.fetch ?? fetch)(url, {
    method: route.method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new ApiError(response.status, await readError(response));
  if (response.status === 204) return undefined as RouteResponse<R>;
  return (route.response as z.ZodType).parse(await response.json()) as RouteResponse<R>;
};

export const createAreaClient = <A extends Area>(area: A, options: ClientOptions): AreaClient<A> =>
  Object.fromEntries(
    Object.entries(area.routes).map(([name, route]) => [
      name,
      (request: RouteRequest<AnyRoute>) => callRoute(route, request, options),
    ]),
  ) as unknown as AreaClient<A>;
