import * as z from 'zod';
import type { GroupName } from '../auth/groups';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route. `guest`: anyone, with or without a token (a bad token is still 401);
 * `signedIn`: any verified token; `group`: the caller's best precedence reaches the group's (spec §6);
 * `device`: a device's ingress credential (`Authorization: Bearer dc_…`), never a person's token;
 * `apiKey`: a person's public API key (`X-Api-Key: ak_…`), which acts as its owner and is metered.
 */
export type Access =
  | { kind: 'guest' }
  | { kind: 'signedIn' }
  | { kind: 'group'; group: GroupName }
  | { kind: 'device' }
  | { kind: 'apiKey' };

export const guest = { kind: 'guest' } as const satisfies Access;
export const signedIn = { kind: 'signedIn' } as const satisfies Access;
export const minGroup = <G extends GroupName>(group: G) => ({ kind: 'group', group }) as const satisfies Access;
export const deviceCredential = { kind: 'device' } as const satisfies Access;
export const apiKey = { kind: 'apiKey' } as const satisfies Access;

/** The header that carries a public API key. */
export const API_KEY_HEADER = 'x-api-key';

// biome-ignore lint/suspicious/noExplicitAny: a contract may carry any zod object shape
type AnyObject = z.ZodObject<any>;
// biome-ignore lint/suspicious/noExplicitAny: a route's own schemas are checked where it is defined
export type AnyRoute = RouteDefinition<any, any, any, any, Access>;

export interface RouteDefinition<
  P extends AnyObject = AnyObject,
  Q extends AnyObject = AnyObject,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
  AC extends Access = Access,
> {
  method: HttpMethod;
  /** API Gateway style template, e.g. `/parameters/{id}`; spelled as the spec spells it. */
  path: string;
  access: AC;
  summary: string;
  params?: P;
  query?: Q;
  body?: B;
  response: R;
  /** @default 200 (204 when the response is `z.void()`) */
  status?: number;
  /** The largest body the route takes, in bytes. @default 256 KiB (functions/_shared/http/request-checks.ts) */
  maxBodyBytes?: number;
  /**
   * Whether the chain refuses the whole body for a number a store cannot keep exactly. Off only for a batch whose
   * items the route checks (and refuses) one by one. @default true
   */
  checkBodyNumbers?: boolean;
  /**
   * The shape of every refusal on the route, and on any path under its fixed part (`/sta/v1.1` for
   * `/sta/v1.1/{path+}`), whoever refuses: the chain's checks, the handler, the local gateway. @default 'platform'
   */
  errorShape?: ErrorShape;
}

/**
 * How an error answer is written: the API's own `{message, issues?}`, or OData's `{error: {code, message, target?,
 * details?}}` (OData JSON Format 4.01 §21.1) for a route that speaks a standard built on OData (SensorThings), whose
 * clients read only that.
 */
export type ErrorShape = 'platform' | 'odata';

export const defineRoute = <
  P extends AnyObject = never,
  Q extends AnyObject = never,
  B extends z.ZodType = never,
  R extends z.ZodType = z.ZodType,
  const AC extends Access = Access,
>(
  route: RouteDefinition<P, Q, B, R, AC>,
) => route;

export type Routes = Record<string, AnyRoute>;

/** A request the platform sends (a webhook event): OpenAPI 3.1's `webhooks`, one per type. */
export interface OutgoingEvent {
  summary: string;
  schema: z.ZodType;
}

export interface Area<N extends string = string, R extends Routes = Routes> {
  /** Service area name: the local gateway prefix `/{name}`, the cloud host `{name}.{apiHost}`. */
  name: N;
  routes: R;
  /** What the area sends to others' URLs, by event type (the integrations area's webhooks). */
  webhooks?: Record<string, OutgoingEvent>;
}

export const defineArea = <const N extends string, R extends Routes>(
  name: N,
  routes: R,
  extras: { webhooks?: Record<string, OutgoingEvent> } = {},
): Area<N, R> => ({ name, routes, ...extras });

// A part the route leaves out is inferred as `never` or `any` (depending on the compiler); both mean absent.
type IsAny<S> = 0 extends 1 & S ? true : false;
type Defined<S> = IsAny<S> extends true ? never : [NonNullable<S>] extends [never] ? never : NonNullable<S>;
type Infer<S, Fallback> = [Defined<S>] extends [never]
  ? Fallback
  : Defined<S> extends z.ZodType
    ? z.infer<Defined<S>>
    : Fallback;
type Input<S> = Defined<S> extends z.ZodType ? z.input<Defined<S>> : never;

/** What a handler receives: parsed and validated by the chain. */
export interface ParsedRequest<R extends AnyRoute> {
  params: Infer<R['params'], Record<string, never>>;
  query: Infer<R['query'], Record<string, never>>;
  body: Infer<R['body'], undefined>;
}
export type RouteResponse<R extends AnyRoute> = z.infer<R['response']>;

/** What a client sends: schema inputs (defaults and coercions stay optional); absent parts are not asked for. */
export type RouteRequest<R extends AnyRoute> = ([Defined<R['params']>] extends [never]
  ? { params?: undefined }
  : { params: Input<R['params']> }) &
  ([Defined<R['query']>] extends [never] ? { query?: undefined } : { query?: Input<R['query']> }) &
  ([Defined<R['body']>] extends [never] ? { body?: undefined } : { body: Input<R['body']> });

export const successStatus = (route: AnyRoute): number =>
  route.status ?? (route.response instanceof z.ZodVoid ? 204 : 200);

/**
 * The names in `{braces}` of a path template, in order. A name ending in `+` (`{path+}`, API Gateway's greedy
 * parameter, only as the last segment) takes the rest of the path, slashes included; its name is without the `+`.
 */
export const pathParamNames = (path: string): string[] =>
  [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!.replace(/\+$/, ''));

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

export const routeKey = (method: string, path: string): string => `${method.toUpperCase()} ${normalizePath(path)}`;

/**
 * The error shape of a request path (a concrete path or a route's template), whatever its method: that of a route
 * whose fixed part (its path before the first parameter) is the path or one of its ancestors, so a method a route
 * does not take or a path no route matches under a standard's root is refused as that standard writes it.
 */
export const errorShapeOf = (routes: Routes): ((path: string) => ErrorShape) => {
  const roots = Object.values(routes)
    .filter((route) => route.errorShape && route.errorShape !== 'platform')
    .map((route) => ({ root: normalizePath(route.path.split('{')[0]!), shape: route.errorShape! }));
  return (path) => {
    const target = normalizePath(path);
    return roots.find(({ root }) => target === root || target.startsWith(`${root}/`))?.shape ?? 'platform';
  };
};

const safeDecode = (text: string): string | undefined => {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
};

/** A route found for a request path, a path parameter that is not valid percent-encoding, or the wrong method. */
export type RouteMatch =
  | { name: string; route: AnyRoute; params: Record<string, string> }
  | { badEncoding: string }
  | 'method-not-allowed';

/** Matches a concrete request path against one area's routes; used by the local gateway. */
export const createRouteMatcher = (routes: Routes) => {
  const compiled = Object.entries(routes).map(([name, route]) => {
    const names = pathParamNames(route.path);
    const pattern = normalizePath(route.path)
      .split('/')
      .map((segment) =>
        /^\{[^}]+\+\}$/.test(segment)
          ? '(.+)'
          : /^\{[^}]+\}$/.test(segment)
            ? '([^/]+)'
            : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('/');
    return { name, route, names, regex: new RegExp(`^${pattern}$`) };
  });
  return (method: string, path: string): RouteMatch | undefined => {
    const target = normalizePath(path);
    let pathMatched = false;
    for (const c of compiled) {
      const m = c.regex.exec(target);
      if (!m) continue;
      pathMatched = true;
      if (c.route.method !== method.toUpperCase()) continue;
      const params: Record<string, string> = {};
      for (const [i, n] of c.names.entries()) {
        const value = safeDecode(m[i + 1]!);
        // A `%ZZ`, a trailing `%` or a broken UTF-8 sequence: the client's mistake, answered 400 by the gateway.
        if (value === undefined) return { badEncoding: n };
        params[n] = value;
      }
      return { name: c.name, route: c.route, params };
    }
    return pathMatched ? 'method-not-allowed' : undefined;
  };
};
