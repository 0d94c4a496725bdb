import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { allowOrigin, errorBody } from '../../functions/_shared/http/http-errors';
import { REQUEST_MESSAGES } from '../../functions/_shared/http/request-checks';
import { AREAS, type AreaName } from '../../shared/contracts/areas';
import { createRouteMatcher, type ErrorShape, errorShapeOf } from '../../shared/contracts/define-route';
import { OPENAPI_PATH, openApiOptionsOf, toOpenApi } from '../../shared/contracts/openapi';
import { handlerEntry, MIN_COMPRESSION_SIZE_BYTES } from '../definitions/services';
import { acceptedEncoding, encodeBody } from './content-encoding';
import { closeServer, type Emulator, listen, readBody } from './emulators/listen';

type LambdaHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

const MAX_BODY_BYTES = 10 * 1024 * 1024; // API Gateway's payload limit

/**
 * The client's address: the first X-Forwarded-For entry when a proxy (or a test standing in for many clients)
 * sets one, else the socket's. API Gateway in the cloud sets `sourceIp` itself and ignores the header.
 */
const sourceIpOf = (request: IncomingMessage): string => {
  const forwarded = request.headers['x-forwarded-for'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
  return first || (request.socket.remoteAddress ?? '127.0.0.1');
};

/**
 * A function's answer as API Gateway sends it with `minimumCompressionSize` set (infra/services/area-api.ts): from
 * that size on, gzip or deflate when the client accepts one (gzip first), else as it is; an answer the function
 * encoded itself is left alone.
 */
const asSent = (request: IncomingMessage, result: APIGatewayProxyResult) => {
  const headers = { ...(result.headers as Record<string, string> | undefined) };
  const body = Buffer.from(result.body ?? '', result.isBase64Encoded ? 'base64' : 'utf8');
  const encodedAlready = Object.keys(headers).some((name) => name.toLowerCase() === 'content-encoding');
  if (body.length < MIN_COMPRESSION_SIZE_BYTES || encodedAlready) return { headers, body };
  const encoding = acceptedEncoding(request.headers['accept-encoding'], ['gzip', 'deflate']);
  if (encoding === 'identity') return { headers, body };
  return { headers: { ...headers, 'content-encoding': encoding }, body: encodeBody(body, encoding) };
};

const json = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
};

const lambdaContext = (area: string): Context => ({
  callbackWaitsForEmptyEventLoop: false,
  functionName: `${area}-local`,
  functionVersion: '$LATEST',
  invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${area}-local`,
  memoryLimitInMB: '512',
  awsRequestId: randomUUID(),
  logGroupName: `/aws/lambda/${area}-local`,
  logStreamName: 'local',
  getRemainingTimeInMillis: () => 29_000,
  done: () => undefined,
  fail: () => undefined,
  succeed: () => undefined,
});

export interface GatewayOptions {
  port: number;
  rootDir: string;
  /** Every emulator must answer for `/health` to be 200. */
  emulators: () => Emulator[];
  corsOrigins: readonly string[];
  /**
   * Only these areas: a test's gateway of its own for one area, its handler given the test's variables (a queue of
   * its own, say). All by default.
   */
  areas?: readonly AreaName[];
}

/**
 * The local API Gateway: each service area under `/{area}`, routed by the same contracts the CDK API is
 * built from, invoking the area's Lambda module in-process with a REST API proxy event.
 */
export const startGateway = async (options: GatewayOptions) => {
  const areas = new Map<
    string,
    { matcher: ReturnType<typeof createRouteMatcher>; shapeOf: (path: string) => ErrorShape; handler: LambdaHandler }
  >();
  for (const [name, area] of Object.entries(AREAS) as [AreaName, (typeof AREAS)[AreaName]][]) {
    if (Object.keys(area.routes).length === 0 || (options.areas && !options.areas.includes(name))) continue;
    const module = (await import(pathToFileURL(path.join(options.rootDir, handlerEntry(name))).href)) as {
      handler: LambdaHandler;
    };
    areas.set(name, {
      matcher: createRouteMatcher(area.routes),
      shapeOf: errorShapeOf(area.routes),
      handler: module.handler,
    });
  }

  const health = async () => {
    const results = await Promise.all(
      options.emulators().map(async (e) => {
        const ok = await Promise.race([
          e.healthy().catch(() => false),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2_000)),
        ]);
        return [e.name, ok ? 'up' : 'down'] as const;
      }),
    );
    return Object.fromEntries(results);
  };

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const cors = allowOrigin(request.headers.origin, options.corsOrigins);
    try {
      if (url.pathname === '/health') {
        const services = await health();
        const ok = Object.values(services).every((s) => s === 'up');
        json(response, ok ? 200 : 503, { status: ok ? 'ok' : 'degraded', services }, cors);
        return;
      }
      const [, areaName = '', ...rest] = url.pathname.split('/');
      const area = areas.get(areaName);
      if (!area) {
        json(response, 404, { message: `No service area "${areaName}"` }, cors);
        return;
      }
      if (`/${rest.join('/')}` === OPENAPI_PATH && request.method === 'GET') {
        const document = toOpenApi(
          AREAS[areaName as AreaName],
          `http://${request.headers.host}/${areaName}`,
          openApiOptionsOf(Object.fromEntries(url.searchParams)),
        );
        json(response, 200, document, cors);
        return;
      }
      if (request.method === 'OPTIONS') {
        response
          .writeHead(204, {
            ...cors,
            'access-control-allow-methods': 'GET,POST,PUT,PATCH,DELETE,OPTIONS',
            'access-control-allow-headers': 'authorization,content-type,x-api-key',
            'access-control-max-age': '600',
          })
          .end();
        return;
      }
      const resourcePath = `/${rest.join('/')}`;
      // The gateway's own refusals are written as the Lambda writes them, in the shape of the route's path.
      const refuse = (status: number, message: string, headers: Record<string, string> = {}) =>
        json(response, status, errorBody(area.shapeOf(resourcePath), { status, message }), { ...cors, ...headers });
      const match = area.matcher(request.method ?? 'GET', resourcePath);
      if (!match) {
        refuse(404, `No route ${request.method} ${resourcePath} in the ${areaName} API`);
        return;
      }
      if (match === 'method-not-allowed') {
        refuse(405, `Method ${request.method} is not allowed on ${resourcePath}`);
        return;
      }
      if ('badEncoding' in match) {
        refuse(400, REQUEST_MESSAGES.pathEncoding(match.badEncoding));
        return;
      }
      const body = await readBody(request, MAX_BODY_BYTES);
      if (body === 'too-large') {
        // The rest of the body stays unread: the connection closes with the answer, or a client's next request on
        // it would wait behind the unread bytes until a timeout reset it (issue 19).
        refuse(413, 'Request body is larger than 10 MB', { connection: 'close' });
        return;
      }
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : (v ?? '')]),
      );
      // As API Gateway tells the function the scheme the client used (a link an answer builds must use it too).
      headers['x-forwarded-proto'] ??= 'http';
      const query = Object.fromEntries(url.searchParams.entries());
      const event: APIGatewayProxyEvent = {
        resource: match.route.path,
        path: resourcePath,
        httpMethod: request.method ?? 'GET',
        headers,
        multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
        queryStringParameters: url.searchParams.size ? query : null,
        multiValueQueryStringParameters: url.searchParams.size
          ? Object.fromEntries([...url.searchParams.keys()].map((k) => [k, url.searchParams.getAll(k)]))
          : null,
        pathParameters: Object.keys(match.params).length ? match.params : null,
        stageVariables: null,
        body: body.length ? body.toString('utf8') : null,
        isBase64Encoded: false,
        requestContext: {
          accountId: '000000000000',
          apiId: areaName,
          authorizer: null,
          protocol: 'HTTP/1.1',
          httpMethod: request.method ?? 'GET',
          identity: { sourceIp: sourceIpOf(request) } as never,
          path: url.pathname,
          stage: 'local',
          requestId: randomUUID(),
          requestTimeEpoch: Date.now(),
          resourceId: areaName,
          resourcePath: match.route.path,
        },
      };
      const result = await area.handler(event, lambdaContext(areaName));
      const sent = asSent(request, result);
      response.writeHead(result.statusCode, sent.headers).end(sent.body);
    } catch (error) {
      // A handler never throws past its chain; this guards the gateway itself.
      console.error('Local gateway error:', error);
      if (!response.headersSent) json(response, 502, { message: 'Bad gateway' }, cors);
    }
  });

  // What Node's parser refuses before a handler runs (a request line and headers over 16 KB, a malformed request)
  // gets the API's JSON shape, as API Gateway answers its own limits, instead of Node's bare status line.
  // The shape is the path's, read from the request line when the bytes the parser refused begin with it.
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket) => {
    if (!socket.writable) return;
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const [status, text] = tooLarge ? [431, 'Request Header Fields Too Large'] : [400, 'Bad Request'];
    const target = /^[A-Z]+ \/([^/?\s]*)(\/[^?\s]*)?/.exec(
      error.rawPacket?.subarray(0, 4_096).toString('latin1') ?? '',
    );
    const shape = (target && areas.get(target[1]!)?.shapeOf(target[2] ?? '/')) || 'platform';
    const body = JSON.stringify(
      errorBody(shape, {
        status,
        message: tooLarge ? 'The request line and headers are larger than 16 KB' : 'The request is not valid HTTP',
      }),
    );
    socket.end(
      `HTTP/1.1 ${status} ${text}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  // An idle keep-alive connection is closed only long after a client stops reusing it (API Gateway and load
  // balancers keep one about a minute): with Node's 5 s, a busy client sending on a connection the server was closing
  // at that moment lost the request ("other side closed", seen by the fuzz test under load).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const actual = await listen(server, options.port);
  return { url: `http://localhost:${actual}`, stop: () => closeServer(server) };
};
