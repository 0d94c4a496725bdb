import Stripe from 'stripe';
import { LOG_EVENTS } from '../../../shared/operations/log-events';
import { recordingLog } from '../../../test/support/log';
import { createWebhooks, INVALID_SIGNATURE, type WebhookDeps } from './webhooks';

const SECRET = 'whsec_test_secret';
const stripe = new Stripe('sk_test_placeholder');

const webhooks = () => {
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
    now: () => 1_700_000_000_000,
    counters: { count: (name: string) => failures.push(name), seconds: () => undefined },
  } as unknown as WebhookDeps;
  return { receive: createWebhooks(deps).receive, worked, failures, lines };
};

describe('Stripe webhook signature check', () => {
  const body = JSON.stringify({ id: 'evt_1', object: 'event', type: 'ping', data: { object: {} } });

  it('refuses a body the header does not sign, with the log line the refusal alarm counts', async () => {
    const header = stripe.webhooks.generateTestHeaderString({ payload: body, secret: 'whsec_someone_else' });
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
    const header = stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET });
    const { receive, worked, failures, lines } = webhooks();
    await expect(receive(body, header)).resolves.toEqual({ received: true });
    expect(worked).toEqual(['evt_1']);
    expect(failures).toEqual([]);
    expect(lines.filter((l) => l.fields.event === LOG_EVENTS.stripeWebhookRefused)).toEqual([]);
  });
});
