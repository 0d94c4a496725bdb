import { randomUUID } from 'node:crypto';
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type * as z from 'zod';
import { hasRole, isStaff } from '../../../shared/auth/groups';
import { type Caller, createTokenVerifier, TokenRejected, type TokenVerifier } from '../../../shared/auth/verify-token';
import { type AnyAuditMap, type AuditMap, isAudited } from '../../../shared/contracts/define-audit';
import {
  type Access,
  type AnyRoute,
  API_KEY_HEADER,
  type Area,
  type ParsedRequest,
  type RouteResponse,
  type Routes,
  routeKey,
  successStatus,
} from '../../../shared/contracts/define-route';
import { OPENAPI_PATH, openApiOptionsOf, toOpenApi } from '../../../shared/contracts/openapi';
import { AUDIT_LOG_ENV, createAuditLogStore } from '../audit/audit-log-store';
import { type AuditNote, NO_AUDIT } from '../audit/audit-note';
import { type AuditLog, type AuditTrail, auditsCall, startTrail } from '../audit/audit-trail';
import { getDocumentClient } from '../clients';
import { readAuthEnv, readEnv, readListEnv } from '../env';
import { BadRequest, Forbidden, MethodNotAllowed, NotFound, Unauthorized } from '../errors';
import { type KeyRead, NOTHING_AHEAD, type ReadAhead } from '../read-ahead';
import { lambdaTelemetry } from '../telemetry';
import { corsHeaders, httpErrors } from './http-errors';
import { checkTextParts, REQUEST_MESSAGES, readJsonBody } from './request-checks';
import { createSessionGuard, type SessionGuard } from './session-guard';

type CallerFor<AC> = AC extends { kind: 'guest' }
  ? Caller | undefined
  : AC extends { kind: 'device' }
    ? undefined
    : Caller;

/** A device proven by its ingress credential. */
export interface DevicePrincipal {
  deviceId: string;
}

/** A public API key; the request's caller is the key's owner. */
export interface ApiKeyPrincipal {
  keyId: string;
  ownerId: string;
}

type CredentialFor<AC> = AC extends { kind: 'device' }
  ? { device: DevicePrincipal }
  : AC extends { kind: 'apiKey' }
    ? { apiKey: ApiKeyPrincipal }
    : unknown;

export type RouteHandler<R extends AnyRoute, D> = (
  request: ParsedRequest<R> & {
    caller: CallerFor<R['access']>;
    /** Adds a header to the success response (errors carry their own, see DomainError.headers). */
    setHeader: (name: string, value: string) => void;
    /** The client's address as the API saw it: what limits guests, who have no identity. */
    sourceIp: string;
    /** The body as sent, for a route that must check a signature over the exact bytes (a webhook). */
    rawBody: string | undefined;
    /** A request header by name (any case). */
    header: (name: string) => string | undefined;
    /**
     * The URL the request was sent to, without its query (the stage or custom domain's base included): what an answer
     * that links to itself builds its links from.
     */
    url: string;
    /** The items the route's read-ahead named, read with the session record (see HttpAreaOptions.readAhead). */
    ahead: ReadAhead;
    /**
     * What the route's read-beside started with the session record (see HttpAreaOptions.readBeside), for the handler
     * to use once the session and access have passed; undefined when it started nothing.
     */
    beside: unknown;
    /**
     * What the use case tells the audit log: the target before the change, after it, and its name (docs/audit.md).
     * Records nothing for a call that is not a staff action.
     */
    audit: AuditNote;
  } & CredentialFor<R['access']>,
  deps: D,
) => Promise<RouteResponse<R>> | RouteResponse<R>;

/** Authenticators for the non-person credentials; an area with `device` or `apiKey` routes must supply its own. */
export interface CredentialAuthenticators {
  /** The device a `dc_…` credential proves, or undefined when it proves none. */
  device?: () => (token: string) => Promise<DevicePrincipal | undefined>;
  /**
   * The key and its owner's caller (no staff groups: a key acts through the owner's relations only), or
   * undefined when the key is unknown or revoked. The session guard then applies to the owner.
   */
  apiKey?: () => (key: string) => Promise<{ apiKey: ApiKeyPrincipal; caller: Caller } | undefined>;
}

/**
 * The items a route's handler will read by key, named from its input and the token's caller before the session is
 * checked, so they are read in the same round trip as the session record. Only an optimisation: whatever the
 * handler needs and finds no item for here, it reads itself.
 */
export type ReadAheadOf<R extends AnyRoute, D> = (
  request: Pick<ParsedRequest<R>, 'params' | 'query'> & { caller: Caller | undefined },
  deps: D,
) => readonly KeyRead[];

/** The read-ahead of some routes of a part of an area's routes. */
export type PartReadAhead<R extends Routes, D> = { [K in keyof R]?: ReadAheadOf<R[K], D> };

/**
 * Starts what a route's handler will read but cannot name by key (a Query), beside the session record, so the request
 * waits for one round trip, not two (docs/decisions/013-read-ahead-with-the-session-record.md). It runs before the
 * session and access are checked: it may only read, and what it read reaches the caller only through the handler,
 * which runs once they passed. Answers what the handler gets as `beside` (its promises already caught: a refused
 * request drops it unread).
 */
export type ReadBesideOf<R extends AnyRoute, D> = (
  request: Pick<ParsedRequest<R>, 'params' | 'query'> & { caller: Caller | undefined },
  deps: D,
) => object | undefined;

/** The read-beside of some routes of a part of an area's routes. */
export type PartReadBeside<R extends Routes, D> = { [K in keyof R]?: ReadBesideOf<R[K], D> };

/** One implementation per route of a part of an area's routes (areas whose contract is split by part). */
export type PartHandlers<R extends Routes, D> = { [K in keyof R]: RouteHandler<R[K], D> };

/** One implementation per route of the area's contract: a missing or extra route is a compile error. */
export type AreaHandlers<A extends Area, D> = { [K in keyof A['routes']]: RouteHandler<A['routes'][K], D> };

/**
 * Some of an area's handlers, in a file of their own, for an area whose contract is one list:
 * `export const peopleHandlers = { … } satisfies AreaPart<typeof users, PeopleHandlerDeps>`. The route names are the
 * contract's, never listed again (a name it does not have is an error); the area's handler.ts spreads its parts into
 * its AreaHandlers, which requires every route.
 */
export type AreaPart<A extends Area, D> = Partial<AreaHandlers<A, D>>;

export interface HttpAreaOptions<D, R extends Routes = Routes> {
  /** Builds the area's dependencies once per cold start. */
  deps: () => D;
  /** @default a verifier configured from AUTH_ISSUER and AUTH_CLIENT_IDS */
  verifier?: () => TokenVerifier;
  /** @default the comma-separated CORS_ORIGINS variable */
  corsOrigins?: readonly string[];
  /** @default the per-user session records of ACCESS_VERSIONS_TABLE */
  session?: () => SessionGuard;
  credentials?: CredentialAuthenticators;
  /** Per route, the keys its handler will read, read with the session record. @default none */
  readAhead?: PartReadAhead<R, D>;
  /** Per route, a read the handler will make that is started beside the session record. @default none */
  readBeside?: PartReadBeside<R, D>;
  /**
   * Which calls are staff actions, from the area's contract (`defineAudit`, docs/audit.md). Required, so an area
   * cannot be served without deciding; a route it does not name is never audited (audit-coverage.test.ts makes
   * sure every route that changes something is named).
   */
  audit: AuditMap<R>;
  /** @default the audit log table (AUDIT_LOG_TABLE), actors' e-mail from USERS_TABLE; read when a route is audited */
  auditLog?: () => AuditLog;
}

interface ChainState {
  route: AnyRoute;
  handlerName: string;
  caller?: Caller;
  device?: DevicePrincipal;
  apiKey?: ApiKeyPrincipal;
  input: { params: unknown; query: unknown; body: unknown };
  ahead: ReadAhead;
  beside?: object;
  /** Set when this call is a staff action: its attempt is recorded, its outcome will be. */
  trail?: AuditTrail;
}

type ChainContext = Context & { state?: ChainState };

const formatIssues = (part: string, error: z.ZodError) => {
  const issues = error.issues.map((issue) => ({
    path: [part, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  return new BadRequest(`Invalid ${part}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);
};

const parsePart = (part: string, schema: z.ZodType | undefined, value: unknown): unknown => {
  if (!schema) return part === 'body' ? undefined : {};
  const result = schema.safeParse(value);
  if (!result.success) throw formatIssues(part, result.error);
  return result.data;
};

const parseTextPart = (
  part: 'path' | 'query',
  schema: z.ZodType | undefined,
  values: Record<string, string | undefined> | null | undefined,
): unknown => {
  checkTextParts({ [part]: values });
  return parsePart(part, schema, values ?? {});
};

const headerOf = (event: APIGatewayProxyEvent, wanted: string): string | undefined =>
  Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === wanted)?.[1] ?? undefined;

/**
 * The URL as the client called it: API Gateway names the scheme in X-Forwarded-Proto (as the local gateway does), and
 * `requestContext.path` is the whole path (a stage or base path included) where `path` is the route's own.
 */
const requestUrl = (event: APIGatewayProxyEvent): string => {
  const host = headerOf(event, 'host') ?? event.requestContext?.domainName ?? 'localhost';
  const scheme = headerOf(event, 'x-forwarded-proto')?.split(',')[0]?.trim() ?? 'https';
  return `${scheme}://${host}${event.requestContext?.path ?? event.path}`;
};

const bearerToken = (event: APIGatewayProxyEvent): string | undefined => {
  const header = headerOf(event, 'authorization');
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  if (!match) throw new Unauthorized('Authorization header must be "Bearer <token>"');
  return match[1];
};

/**
 * Spec §7 sends an `idToken` in some bodies (`POST /api/aws`, the realtime routes). Whatever route takes one, it is
 * verified like a bearer token and must be an ID token of the caller, or the request is refused: a body can never
 * name someone else, in either home.
 */
const checkBodyIdToken = async (body: unknown, caller: Caller | undefined, verifier: () => TokenVerifier) => {
  const idToken = body !== null && typeof body === 'object' ? (body as { idToken?: unknown }).idToken : undefined;
  if (typeof idToken !== 'string') return;
  const holder = await verifier()(idToken).catch(() => undefined);
  if (!caller || holder?.tokenUse !== 'id' || holder.sub !== caller.sub) {
    throw new Forbidden(REQUEST_MESSAGES.idTokenNotYours);
  }
};

/** Spec §6 access: a guest only on guest routes; a bad token is 401 everywhere; too low a role is 403. */
export const checkAccess = (access: Access, caller: Caller | undefined): void => {
  if (access.kind === 'guest' || access.kind === 'device') return;
  if (!caller) throw new Unauthorized();
  if (access.kind === 'group' && !hasRole(caller.groups, access.group)) {
    throw new Forbidden(`This action requires the ${access.group} role`);
  }
};

/**
 * The area's OpenAPI document, its server the URL this request came through (the stage, or a custom domain's base
 * path): `requestContext.path` is the path as called, `resource` the path inside the API.
 */
const openApiResponse = (area: Area, event: APIGatewayProxyEvent, corsOrigins: readonly string[]) => {
  const { domainName, path } = event.requestContext ?? {};
  const base = domainName && path?.endsWith(OPENAPI_PATH) ? path.slice(0, -OPENAPI_PATH.length) : undefined;
  const document = toOpenApi(
    area,
    base === undefined ? undefined : `https://${domainName}${base}`,
    openApiOptionsOf(event.queryStringParameters),
  );
  return {
    statusCode: 200,
    headers: {
      'content-type': 'application/json',
      'cache-control': 'public, max-age=300',
      ...corsHeaders(event, corsOrigins),
    },
    body: JSON.stringify(document),
  } satisfies APIGatewayProxyResult;
};

/**
 * The HTTP chain, written once: route resolution, authentication and access from the contract,
 * input validation, the handler, response validation, and error mapping (outermost, so it sees every error).
 */
export const httpArea = <A extends Area, D>(
  area: A,
  handlers: AreaHandlers<A, D>,
  options: HttpAreaOptions<D, A['routes']>,
) => {
  const byKey = new Map(
    Object.entries(area.routes).map(([name, route]) => [routeKey(route.method, route.path), { name, route }]),
  );
  const resources = new Set([...byKey.keys()].map((key) => key.slice(key.indexOf(' ') + 1)));
  // Optional: an area without a browser client has no CORS origins.
  const corsOrigins = options.corsOrigins ?? readListEnv('CORS_ORIGINS');
  let deps: D | undefined;
  const getDeps = () => {
    deps ??= options.deps();
    return deps;
  };
  let verifier: TokenVerifier | undefined;
  const getVerifier = () => {
    verifier ??= options.verifier?.() ?? createTokenVerifier(readAuthEnv());
    return verifier;
  };
  let deviceAuthenticator: ReturnType<NonNullable<CredentialAuthenticators['device']>> | undefined;
  const getDeviceAuthenticator = () => {
    if (!options.credentials?.device)
      throw new Error(`The ${area.name} area has device routes but no device authenticator`);
    deviceAuthenticator ??= options.credentials.device();
    return deviceAuthenticator;
  };
  let apiKeyAuthenticator: ReturnType<NonNullable<CredentialAuthenticators['apiKey']>> | undefined;
  const getApiKeyAuthenticator = () => {
    if (!options.credentials?.apiKey)
      throw new Error(`The ${area.name} area has API-key routes but no key authenticator`);
    apiKeyAuthenticator ??= options.credentials.apiKey();
    return apiKeyAuthenticator;
  };
  // Read at cold start: an area deployed without its session table fails before serving anyone.
  const sessionGuard: SessionGuard = options.session?.() ?? createSessionGuard();
  const declarations = options.audit as AnyAuditMap;
  const undeclared = Object.keys(declarations).filter((name) => !(name in area.routes));
  if (undeclared.length > 0) {
    throw new Error(`The ${area.name} area's audit names routes it does not have: ${undeclared.join(', ')}`);
  }
  // Likewise an area with audited routes fails at start without the audit log's table.
  const auditLog: AuditLog | undefined = Object.values(declarations).some(isAudited)
    ? (options.auditLog?.() ??
      (() => {
        const env = readEnv(AUDIT_LOG_ENV);
        return createAuditLogStore({
          db: getDocumentClient(),
          tableName: env.auditLogTable,
          usersTable: env.usersTable,
        });
      })())
    : undefined;

  const core = async (event: APIGatewayProxyEvent, context: ChainContext): Promise<APIGatewayProxyResult> => {
    const state = context.state!;
    const implementation = handlers[state.handlerName as keyof A['routes']] as unknown as RouteHandler<AnyRoute, D>;
    const extraHeaders: Record<string, string> = {};
    const run = () =>
      implementation(
        {
          ...(state.input as ParsedRequest<AnyRoute>),
          caller: state.caller,
          setHeader: (name: string, value: string) => {
            extraHeaders[name.toLowerCase()] = value;
          },
          sourceIp: event.requestContext?.identity?.sourceIp ?? 'unknown',
          rawBody:
            event.body === null || event.body === undefined
              ? undefined
              : event.isBase64Encoded
                ? Buffer.from(event.body, 'base64').toString('utf8')
                : event.body,
          header: (name: string) => headerOf(event, name.toLowerCase()),
          url: requestUrl(event),
          ahead: state.ahead,
          beside: state.beside,
          audit: state.trail?.note ?? NO_AUDIT,
          ...(state.device ? { device: state.device } : {}),
          ...(state.apiKey ? { apiKey: state.apiKey } : {}),
        } as Parameters<RouteHandler<AnyRoute, D>>[0],
        getDeps(),
      );
    const status = successStatus(state.route);
    let result: unknown;
    try {
      result = await run();
    } catch (error) {
      await state.trail?.failed(error);
      throw error;
    }
    // The response as the contract shapes it (store-only fields dropped) is what the audit log keeps as "after".
    const checked = status === 204 ? undefined : (state.route.response as z.ZodType).safeParse(result);
    await state.trail?.succeeded(checked?.success ? checked.data : result, status);
    if (!checked) {
      return { statusCode: 204, headers: { ...extraHeaders, ...corsHeaders(event, corsOrigins) }, body: '' };
    }
    if (!checked.success) {
      // Logged, never answered: which fields broke it is what the operator needs to find the record.
      const where = checked.error.issues
        .slice(0, 5)
        .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
        .join('; ');
      throw new Error(`Response of ${area.name}.${state.handlerName} broke its contract (${where})`);
    }
    // A handler that names a text type answers a string as it is (an OData `$value`); everything else is JSON.
    const text = typeof checked.data === 'string' && extraHeaders['content-type']?.startsWith('text/');
    return {
      statusCode: status,
      headers: { 'content-type': 'application/json', ...extraHeaders, ...corsHeaders(event, corsOrigins) },
      body: text ? (checked.data as string) : JSON.stringify(checked.data),
    };
  };

  return middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ChainContext>()
    .use(lambdaTelemetry<APIGatewayProxyEvent, APIGatewayProxyResult>((event) => event.requestContext?.requestId))
    .use(httpErrors(area, corsOrigins))
    .use({
      before: async (request) => {
        const { event, context } = request;
        // Not a route of the contract but its description: open to anyone, as the local gateway serves it.
        if (event.httpMethod === 'GET' && (event.resource ?? event.path) === OPENAPI_PATH) {
          return openApiResponse(area, event, corsOrigins);
        }
        const key = routeKey(event.httpMethod, event.resource ?? event.path);
        const match = byKey.get(key);
        if (!match) {
          if (resources.has(key.slice(key.indexOf(' ') + 1))) {
            throw new MethodNotAllowed(`Method ${event.httpMethod} is not allowed on ${event.path}`);
          }
          throw new NotFound(`No route ${event.httpMethod} ${event.path} in the ${area.name} API`);
        }
        let caller: Caller | undefined;
        let device: DevicePrincipal | undefined;
        let apiKey: ApiKeyPrincipal | undefined;
        const token = bearerToken(event);
        if (match.route.access.kind === 'device') {
          // A person's token is no device credential: only `dc_…` tokens are looked at.
          device = token?.startsWith('dc_') ? await getDeviceAuthenticator()(token) : undefined;
          if (!device) throw new Unauthorized('A valid device credential is required (Authorization: Bearer dc_…)');
        } else if (match.route.access.kind === 'apiKey') {
          const key = headerOf(event, API_KEY_HEADER);
          const found = key ? await getApiKeyAuthenticator()(key.trim()) : undefined;
          if (!found) throw new Unauthorized('A valid API key is required (X-Api-Key header)');
          apiKey = found.apiKey;
          caller = found.caller;
        } else if (token) {
          try {
            caller = await getVerifier()(token);
          } catch (error) {
            if (error instanceof TokenRejected) throw new Unauthorized(error.message);
            throw error;
          }
          // The API's routes take access tokens (what the web app sends); an ID token is for a body that names one.
          if (caller.tokenUse !== 'access') throw new Unauthorized(REQUEST_MESSAGES.idTokenAsBearer);
        }
        // The input is parsed before the session is read, so the route's read-ahead can name its keys; a bad input
        // is still answered after authentication and access, as before.
        let input: ChainState['input'] | undefined;
        let badInput: unknown;
        try {
          input = {
            params: parseTextPart('path', match.route.params, event.pathParameters),
            query: parseTextPart('query', match.route.query, event.queryStringParameters),
            // A route without a body ignores what is sent (a one-click unsubscribe POSTs a form).
            body: match.route.body
              ? parsePart(
                  'body',
                  match.route.body,
                  readJsonBody(event, {
                    maxBytes: match.route.maxBodyBytes,
                    checkNumbers: match.route.checkBodyNumbers,
                  }),
                )
              : undefined,
          };
        } catch (error) {
          badInput = error;
        }
        let ahead = NOTHING_AHEAD;
        let beside: object | undefined;
        if (match.route.access.kind !== 'device') {
          // Nothing is read for a request the route refuses anyway.
          if (!caller) checkAccess(match.route.access, caller);
          const readAhead = options.readAhead?.[match.name as keyof A['routes']] as
            | ReadAheadOf<AnyRoute, D>
            | undefined;
          const keys = [
            ...(readAhead && input ? readAhead({ ...(input as ParsedRequest<AnyRoute>), caller }, getDeps()) : []),
          ];
          // A staff member's audited call names its actor by e-mail: read with the session when the token has none.
          if (auditLog && caller && !caller.email && isAudited(declarations[match.name]) && isStaff(caller.groups)) {
            keys.push(auditLog.actorRead(caller.sub));
          }
          const readBeside = options.readBeside?.[match.name as keyof A['routes']] as
            | ReadBesideOf<AnyRoute, D>
            | undefined;
          beside =
            readBeside && input ? readBeside({ ...(input as ParsedRequest<AnyRoute>), caller }, getDeps()) : undefined;
          if (caller || keys.length > 0) ({ caller, ahead } = await sessionGuard(caller, keys));
        }
        checkAccess(match.route.access, caller);
        if (!input) throw badInput;
        await checkBodyIdToken(input.body, caller, getVerifier);
        const declaration = declarations[match.name];
        const trail =
          auditLog && isAudited(declaration) && auditsCall(declaration, match.route, caller, input)
            ? await startTrail(auditLog, {
                area: area.name,
                routeName: match.name,
                route: match.route,
                declaration,
                caller: caller!,
                input,
                requestId: event.requestContext?.requestId || randomUUID(),
                path: event.path,
                sourceIp: event.requestContext?.identity?.sourceIp ?? undefined,
                userAgent: headerOf(event, 'user-agent'),
                ahead,
                now: Date.now,
              })
            : undefined;
        context.state = {
          route: match.route,
          handlerName: match.name,
          caller,
          device,
          apiKey,
          input,
          ahead,
          beside,
          trail,
        };
      },
    })
    .handler(core);
};
