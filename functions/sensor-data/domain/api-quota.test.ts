import type { DomainEvent } from '../../../shared/contracts/events';
import type { QuotaThreshold, QuotaWarning } from '../../../shared/contracts/sensor-data-api-keys';
import { silentLog } from '../../../test/support/log';
import { createApiQuota } from './api-quota';

/** An in-memory usage table with the store's semantics: refused requests are not counted. */
const setUp = (seed = 0) => {
  const state = { used: seed, warnings: new Map<QuotaThreshold, QuotaWarning>(), owners: new Set<string>() };
  const events: DomainEvent[] = [];
  const crossings: string[] = [];
  let failPublish = false;
  const quota = createApiQuota({
    log: silentLog,
    usage: {
      count: async ({ ownerId, limit }) => {
        if (state.used >= limit) return { counted: false };
        state.used += 1;
        const newOwner = !state.owners.has(ownerId);
        state.owners.add(ownerId);
        return { counted: true, used: state.used, recorded: [...state.warnings.keys()], newOwner };
      },
      recordWarning: async (_d, _m, warning) => {
        if (state.warnings.has(warning.threshold)) return false;
        state.warnings.set(warning.threshold, warning);
        return true;
      },
      forgetWarning: async (_d, _m, threshold) => {
        state.warnings.delete(threshold);
      },
      addOwnerDevice: async () => {},
    },
    events: {
      publish: async (batch) => {
        if (failPublish) throw new Error('queue down');
        events.push(...batch);
      },
    },
    now: () => Date.parse('2025-06-10T08:00:00Z'),
    counters: { count: (name) => crossings.push(name), seconds: () => undefined },
  });
  const call = async () => {
    const headers: Record<string, string> = {};
    await quota.meter({ meter: { kind: 'device', deviceId: 'dev-1' }, ownerId: 'ann', limit: 3_000 }, (name, value) => {
      headers[name] = value;
    });
    return headers;
  };
  return { state, events, crossings, call, failPublishing: (fail: boolean) => (failPublish = fail) };
};

describe('API quota', () => {
  it('sends each threshold once as it is crossed, then refuses with 429 naming the reset', async () => {
    const { state, events, crossings, call } = setUp(2_099);
    expect((await call())['x-ratelimit-remaining']).toBe('900');
    await call();
    expect(events.map((e) => e.kind === 'api.quota' && [e.threshold, e.used])).toEqual([[70, 2_100]]);
    state.used = 2_699;
    await call();
    state.used = 2_999;
    expect(await call()).toMatchObject({ 'x-ratelimit-limit': '3000', 'x-ratelimit-remaining': '0' });
    expect(events.map((e) => e.kind === 'api.quota' && e.threshold)).toEqual([70, 90, 100]);
    expect(crossings).toEqual(['ApiQuotaCrossings', 'ApiQuotaCrossings', 'ApiQuotaCrossings']);
    expect(events[2]).toMatchObject({ eventId: 'dev-1#2025-06#100', month: '2025-06', actorId: 'ann', limit: 3_000 });
    const refused = await call().catch((e: unknown) => e);
    expect(refused).toMatchObject({
      status: 429,
      headers: expect.objectContaining({
        'x-ratelimit-remaining': '0',
        'retry-after': String(20 * 86_400 + 16 * 3_600),
      }),
    });
    expect((refused as Error).message).toContain('resets at 2025-07-01T00:00:00.000Z');
    expect(state.used).toBe(3_000);
    expect(events).toHaveLength(3);
  });

  it('takes a warning back when its event cannot be sent, so the next request sends it', async () => {
    const { state, events, call, failPublishing } = setUp(2_099);
    failPublishing(true);
    await call();
    expect(state.warnings.size).toBe(0);
    failPublishing(false);
    await call();
    expect(events.map((e) => e.kind === 'api.quota' && [e.threshold, e.used])).toEqual([[70, 2_101]]);
  });
});
