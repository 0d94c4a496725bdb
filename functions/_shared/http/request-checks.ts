import type { APIGatewayProxyEvent } from 'aws-lambda';
import { numberProblem, STORABLE_MESSAGES, textProblem } from '../../../shared/text/storable';
import { BadRequest, PayloadTooLarge, UnsupportedMediaType } from '../errors';

/**
 * What every request is held to before a route's own schemas see it (issue 19), decided once here so that no route
 * can forget it: a body in JSON, of a size a store can keep, with numbers DynamoDB stores exactly, nested no deeper
 * than a person would write, and text that is well-formed Unicode. docs/decisions/016-request-limits.md says why.
 */

/** A body's limit unless its route sets `maxBodyBytes`: well under DynamoDB's 400 KB item, far over any form. */
export const DEFAULT_MAX_BODY_BYTES = 256 * 1024;

/** Deeper than any document of the product; a parser or a store can be driven to exhaustion by more. */
export const MAX_JSON_DEPTH = 32;

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;

const kib = (bytes: number) => `${Math.round(bytes / 1024)} KB`;

export const REQUEST_MESSAGES = {
  contentType: (sent: string | undefined) =>
    `Content-Type must be application/json${sent ? `, not ${sent.split(';')[0]!.trim()}` : ' (none was sent)'}`,
  tooLarge: (limit: number) => `Request body is larger than ${kib(limit)}`,
  notJson: 'Request body is not valid JSON',
  tooDeep: `Request body nests deeper than ${MAX_JSON_DEPTH} levels`,
  pathEncoding: (name: string) => `Path parameter "${name}" is not valid percent-encoding`,
  idTokenAsBearer: 'Send the access token as the bearer token: an ID token is not accepted in the Authorization header',
  idTokenNotYours: 'The ID token (idToken) is not a valid ID token of the signed-in user',
} as const;

export interface ValueIssue {
  path: string;
  message: string;
}

/**
 * The problems of a parsed JSON value, each with the path to it (`body.a.0.b`), walked without recursion so a deep
 * document cannot exhaust the stack. `numbers: false` leaves numbers to the route (a batch whose items are refused
 * one by one). At most `limit` issues are named.
 */
export const valueIssues = (
  root: unknown,
  { part = 'body', numbers = true, limit = 10 }: { part?: string; numbers?: boolean; limit?: number } = {},
): ValueIssue[] => {
  const issues: ValueIssue[] = [];
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: root, path: part, depth: 0 }];
  while (stack.length > 0 && issues.length < limit) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'number') {
      const problem = numbers ? numberProblem(value) : undefined;
      if (problem) issues.push({ path, message: problem });
    } else if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) issues.push({ path, message: problem });
    } else if (value !== null && typeof value === 'object') {
      if (depth >= MAX_JSON_DEPTH) {
        issues.push({ path, message: REQUEST_MESSAGES.tooDeep });
        continue;
      }
      for (const [key, child] of Object.entries(value)) {
        const keyProblem = textProblem(key);
        if (keyProblem) issues.push({ path: `${path}.${key}`, message: keyProblem });
        stack.push({ value: child, path: `${path}.${key}`, depth: depth + 1 });
      }
    }
  }
  return issues;
};

const headerOf = (event: APIGatewayProxyEvent, wanted: string): string | undefined =>
  Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === wanted)?.[1] ?? undefined;

/**
 * The JSON body of a route that takes one: 415 unless it is sent as JSON, 413 over the route's size, 400 when it is
 * not JSON or holds what a store cannot keep exactly. An absent or empty body is left to the route's schema.
 */
export const readJsonBody = (
  event: APIGatewayProxyEvent,
  { maxBytes = DEFAULT_MAX_BODY_BYTES, checkNumbers = true }: { maxBytes?: number; checkNumbers?: boolean } = {},
): unknown => {
  if (event.body === null || event.body === undefined || event.body === '') return undefined;
  const bytes = event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
  const contentType = headerOf(event, 'content-type');
  if (!JSON_MEDIA_TYPE.test(contentType?.split(';')[0]?.trim() ?? '')) {
    throw new UnsupportedMediaType(REQUEST_MESSAGES.contentType(contentType));
  }
  if (bytes.length > maxBytes) throw new PayloadTooLarge(REQUEST_MESSAGES.tooLarge(maxBytes));
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new BadRequest(REQUEST_MESSAGES.notJson);
  }
  const issues = valueIssues(value, { numbers: checkNumbers });
  if (issues.length > 0) {
    throw new BadRequest(`Invalid body: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);
  }
  return value;
};

/** Path and query values: text a store keeps as it was sent (the gateway has decoded them). */
export const checkTextParts = (parts: Record<string, Record<string, string | undefined> | null | undefined>) => {
  const issues: ValueIssue[] = [];
  for (const [part, values] of Object.entries(parts)) {
    for (const [name, value] of Object.entries(values ?? {})) {
      if (value !== undefined && textProblem(value)) {
        issues.push({ path: `${part}.${name}`, message: STORABLE_MESSAGES.malformedText });
      }
    }
  }
  if (issues.length > 0) {
    throw new BadRequest(`Invalid request: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);
  }
};
