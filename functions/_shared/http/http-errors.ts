import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { DomainError } from '../errors';
import { log } from '../logger';

/** The CORS answer to one request origin: echoed when allowed, nothing otherwise. */
export const allowOrigin = (origin: string | undefined, origins: readonly string[]): Record<string, string> =>
  origin && (origins.includes(origin) || origins.includes('*'))
    ? { 'access-control-allow-origin': origin, vary: 'Origin' }
    : {};

export const corsHeaders = (event: APIGatewayProxyEvent, origins: readonly string[]): Record<string, string> =>
  allowOrigin(Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'origin')?.[1], origins);

/**
 * Maps every error to a response: typed domain errors keep their status and message; anything else is
 * logged with its stack and answered with a bare 500, so no client sees internals.
 */
export const httpErrors = (
  area: string,
  corsOrigins: readonly string[],
): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => ({
  onError: async (request) => {
    const { error, event } = request;
    const headers = { 'content-type': 'application/json', ...corsHeaders(event, corsOrigins) };
    if (error instanceof DomainError) {
      if (error.status >= 500) log('error', error.message, { area, stack: error.stack });
      request.response = {
        statusCode: error.status,
        headers: { ...headers, ...error.headers },
        body: JSON.stringify({ message: error.message, ...(error.issues ? { issues: error.issues } : {}) }),
      };
      return;
    }
    log('error', 'Unhandled error', {
      area,
      method: event.httpMethod,
      path: event.path,
      error: error instanceof Error ? error.message : String(error),
      stack: error instanceof Error ? error.stack : undefined,
    });
    request.response = { statusCode: 500, headers, body: JSON.stringify({ message: 'Internal error' }) };
  },
});
