import { ONLINE_WINDOW_MS } from '../../../shared/devices/presence';
import { memoryDeliveries, memoryWebhooks } from '../../../test/support/integrations-memory';
import { silentLog } from '../../../test/support/log';
import type { QueuedEvent } from '../../_shared/integrations/webhook-records';
import type { WebhookRecord } from './ports';
import { createPresence } from './presence';

const T0 = Date.UTC(2026, 3, 1, 12);
const MINUTE = 60_000;

const record = (overrides: Partial<WebhookRecord>): WebhookRecord => ({
  id: 'wh_1',
  url: 'https://x.example/',
  events: ['device.online', 'device.offline'],
  targetKind: 'organization',
  targetId: 'o1',
  description: '',
  status: 'enabled',
  secret: 's',
  created: T0,
  createdBy: 'u',
  updated: T0,
  ...overrides,
});

describe('presence', () => {
  it('tells a webhook of each change of its devices, not of the state it first sees, only the types it takes', async () => {
    const webhooks = memoryWebhooks([
      record({}),
      record({ id: 'wh_offline_only', events: ['device.offline'] }),
      record({ id: 'wh_off', status: 'disabled', disabledReason: 'owner' }),
    ]);
    const deliveries = memoryDeliveries();
    const seen = new Map<string, number>([
      ['d1', T0 - MINUTE],
      ['d2', T0 - 2 * ONLINE_WINDOW_MS],
    ]);
    const told: [string, QueuedEvent][] = [];
    const presence = createPresence({
      store: webhooks.store,
      deliveries: deliveries.store,
      targets: { devicesOf: async () => ['d1', 'd2', 'd3'], lastSeen: async () => new Map(seen) },
      outbox: {
        append: async (webhookId, events) =>
          void told.push(...events.map((e) => [webhookId, e] as [string, QueuedEvent])),
        wake: async () => true,
      },
      log: silentLog,
    });
    // First look: recorded, nothing told.
    expect(await presence.run(T0)).toEqual({ webhooks: 2, events: 0 });
    // d1 goes quiet, d2 reports again.
    seen.set('d2', T0 + 5 * MINUTE);
    await presence.run(T0 + ONLINE_WINDOW_MS + 2 * MINUTE);
    expect(told.map(([id, e]) => [id, e.type, e.deviceId])).toEqual([
      ['wh_1', 'device.offline', 'd1'],
      ['wh_1', 'device.online', 'd2'],
      ['wh_offline_only', 'device.offline', 'd1'],
    ]);
    expect(told[0]![1].data).toEqual({ deviceId: 'd1', lastSeen: T0 - MINUTE, onlineWindowMs: ONLINE_WINDOW_MS });
    // Nothing changed since: nothing more.
    await presence.run(T0 + ONLINE_WINDOW_MS + 3 * MINUTE);
    expect(told).toHaveLength(3);
  });
});
