import type { DeviceSubscriptionRecord } from '../../_shared/billing/device-subscription-record';
import { migrationSteps } from './steps';

describe('the subscription-history migration', () => {
  it('copies the records of Stripe subscriptions into the history, page by page, and leaves tiers set without one', async () => {
    const written: DeviceSubscriptionRecord[] = [];
    const pages: Record<string, { items: Record<string, unknown>[]; nextCursor?: string }> = {
      start: {
        items: [
          { deviceId: 'd1', id: 'sub_1', status: 'active', tier: 'tier2', syncedAt: 50, updated: 50 },
          // Demo data and tests set a tier with no Stripe subscription behind it.
          { deviceId: 'd2', tier: 'tier1', status: 'active', updated: 40 },
        ],
        nextCursor: 'p2',
      },
      p2: { items: [{ deviceId: 'd3', id: 'sub_3', status: 'canceled', tier: 'tier1', updated: 30 }] },
    };
    const steps = migrationSteps({
      relations: { migrate: async () => ({ scanned: 0, updated: 0, skipped: 0, nextCursor: undefined }) },
      subscriptionPage: async (cursor) => pages[cursor ?? 'start']!,
      putHistory: async (record) => {
        written.push(record);
        return true;
      },
    });
    const first = await steps['2026-11-25-subscription-history'](undefined);
    expect(first).toEqual({ scanned: 2, updated: 1, skipped: 0, nextCursor: 'p2' });
    const second = await steps['2026-11-25-subscription-history'](first.nextCursor);
    expect(second).toEqual({ scanned: 1, updated: 1, skipped: 0 });
    // A record from before `syncedAt` existed takes its `updated` time, so any later read of Stripe wins.
    expect(written.map((record) => [record.deviceId, record.id, record.syncedAt])).toEqual([
      ['d1', 'sub_1', 50],
      ['d3', 'sub_3', 30],
    ]);
  });

  it('the relations migration is the relations area’s page-by-page migration, its cursor handed on', async () => {
    const seen: unknown[] = [];
    const steps = migrationSteps({
      relations: {
        migrate: async (page) => {
          seen.push(page);
          return { scanned: 3, updated: 1, skipped: 1, nextCursor: page.cursor ? undefined : 'c2' };
        },
      },
      subscriptionPage: async () => ({ items: [] }),
      putHistory: async () => true,
    });
    expect(await steps['2026-10-01-relations-shape'](undefined)).toEqual({
      scanned: 3,
      updated: 1,
      skipped: 1,
      nextCursor: 'c2',
    });
    expect(await steps['2026-10-01-relations-shape']('c2')).toEqual({ scanned: 3, updated: 1, skipped: 1 });
    expect(seen).toEqual([{ limit: 100 }, { limit: 100, cursor: 'c2' }]);
  });
});
