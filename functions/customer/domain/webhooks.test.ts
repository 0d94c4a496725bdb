import Stripe from 'stripe';
import { LOG_EVENTS } from '../../../shared/operations/log-events';
import { recordingLog } from '../../../test/support/log';
import { createWebhooks, EVENT_NOT_WORKED, INVALID_SIGNATURE, type WebhookDeps } from './webhooks';

const SECRET = 'whsec_test_secret';
const stripe = new Stripe('sk_test_placeholder');

const NOW = 1_700_000_000_000;
/** Stripe's header for `payload`, signed `offset` seconds from the handler's clock. */
const headerFor = (payload: string, { offset = 0, secret = SECRET } = {}) =>
  stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: NOW / 1000 + offset });

const webhooks = (overrides: Partial<WebhookDeps> = {}) => {
  const worked: string[] = [];
  const failures: string[] = [];
  const { log, lines } = recordingLog();
  const deps = {
    log,
    events: { publish: async () => {} },
    stripe: async () => stripe,
    webhookSecret: async () => SECRET,
    store: {
      wasWorked: async (id: string) => worked.includes(id),
      markWorked: async (id: string) => {
        worked.push(id);
      },
    },
    carts: {},
    now: () => NOW,
    counters: { count: (name: string) => failures.push(name), seconds: () => undefined },
    ...overrides,
  } as unknown as WebhookDeps;
  return { receive: createWebhooks(deps).receive, worked, failures, lines };
};

describe('Stripe webhook signature check', () => {
  const body = JSON.stringify({ id: 'evt_1', object: 'event', type: 'ping', data: { object: {} } });

  it('refuses a body the header does not sign, with the log line the refusal alarm counts', async () => {
    const header = headerFor(body, { secret: 'whsec_someone_else' });
    const { receive, failures, lines } = webhooks();
    await expect(receive(body, header)).rejects.toThrow(INVALID_SIGNATURE);
    expect(failures).toEqual(['StripeWebhookFailures']);
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        fields: expect.objectContaining({ event: LOG_EVENTS.stripeWebhookRefused }),
      }),
    );
  });

  it('writes no refusal line for a delivery Stripe signed', async () => {
    const header = headerFor(body);
    const { receive, worked, failures, lines } = webhooks();
    await expect(receive(body, header)).resolves.toEqual({ received: true });
    expect(worked).toEqual(['evt_1']);
    expect(failures).toEqual([]);
    expect(lines.filter((l) => l.fields.event === LOG_EVENTS.stripeWebhookRefused)).toEqual([]);
  });
});

describe('Stripe webhook timestamps (audit)', () => {
  const body = JSON.stringify({ id: 'evt_2', object: 'event', type: 'ping', data: { object: {} } });

  it('refuses a signature more than 300 s old or more than 300 s ahead, and takes one within', async () => {
    for (const offset of [-301, 301, 3_600]) {
      const { receive, worked } = webhooks();
      await expect(receive(body, headerFor(body, { offset }))).rejects.toThrow(INVALID_SIGNATURE);
      expect(worked).toEqual([]);
    }
    for (const offset of [-299, 0, 299]) {
      await expect(webhooks().receive(body, headerFor(body, { offset }))).resolves.toEqual({ received: true });
    }
  });
});

describe('a well-signed event that cannot be applied (audit)', () => {
  const missingSubscription = Object.assign(new Error("No such subscription: 'sub_gone'"), {
    type: 'StripeInvalidRequestError',
    code: 'resource_missing',
    statusCode: 404,
  });
  const stripeWith = (retrieve: () => Promise<unknown>) =>
    ({ webhooks: stripe.webhooks, subscriptions: { retrieve } }) as unknown as Stripe;

  it('acknowledges an event without data, and one for a subscription Stripe does not know, saying so in the log', async () => {
    const events = [
      { id: 'evt_nodata', object: 'event', type: 'customer.subscription.updated' },
      { id: 'evt_nullobject', object: 'event', type: 'invoice.paid', data: { object: null } },
      {
        id: 'evt_gone',
        object: 'event',
        type: 'customer.subscription.deleted',
        data: { object: { id: 'sub_gone', object: 'subscription' } },
      },
    ];
    for (const event of events) {
      const payload = JSON.stringify(event);
      const { receive, worked, failures, lines } = webhooks({
        stripe: async () =>
          stripeWith(async () => {
            throw missingSubscription;
          }),
      });
      await expect(receive(payload, headerFor(payload))).resolves.toEqual({ received: true });
      // Worked: a delivery of it again is a duplicate, not another try.
      expect(worked).toEqual([event.id]);
      expect(failures).toEqual([]);
      expect(lines).toContainEqual(
        expect.objectContaining({
          level: 'warn',
          message: 'Stripe event acknowledged, not applied',
          fields: expect.objectContaining({ eventId: event.id, type: event.type }),
        }),
      );
    }
  });

  it('acknowledges a signed body that is no event at all', async () => {
    for (const payload of ['{}', '[]', 'null', '{"id":7,"type":"x"}']) {
      await expect(webhooks().receive(payload, headerFor(payload))).resolves.toEqual({ received: true });
    }
  });

  it('answers 503 when Stripe or the store fails, so Stripe sends it again: never a 500', async () => {
    const payload = JSON.stringify({
      id: 'evt_later',
      object: 'event',
      type: 'customer.subscription.updated',
      data: { object: { id: 'sub_1', object: 'subscription' } },
    });
    const { receive, worked, failures } = webhooks({
      stripe: async () =>
        stripeWith(async () => {
          throw Object.assign(new Error('An error occurred with our connection to Stripe.'), {
            type: 'StripeConnectionError',
          });
        }),
    });
    const error = await receive(payload, headerFor(payload)).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503, message: EVENT_NOT_WORKED });
    expect(worked).toEqual([]);
    expect(failures).toEqual(['StripeWebhookFailures']);
  });
});
