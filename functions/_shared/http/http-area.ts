import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { z } from 'zod';
import { hasRole } from '../../../shared/auth/groups';
import { type Caller, createTokenVerifier, TokenRejected, type TokenVerifier } from '../../../shared/auth/verify-token';
import {
  type Access,
  type AnyRoute,
  type Area,
  type ParsedRequest,
  type RouteResponse,
  routeKey,
  successStatus,
} from '../../../shared/contracts/define-route';
import { readAuthEnv } from '../env';
import { BadRequest, Forbidden, MethodNotAllowed, NotFound, Unauthorized } from '../errors';
import { corsHeaders, httpErrors } from './http-errors';
import { createSessionGuard, type SessionGuard } from './session-guard';

type CallerFor<AC> = AC extends { kind: 'guest' } ? Caller | undefined : Caller;

export type RouteHandler<R extends AnyRoute, D> = (
  request: ParsedRequest<R> & { caller: CallerFor<R['access']> },
  deps: D,
) => Promise<RouteResponse<R>> | RouteResponse<R>;

/** One implementation per route of the area's contract: a missing or extra route is a compile error. */
export type AreaHandlers<A extends Area, D> = { [K in keyof A['routes']]: RouteHandler<A['routes'][K], D> };

export interface HttpAreaOptions<D> {
  /** Builds the area's dependencies once per cold start. */
  deps: () => D;
  /** @default a verifier configured from AUTH_ISSUER and AUTH_CLIENT_IDS */
  verifier?: () => TokenVerifier;
  /** @default the comma-separated CORS_ORIGINS variable */
  corsOrigins?: readonly string[];
  /** @default the per-user session records of ACCESS_VERSIONS_TABLE */
  session?: () => SessionGuard;
}

interface ChainState {
  route: AnyRoute;
  handlerName: string;
  caller?: Caller;
  input: { params: unknown; query: unknown; body: unknown };
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

const parseJsonBody = (event: APIGatewayProxyEvent): unknown => {
  if (event.body === null || event.body === undefined || event.body === '') return undefined;
  const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  try {
    return JSON.parse(text);
  } catch {
    throw new BadRequest('Request body is not valid JSON');
  }
};

const bearerToken = (event: APIGatewayProxyEvent): string | undefined => {
  const header = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  if (!match) throw new Unauthorized('Authorization header must be "Bearer <token>"');
  return match[1];
};

/** Spec §6 access: a guest only on guest routes; a bad token is 401 everywhere; too low a role is 403. */
export const checkAccess = (access: Access, caller: Caller | undefined): void => {
  if (access.kind === 'guest') return;
  if (!caller) throw new Unauthorized();
  if (access.kind === 'group' && !hasRole(caller.groups, access.group)) {
    throw new Forbidden(`This action requires the ${access.group} role`);
  }
};

/**
 * The HTTP chain, written once: route resolution, authentication and access from the contract,
 * input validation, the handler, response validation, and error mapping (outermost, so it sees every error).
 */
export const httpArea = <A extends Area, D>(area: A, handlers: AreaHandlers<A, D>, options: HttpAreaOptions<D>) => {
  const byKey = new Map(
    Object.entries(area.routes).map(([name, route]) => [routeKey(route.method, route.path), { name, route }]),
  );
  const resources = new Set([...byKey.keys()].map((key) => key.slice(key.indexOf(' ') + 1)));
  // Optional: an area without a browser client has no CORS origins.
  const corsOrigins = options.corsOrigins ?? (process.env.CORS_ORIGINS ?? '').split(',').filter(Boolean);
  let deps: D | undefined;
  let verifier: TokenVerifier | undefined;
  const getVerifier = () => {
    verifier ??= options.verifier?.() ?? createTokenVerifier(readAuthEnv());
    return verifier;
  };
  // Read at cold start: an area deployed without its session table fails before serving anyone.
  const sessionGuard: SessionGuard = options.session?.() ?? createSessionGuard();

  const core = async (event: APIGatewayProxyEvent, context: ChainContext): Promise<APIGatewayProxyResult> => {
    const state = context.state!;
    deps ??= options.deps();
    const implementation = handlers[state.handlerName as keyof A['routes']] as unknown as RouteHandler<AnyRoute, D>;
    const result = await implementation({ ...(state.input as ParsedRequest<AnyRoute>), caller: state.caller }, deps);
    const status = successStatus(state.route);
    if (status === 204) return { statusCode: 204, headers: corsHeaders(event, corsOrigins), body: '' };
    const checked = (state.route.response as z.ZodType).safeParse(result);
    if (!checked.success) throw new Error(`Response of ${area.name}.${state.handlerName} broke its contract`);
    return {
      statusCode: status,
      headers: { 'content-type': 'application/json', ...corsHeaders(event, corsOrigins) },
      body: JSON.stringify(checked.data),
    };
  };

  return middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ChainContext>()
    .use(httpErrors(area.name, corsOrigins))
    .use({
      before: async (request) => {
        const { event, context } = request;
        const key = routeKey(event.httpMethod, event.resource ?? event.path);
        const match = byKey.get(key);
        if (!match) {
          if (resources.has(key.slice(key.indexOf(' ') + 1))) {
            throw new MethodNotAllowed(`Method ${event.httpMethod} is not allowed on ${event.path}`);
          }
          throw new NotFound(`No route ${event.httpMethod} ${event.path} in the ${area.name} API`);
        }
        let caller: Caller | undefined;
        const token = bearerToken(event);
        if (token) {
          try {
            caller = await getVerifier()(token);
          } catch (error) {
            if (error instanceof TokenRejected) throw new Unauthorized(error.message);
            throw error;
          }
          caller = await sessionGuard(caller);
        }
        checkAccess(match.route.access, caller);
        const input = {
          params: parsePart('path', match.route.params, event.pathParameters ?? {}),
          query: parsePart('query', match.route.query, event.queryStringParameters ?? {}),
          body: parsePart('body', match.route.body, parseJsonBody(event)),
        };
        context.state = { route: match.route, handlerName: match.name, caller, input };
      },
    })
    .handler(core);
};
