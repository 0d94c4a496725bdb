import { createWebhookPublisher, MAX_PART_BYTES, readingsEvents } from './webhook-publisher';
import type { QueuedEvent } from './webhook-records';

const T0 = Date.UTC(2026, 3, 1, 12);

describe('the webhook publisher', () => {
  it('stores each event in the lanes of the webhooks that take it, once per webhook, and wakes each lane once', async () => {
    const stored: [string, string[]][] = [];
    const woken: string[] = [];
    const publisher = createWebhookPublisher({
      directory: {
        subscribers: async (deviceId, type) =>
          (
            ({ 'dev-a:readings.received': ['wh_org', 'wh_dev'], 'dev-b:readings.received': ['wh_org'] }) as Record<
              string,
              string[]
            >
          )[`${deviceId}:${type}`] ?? [],
      },
      outbox: {
        append: async (webhookId, events) => void stored.push([webhookId, events.map((e) => e.deviceId!)]),
        wake: async (webhookId) => {
          woken.push(webhookId);
          return true;
        },
      },
    });
    const reached = await publisher.publish([
      ...readingsEvents('dev-a', [{ timestamp: T0, values: { co2: 1 } }], T0),
      ...readingsEvents('dev-b', [{ timestamp: T0, values: { co2: 2 } }], T0),
      ...readingsEvents('dev-c', [{ timestamp: T0, values: { co2: 3 } }], T0),
    ]);
    expect(reached).toBe(2);
    expect(stored.sort()).toEqual([
      ['wh_dev', ['dev-a']],
      ['wh_org', ['dev-a', 'dev-b']],
    ]);
    expect(woken.sort()).toEqual(['wh_dev', 'wh_org']);
  });

  it('makes the same batch the same event (a resent batch is stored once), and splits a large batch into ordered parts', () => {
    const readings = [{ timestamp: T0, values: { co2: 1 } }];
    expect(readingsEvents('d', readings, T0)[0]!.id).toBe(readingsEvents('d', readings, T0 + 5_000)[0]!.id);
    expect(readingsEvents('d', readings, T0)[0]!.id).not.toBe(readingsEvents('e', readings, T0)[0]!.id);
    const many = Array.from({ length: 500 }, (_, i) => ({
      timestamp: T0 - i * 1_000,
      values: Object.fromEntries(Array.from({ length: 32 }, (_, j) => [`measurement_${j}`, i * 1.000001 + j])),
    }));
    const parts: QueuedEvent[] = readingsEvents('d', many, T0);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.every((part) => part.bytes <= MAX_PART_BYTES + 100)).toBe(true);
    const times = parts.flatMap((part) =>
      (part.data as { batches: { readings: { timestamp: number }[] }[] }).batches[0]!.readings.map((r) => r.timestamp),
    );
    expect(times).toEqual(many.map((r) => r.timestamp).sort((a, b) => a - b));
    expect(parts.map((part) => part.orderAt)).toEqual([...parts.map((part) => part.orderAt)].sort((a, b) => a - b));
  });
});
