import * as fc from 'fast-check';
import {
  DISABLE_AFTER_MS,
  deliveryIdOf,
  deliverySequence,
  firstBytes,
  JITTER,
  newSecret,
  newWebhookId,
  nextAttemptAt,
  outcomeOf,
  parseDeliveryId,
  RETRY_DELAYS_MS,
} from './webhook-rules';

const T0 = Date.UTC(2026, 3, 1, 12);

describe('the retry schedule', () => {
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, then 10 h again, each within ±20 %', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        (failures, random) => {
          const base = RETRY_DELAYS_MS[Math.min(failures, RETRY_DELAYS_MS.length) - 1]!;
          // Far from the day's end, so the cap does not cut the wait.
          const wait = nextAttemptAt(failures, T0, T0, random)! - T0;
          const cap = DISABLE_AFTER_MS;
          expect(wait).toBeGreaterThanOrEqual(Math.min(cap, Math.floor(base * (1 - JITTER))));
          expect(wait).toBeLessThanOrEqual(Math.min(cap, Math.ceil(base * (1 + JITTER))));
        },
      ),
    );
  });

  it('never waits past 24 hours after the first failure, and gives up once they are over', () => {
    expect(nextAttemptAt(6, T0 + DISABLE_AFTER_MS - 60_000, T0, 0.9)).toBe(T0 + DISABLE_AFTER_MS);
    expect(nextAttemptAt(7, T0 + DISABLE_AFTER_MS, T0, 0.1)).toBeUndefined();
  });

  it('calls a 2xx delivered, 410 gone, and everything else (3xx too: redirects are not followed) a failure', () => {
    expect([200, 204, 299].map(outcomeOf)).toEqual(['delivered', 'delivered', 'delivered']);
    expect(outcomeOf(410)).toBe('gone');
    expect([301, 302, 400, 404, 429, 500, 503, undefined].map(outcomeOf).every((o) => o === 'failed')).toBe(true);
  });
});

describe('ids and secrets', () => {
  it('names a delivery by its webhook, and reads both back', () => {
    const id = deliveryIdOf(newWebhookId(), deliverySequence(T0, 'o#1'));
    const parsed = parseDeliveryId(id)!;
    expect(deliveryIdOf(parsed.webhookId, parsed.sequence)).toBe(id);
    expect(parseDeliveryId('msg_nope')).toBeUndefined();
  });

  it('orders sequences by creation time', () => {
    expect(deliverySequence(T0, 'z') < deliverySequence(T0 + 1, 'a')).toBe(true);
  });

  it('makes whsec_ secrets of 24 random bytes', () => {
    const secret = newSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(24);
    expect(newSecret()).not.toBe(secret);
  });
});

describe('what is kept of an answer', () => {
  it('keeps at most 1 KB, never splitting a character', () => {
    expect(firstBytes('ok')).toBe('ok');
    const kept = firstBytes('é'.repeat(1000));
    expect(Buffer.byteLength(kept)).toBe(1024);
    expect(firstBytes(`a${'é'.repeat(1000)}`)).toBe(`a${'é'.repeat(511)}`);
  });
});
