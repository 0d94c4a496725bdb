import { readBillingEnv, secretsManagerReader, stripeClientProvider } from '../_shared/billing/stripe-client';
import { getDocumentClient, getSecretsManagerClient, getSqsClient } from '../_shared/clients';
import { readEnv } from '../_shared/env';
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

/**
 * The webhook signing secret: STRIPE_WEBHOOK_SECRET itself (only the local stack sets it) or the Secrets Manager
 * secret named by STRIPE_WEBHOOK_SECRET_ARN (the CDK), read at cold start like the API key (decision 010).
 */
export const readWebhookSecret = (
  env: Record<string, string | undefined> = process.env,
  readSecret = () => secretsManagerReader(getSecretsManagerClient()),
): (() => Promise<string>) => {
  const direct = env.STRIPE_WEBHOOK_SECRET;
  const arn = env.STRIPE_WEBHOOK_SECRET_ARN;
  if (!direct && !arn)
    throw new Error('Missing environment variables: STRIPE_WEBHOOK_SECRET or STRIPE_WEBHOOK_SECRET_ARN');
  if (direct) return async () => direct;
  let secret: Promise<string> | undefined;
  return () => {
    secret ??= readSecret()(arn!).then((value) => {
      if (!value?.startsWith('whsec_')) {
        secret = undefined;
        throw new Error(`The secret ${arn} holds no Stripe webhook signing secret (whsec_…): see README, "Billing"`);
      }
      return value;
    });
    return secret;
  };
};

export const createCustomerDeps = (env = readEnv(CUSTOMER_ENV)) => {
  const db = getDocumentClient();
  return {
    webhooks: createWebhooks({
      log,
      events: createEventPublisher({ sqs: getSqsClient(), queueUrl: env.jobsQueueUrl }),
      stripe: stripeClientProvider(readBillingEnv(), secretsManagerReader(getSecretsManagerClient())),
      webhookSecret: readWebhookSecret(),
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
