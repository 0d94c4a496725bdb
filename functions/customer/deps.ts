import {
  type ReadSecret,
  readBillingEnv,
  secretsManagerReader,
  stripeClientProvider,
} from '../_shared/billing/stripe-client';
import { getDocumentClient, getSecretsManagerClient, getSqsClient } from '../_shared/clients';
import { type EnvSource, readEnv, readOneOfEnv } from '../_shared/env';
import { createEventPublisher } from '../_shared/events/event-publisher';
import { createWebhookPublisherOf, WEBHOOK_PUBLISHER_ENV } from '../_shared/integrations/webhook-wiring';
import { log } from '../_shared/logger';
import { lambdaCounters } from '../_shared/metrics';
import { createWebhooks } from './domain/webhooks';
import { createBillingStore } from './store/billing-store';
import { createCartStore } from './store/cart-store';

export const CUSTOMER_ENV = {
  subscriptionsTable: 'DEVICE_SUBSCRIPTIONS_TABLE',
  historyTable: 'DEVICE_SUBSCRIPTION_HISTORY_TABLE',
  eventsTable: 'BILLING_EVENTS_TABLE',
  devicesTable: 'DEVICES_TABLE',
  jobsQueueUrl: 'JOBS_QUEUE_URL',
  /** A paid checkout takes what it bought out of the buyer's cart, on their record. */
  usersTable: 'USERS_TABLE',
  ...WEBHOOK_PUBLISHER_ENV,
} as const;

/** The webhook signing secret itself (only the local stack sets it) or its Secrets Manager secret (the CDK). */
const WEBHOOK_SECRET_ENV = { direct: 'STRIPE_WEBHOOK_SECRET', arn: 'STRIPE_WEBHOOK_SECRET_ARN' } as const;

/** The area's settings, read once at cold start: its tables and queue, billing, and where the webhook secret is. */
export const readCustomerEnv = (env?: EnvSource) => ({
  ...readEnv(CUSTOMER_ENV, env),
  billing: readBillingEnv(env),
  webhookSecret: readOneOfEnv(WEBHOOK_SECRET_ENV, env),
});

export type CustomerEnv = ReturnType<typeof readCustomerEnv>;

/**
 * The webhook signing secret, read from Secrets Manager at the first webhook like the API key (decision 010) when the
 * environment names its secret. A read that holds no `whsec_…` is not remembered, so the next webhook tries again.
 */
export const webhookSecretOf = (
  source: CustomerEnv['webhookSecret'],
  readSecret: () => ReadSecret,
): (() => Promise<string>) => {
  if ('direct' in source) return async () => source.direct;
  const { arn } = source;
  let secret: Promise<string> | undefined;
  return () => {
    secret ??= readSecret()(arn).then((value) => {
      if (!value?.startsWith('whsec_')) {
        secret = undefined;
        throw new Error(`The secret ${arn} holds no Stripe webhook signing secret (whsec_…): see README, "Billing"`);
      }
      return value;
    });
    return secret;
  };
};

export const createCustomerDeps = (env: CustomerEnv) => {
  const db = getDocumentClient();
  return {
    webhooks: createWebhooks({
      log,
      events: createEventPublisher({ sqs: getSqsClient(), queueUrl: env.jobsQueueUrl }),
      stripe: stripeClientProvider(env.billing, secretsManagerReader(getSecretsManagerClient())),
      webhookSecret: webhookSecretOf(env.webhookSecret, () => secretsManagerReader(getSecretsManagerClient())),
      store: createBillingStore({
        db,
        subscriptionsTable: env.subscriptionsTable,
        historyTable: env.historyTable,
        eventsTable: env.eventsTable,
        devicesTable: env.devicesTable,
      }),
      carts: createCartStore({ db, tableName: env.usersTable }),
      deviceWebhooks: createWebhookPublisherOf(env),
      now: Date.now,
      counters: lambdaCounters,
    }),
  };
};

export type CustomerDeps = ReturnType<typeof createCustomerDeps>;
