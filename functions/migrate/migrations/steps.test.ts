import type { DeviceSubscriptionRecord } from '../../_shared/billing/device-subscription-record';
import { migrationSteps, type StepDeps } from './steps';

/** The deps no step of a test reaches. */
const unused: StepDeps = {
  relations: { migrate: async () => ({ scanned: 0, updated: 0, skipped: 0, nextCursor: undefined }) },
  subscriptionPage: async () => ({ items: [] }),
  putHistory: async () => true,
  webhookPage: async () => ({ items: [] }),
  removePresenceItems: async () => 0,
};

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
      ...unused,
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
      ...unused,
      relations: {
        migrate: async (page) => {
          seen.push(page);
          return { scanned: 3, updated: 1, skipped: 1, nextCursor: page.cursor ? undefined : 'c2' };
        },
      },
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

describe('the webhook presence items migration', () => {
  it("removes each webhook's presence items, page by page, counting the webhooks that had some", async () => {
    const held = new Map([
      ['wh_1', 3],
      ['wh_3', 1],
    ]);
    const pages: Record<string, { items: Record<string, unknown>[]; nextCursor?: string }> = {
      start: { items: [{ id: 'wh_1' }, { id: 'wh_2' }], nextCursor: 'p2' },
      p2: { items: [{ id: 'wh_3' }] },
    };
    const steps = migrationSteps({
      ...unused,
      webhookPage: async (cursor) => pages[cursor ?? 'start']!,
      removePresenceItems: async (webhookId) => {
        const count = held.get(webhookId) ?? 0;
        held.delete(webhookId);
        return count;
      },
    });
    const step = steps['2026-11-29-webhook-presence-items'];
    const first = await step(undefined);
    expect(first).toEqual({ scanned: 2, updated: 1, skipped: 1, nextCursor: 'p2' });
    expect(await step(first.nextCursor)).toEqual({ scanned: 1, updated: 1, skipped: 0 });
    expect(held.size).toBe(0);
    // Run again (a step is idempotent): nothing left to remove.
    expect(await step(undefined)).toEqual({ scanned: 2, updated: 0, skipped: 2, nextCursor: 'p2' });
  });
});
