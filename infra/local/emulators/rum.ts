import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';
import * as z from 'zod';
import { RUM_EVENT_TYPES, WEB_VITALS } from '../../../shared/operations/web-vitals';
import { closeServer, type Emulator, listen, readBody } from './listen';

/**
 * The local stack's app monitor id (spec §9's analytics id here): the collector takes events for this one only, as
 * CloudWatch RUM takes them for its monitors.
 */
export const LOCAL_APP_MONITOR_ID = '5f0c2a7e-3b1d-4c8a-9e6f-2d4b7a1c0e93';

/** The largest batch taken, before and after gzip. */
const MAX_BATCH_BYTES = 1024 * 1024;

/** PutRumEvents' body as the RUM web client sends it (`details` and `metadata` are JSON in strings). */
const PutRumEventsRequest = z.object({
  BatchId: z.string().min(1),
  AppMonitorDetails: z.object({ id: z.string(), version: z.string().optional() }),
  UserDetails: z.object({ sessionId: z.string().optional(), userId: z.string().optional() }),
  RumEvents: z
    .array(
      z.object({
        id: z.string().min(1),
        timestamp: z.number(),
        type: z.string().min(1),
        details: z.string(),
        metadata: z.string().optional(),
      }),
    )
    .max(100),
});

/** One event as the collector keeps it: its type, the route it was recorded on and its details. */
export interface CollectedEvent {
  type: string;
  pageId?: string;
  sessionId?: string;
  /** Seconds since the epoch, as the client sends it. */
  timestamp: number;
  details: Record<string, unknown>;
}

/** Per route: views, errors and each vital's 75th percentile, as the cloud dashboard draws them. */
export type RouteSummary = { views: number; errors: number } & Partial<
  Record<(typeof WEB_VITALS)[number]['name'], number>
>;

const json = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
};

const parseObject = (text: string | undefined): Record<string, unknown> => {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/** The nearest-rank 75th percentile. */
const p75 = (values: number[]): number | undefined => {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(0.75 * sorted.length) - 1];
};

export const summarize = (events: readonly CollectedEvent[]): Record<string, RouteSummary> => {
  const routes: Record<string, RouteSummary> = {};
  const values: Record<string, Record<string, number[]>> = {};
  for (const event of events) {
    const page = event.pageId ?? '(none)';
    const route = routes[page] ?? { views: 0, errors: 0 };
    routes[page] = route;
    if (event.type === RUM_EVENT_TYPES.pageView) route.views += 1;
    if (event.type === RUM_EVENT_TYPES.jsError) route.errors += 1;
    const vital = WEB_VITALS.find((v) => v.eventType === event.type);
    if (vital && typeof event.details.value === 'number') {
      const byVital = values[page] ?? {};
      values[page] = byVital;
      byVital[vital.name] = [...(byVital[vital.name] ?? []), event.details.value];
    }
  }
  for (const [page, byVital] of Object.entries(values)) {
    for (const vital of WEB_VITALS) {
      const value = p75(byVital[vital.name] ?? []);
      if (value !== undefined) routes[page]![vital.name] = value;
    }
  }
  return routes;
};

export interface RumCollector extends Emulator {
  /** What was collected, oldest first (the newest `maxEvents`). */
  events: () => readonly CollectedEvent[];
}

/**
 * Real-user monitoring's collector in the local stack (docs/decisions/040-real-user-monitoring.md): it answers the RUM
 * web client's PutRumEvents (`POST /appmonitors/{id}`, unsigned here) for the web app's origins, keeps the newest
 * events in memory (bounded: the local stack's memory must not grow with visits), and shows them per route at
 * `GET /summary` (what the cloud dashboard draws) and whole at `GET /events`.
 */
export const startRumCollector = async ({
  port,
  origins,
  maxEvents = 5000,
}: {
  port: number;
  /** The web app's origins, which alone may post (CORS). */
  origins: readonly string[];
  maxEvents?: number;
}): Promise<RumCollector> => {
  const events: CollectedEvent[] = [];

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const origin = request.headers.origin;
    const cors: Record<string, string> =
      origin && origins.includes(origin)
        ? { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true', vary: 'origin' }
        : {};
    if (request.method === 'GET' && url.pathname === '/health') return json(response, 200, { ok: true });
    if (request.method === 'GET' && url.pathname === '/events') return json(response, 200, { events });
    if (request.method === 'GET' && url.pathname === '/summary') return json(response, 200, summarize(events));
    const monitor = /^\/appmonitors\/([^/]+)$/.exec(url.pathname)?.[1];
    if (!monitor) return json(response, 404, { message: 'Not found' });
    if (request.method === 'OPTIONS') {
      response.writeHead(204, {
        ...cors,
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': request.headers['access-control-request-headers'] ?? 'content-type',
        'access-control-max-age': '600',
      });
      return response.end();
    }
    if (request.method !== 'POST') return json(response, 405, { message: 'Only POST puts events' }, cors);
    if (origin && !cors['access-control-allow-origin']) {
      return json(response, 403, { message: `Origin ${origin} may not report to this app monitor` });
    }
    if (monitor !== LOCAL_APP_MONITOR_ID) {
      return json(response, 404, { message: `No app monitor ${monitor}` }, cors);
    }
    // The web client's own limit for a beacon is 64 KB; a fetch batch of 100 events stays well under 1 MB.
    const body = await readBody(request, MAX_BATCH_BYTES);
    if (body === 'too-large') return json(response, 413, { message: 'A batch may be at most 1 MB' }, cors);
    let parsed: z.infer<typeof PutRumEventsRequest>;
    try {
      // The client gzips a batch when that makes it smaller, as the data plane accepts.
      const text =
        request.headers['content-encoding'] === 'gzip'
          ? gunzipSync(body, { maxOutputLength: MAX_BATCH_BYTES }).toString('utf8')
          : body.toString('utf8');
      const result = PutRumEventsRequest.safeParse(JSON.parse(text));
      if (!result.success) {
        const issue = result.error.issues[0]!;
        return json(response, 400, { message: `${issue.path.join('.') || 'body'}: ${issue.message}` }, cors);
      }
      parsed = result.data;
    } catch {
      return json(response, 400, { message: 'The body is not JSON (or not gzip of JSON)' }, cors);
    }
    if (parsed.AppMonitorDetails.id !== monitor) {
      return json(response, 400, { message: "AppMonitorDetails.id: not the path's app monitor" }, cors);
    }
    for (const event of parsed.RumEvents) {
      const metadata = parseObject(event.metadata);
      events.push({
        type: event.type,
        ...(typeof metadata.pageId === 'string' ? { pageId: metadata.pageId } : {}),
        ...(parsed.UserDetails.sessionId ? { sessionId: parsed.UserDetails.sessionId } : {}),
        timestamp: event.timestamp,
        details: parseObject(event.details),
      });
    }
    if (events.length > maxEvents) events.splice(0, events.length - maxEvents);
    return json(response, 200, {}, cors);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) json(response, 500, { message: 'The collector failed' });
    });
  });
  const actual = await listen(server, port);
  const url = `http://localhost:${actual}`;
  return {
    name: 'rum',
    url,
    events: () => events,
    healthy: async () => (await fetch(`${url}/health`)).ok,
    stop: () => closeServer(server),
  };
};
