import { getDocumentClient, getSqsClient } from '../clients';
import { createRelationTable } from '../relations/relation-table';
import { createWebhookDirectory } from './webhook-directory';
import { createLaneWakeSender, createWebhookOutbox } from './webhook-outbox';
import { createWebhookPublisher } from './webhook-publisher';

/**
 * The variables an area that publishes webhook events reads (beside its own): SERVICE_RESOURCES grants it reads of
 * `webhooks` and `relations`, writes of `webhookDeliveries`, and sends to the `webhooks` queue.
 */
export const WEBHOOK_PUBLISHER_ENV = {
  webhooksTable: 'WEBHOOKS_TABLE',
  webhookDeliveriesTable: 'WEBHOOK_DELIVERIES_TABLE',
  relationsTable: 'RELATIONS_TABLE',
  webhooksQueueUrl: 'WEBHOOKS_QUEUE_URL',
} as const;

export type WebhookPublisherEnv = Record<keyof typeof WEBHOOK_PUBLISHER_ENV, string>;

/** The webhook directory over the real tables, with one device-groups cache per Lambda instance. */
export const createWebhookDirectoryOf = (env: WebhookPublisherEnv, now: () => number = Date.now) => {
  const db = getDocumentClient();
  return createWebhookDirectory({
    db,
    webhooksTable: env.webhooksTable,
    relations: createRelationTable({ db, tableName: env.relationsTable }),
    now,
  });
};

/** The webhook publisher over the real tables and queue, with one device-groups cache per Lambda instance. */
export const createWebhookPublisherOf = (env: WebhookPublisherEnv, now: () => number = Date.now) => {
  const db = getDocumentClient();
  return createWebhookPublisher({
    directory: createWebhookDirectoryOf(env, now),
    outbox: createWebhookOutbox({
      db,
      tableName: env.webhookDeliveriesTable,
      wakes: createLaneWakeSender({ sqs: getSqsClient(), queueUrl: env.webhooksQueueUrl }),
      now,
    }),
  });
};
