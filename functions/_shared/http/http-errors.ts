import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { type Area, type ErrorShape, errorShapeOf } from '../../../shared/contracts/define-route';
import { DomainError } from '../errors';
import { log } from '../logger';

/**
 * The answer to a request refused by {@link isTransientFailure}. Here, not in shared/messages.ts: only the API sends
 * it, and every message there is JS each first page of the web app loads.
 */
export const DEPENDENCY_UNAVAILABLE =
  'A service this request depends on did not answer, so the request was not completed; please try it again shortly';

/** Seconds a client is asked to wait before it retries a request refused by {@link isTransientFailure}. */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 5;

/** Node's codes for a connection refused, reset or timed out: the store or queue is restarting or unreachable. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'ENOTFOUND']);

/** The AWS services' throttling errors (the SDK's own list, `@smithy/service-error-classification`). */
const THROTTLING_NAMES = new Set([
  'BandwidthLimitExceeded',
  'EC2ThrottledException',
  'LimitExceededException',
  'PriorRequestNotComplete',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'RequestThrottled',
  'RequestThrottledException',
  'SlowDown',
  'ThrottledException',
  'Throttling',
  'ThrottlingException',
  'TooManyRequestsException',
  'TransactionInProgressException',
]);

/**
 * An AWS service's own failure (a 5xx: `$fault: 'server'`), a throttle, or a connection that failed, left once the
 * SDK's retries are spent: nothing the caller did wrong, and the same request may succeed in a moment, so it is a
 * 503 with Retry-After, not a 500. Another 4xx from a service (a condition that failed, a validation error) is the
 * code's own mistake and stays a 500.
 */
export const isTransientFailure = (error: unknown): boolean => {
  if (!(error instanceof Error)) return false;
  const sdk = error as Error & { $fault?: string; $retryable?: unknown; $metadata?: { httpStatusCode?: number } };
  if (sdk.$fault === 'server' || sdk.$retryable || sdk.$metadata?.httpStatusCode === 429) return true;
  const code = (error as { code?: unknown }).code;
  return (
    THROTTLING_NAMES.has(error.name) ||
    error.name === 'TimeoutError' ||
    (typeof code === 'string' && NETWORK_CODES.has(code))
  );
};

/** The CORS answer to one request origin: echoed when allowed, nothing otherwise. */
export const allowOrigin = (origin: string | undefined, origins: readonly string[]): Record<string, string> =>
  origin && (origins.includes(origin) || origins.includes('*'))
    ? { 'access-control-allow-origin': origin, vary: 'Origin' }
    : {};

export const corsHeaders = (event: APIGatewayProxyEvent, origins: readonly string[]): Record<string, string> =>
  allowOrigin(Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'origin')?.[1], origins);

/** What an error answer says, before it is given a shape. */
export interface Refusal {
  status: number;
  message: string;
  /** Each field at fault (a schema's issues), `path` as `query.$top`. */
  issues?: readonly { path: string; message: string }[];
  /** The one thing at fault (OData's `target`: a query option), when the refusal names one. */
  target?: string;
}

/** An issue's path as OData names the thing at fault: a query option by its own name (`$top`, not `query.$top`). */
const odataTarget = (path: string) => path.replace(/^query\./, '');

/**
 * The body of an error answer in the route's shape (ErrorShape in shared/contracts/define-route.ts): every refusal
 * is written here, by the chain and by the local gateway.
 */
export const errorBody = (shape: ErrorShape, { status, message, issues, target }: Refusal): object => {
  if (shape === 'platform') return { message, ...(issues ? { issues } : {}) };
  const code = String(status);
  const only = target ?? (issues?.length === 1 ? odataTarget(issues[0]!.path) : undefined);
  return {
    error: {
      code,
      message,
      ...(only ? { target: only } : {}),
      ...(issues && issues.length > 1
        ? { details: issues.map((issue) => ({ code, message: issue.message, target: odataTarget(issue.path) })) }
        : {}),
    },
  };
};

/**
 * Maps every error to a response, in the shape of the route the request went to (or would have): typed domain errors
 * keep their status and message; a dependency's passing failure is a 503 with Retry-After; anything else is logged
 * with its stack and answered with a bare 500, so no client sees internals.
 */
export const httpErrors = (
  area: Area,
  corsOrigins: readonly string[],
): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => {
  const shapeOf = errorShapeOf(area.routes);
  return {
    onError: async (request) => {
      const { error, event } = request;
      const headers = { 'content-type': 'application/json', ...corsHeaders(event, corsOrigins) };
      const shape = shapeOf(event.resource ?? event.path ?? '/');
      if (error instanceof DomainError) {
        if (error.status >= 500) log('error', error.message, { area: area.name, stack: error.stack });
        request.response = {
          statusCode: error.status,
          headers: { ...headers, ...error.headers },
          body: JSON.stringify(
            errorBody(shape, {
              status: error.status,
              message: error.message,
              issues: error.issues,
              target: error.target,
            }),
          ),
        };
        return;
      }
      const transient = isTransientFailure(error);
      log('error', transient ? 'A dependency did not answer' : 'Unhandled error', {
        area: area.name,
        method: event.httpMethod,
        path: event.path,
        error: error instanceof Error ? error.message : String(error),
        stack: error instanceof Error ? error.stack : undefined,
      });
      request.response = transient
        ? {
            statusCode: 503,
            headers: { ...headers, 'retry-after': String(DEPENDENCY_RETRY_AFTER_SECONDS) },
            body: JSON.stringify(errorBody(shape, { status: 503, message: DEPENDENCY_UNAVAILABLE })),
          }
        : {
            statusCode: 500,
            headers,
            body: JSON.stringify(errorBody(shape, { status: 500, message: 'Internal error' })),
          };
    },
  };
};
