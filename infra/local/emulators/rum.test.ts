import { gzipSync } from 'node:zlib';
import { LOCAL_APP_MONITOR_ID, type RumCollector, startRumCollector, summarize } from './rum';

const ORIGIN = 'http://localhost:5173';

const batch = (events: { type: string; pageId?: string; value?: number }[], id = LOCAL_APP_MONITOR_ID) => ({
  BatchId: 'b1',
  AppMonitorDetails: { id, version: '1.0.0' },
  UserDetails: { sessionId: 's1', userId: '00000000-0000-0000-0000-000000000000' },
  RumEvents: events.map((e, index) => ({
    id: `e${index}`,
    timestamp: 1_790_000_000,
    type: e.type,
    details: JSON.stringify(e.value === undefined ? {} : { value: e.value }),
    metadata: JSON.stringify(e.pageId ? { pageId: e.pageId } : {}),
  })),
});

describe('the local RUM collector', () => {
  let collector: RumCollector;
  beforeEach(async () => {
    collector = await startRumCollector({ port: 0, origins: [ORIGIN], maxEvents: 5 });
  });
  afterEach(() => collector.stop());

  const put = (body: unknown, { id = LOCAL_APP_MONITOR_ID, origin = ORIGIN, type = 'application/json' } = {}) =>
    fetch(`${collector.url}/appmonitors/${id}`, {
      method: 'POST',
      headers: { 'content-type': type, origin },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it("keeps the web client's events with their route, from the app's origin, fetched or beaconed", async () => {
    const answer = await put(batch([{ type: 'com.amazon.rum.page_view_event', pageId: '/dashboard' }]));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    // sendBeacon posts text/plain.
    const beacon = await put(batch([{ type: 'com.amazon.rum.largest_contentful_paint_event', value: 812 }]), {
      type: 'text/plain;charset=UTF-8',
    });
    expect(beacon.status).toBe(200);
    // A larger batch comes gzipped.
    const gzipped = await fetch(`${collector.url}/appmonitors/${LOCAL_APP_MONITOR_ID}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', origin: ORIGIN },
      body: gzipSync(JSON.stringify(batch([{ type: 'com.amazon.rum.js_error_event', pageId: '/privacy' }]))),
    });
    expect(gzipped.status).toBe(200);
    expect(collector.events()).toEqual([
      {
        type: 'com.amazon.rum.page_view_event',
        pageId: '/dashboard',
        sessionId: 's1',
        timestamp: 1_790_000_000,
        details: {},
      },
      {
        type: 'com.amazon.rum.largest_contentful_paint_event',
        sessionId: 's1',
        timestamp: 1_790_000_000,
        details: { value: 812 },
      },
      {
        type: 'com.amazon.rum.js_error_event',
        pageId: '/privacy',
        sessionId: 's1',
        timestamp: 1_790_000_000,
        details: {},
      },
    ]);
  });

  it('answers the preflight for the app origin only', async () => {
    const preflight = await fetch(`${collector.url}/appmonitors/${LOCAL_APP_MONITOR_ID}`, {
      method: 'OPTIONS',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const foreign = await fetch(`${collector.url}/appmonitors/${LOCAL_APP_MONITOR_ID}`, {
      method: 'OPTIONS',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses another origin, another monitor and a malformed batch, naming why, and keeps none of them', async () => {
    const foreign = await put(batch([{ type: 'x' }]), { origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    const other = await put(batch([{ type: 'x' }], '11111111-2222-4333-8444-555555555555'), {
      id: '11111111-2222-4333-8444-555555555555',
    });
    expect(other.status).toBe(404);
    expect(((await other.json()) as { message: string }).message).toContain('No app monitor');
    const notJson = await put('{');
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { message: string }).message).toBe('The body is not JSON (or not gzip of JSON)');
    const noEvents = await put({ ...batch([]), RumEvents: 'many' });
    expect(noEvents.status).toBe(400);
    expect(((await noEvents.json()) as { message: string }).message).toMatch(/^RumEvents: /);
    const mismatch = await put(batch([{ type: 'x' }], '11111111-2222-4333-8444-555555555555'));
    expect(mismatch.status).toBe(400);
    expect(collector.events()).toEqual([]);
  });

  it('keeps only the newest events, so visits do not grow the stack', async () => {
    for (let i = 0; i < 4; i++) {
      await put(
        batch([
          { type: 'com.amazon.rum.page_view_event', pageId: `/p${i}` },
          { type: 'x', pageId: `/p${i}` },
        ]),
      );
    }
    expect(collector.events().map((e) => e.pageId)).toEqual(['/p1', '/p2', '/p2', '/p3', '/p3']);
  });
});

describe('summarize', () => {
  it("gives each route its views, errors and each vital's 75th percentile", () => {
    const events = [
      ...[100, 200, 300, 400].map((value) => ({
        type: 'com.amazon.rum.largest_contentful_paint_event',
        pageId: '/dashboard',
        timestamp: 1,
        details: { value },
      })),
      {
        type: 'com.amazon.rum.cumulative_layout_shift_event',
        pageId: '/dashboard',
        timestamp: 1,
        details: { value: 0.02 },
      },
      { type: 'com.amazon.rum.page_view_event', pageId: '/dashboard', timestamp: 1, details: {} },
      { type: 'com.amazon.rum.js_error_event', pageId: '/privacy', timestamp: 1, details: { message: 'x' } },
    ];
    expect(summarize(events)).toEqual({
      '/dashboard': { views: 1, errors: 0, LCP: 300, CLS: 0.02 },
      '/privacy': { views: 0, errors: 1 },
    });
  });
});
