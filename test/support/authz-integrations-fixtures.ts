import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { KEEP_MS } from '../../functions/_shared/integrations/webhook-records';
import {
  deliveryIdOf,
  deliverySequence,
  newSecret,
  newWebhookId,
} from '../../functions/integrations/domain/webhook-rules';
import { createDeliveryStore } from '../../functions/integrations/store/delivery-store';
import { createLocalSecretBox } from '../../functions/integrations/store/secret-box';
import { createWebhookStore } from '../../functions/integrations/store/webhook-store';
import { deviceOwnedBy } from './authz-devices-fixtures';
import { CALLERS, type CallerName, onOwnedOrForeign, type RouteFixture } from './authz-fixture-types';
import { type DemoEmail, documentClient, stack, subOf } from './stack';

/**
 * The authorization matrix's fixtures for the integrations area (functions/integrations). Each call meets a fresh
 * device (registered and claimed through the devices area) owned by the caller (`owned`) or by another demo account
 * (`foreign`), and, where the route names one, a webhook of it and a delivery, written as
 * the area writes them. Webhooks point at the discard port of 127.0.0.1: a test or replay the matrix starts is
 * refused there at once.
 */

const emailOf = (caller: CallerName): DemoEmail =>
  (caller === 'guest' ? 'user@example.com' : CALLERS[caller].email) as DemoEmail;

const URL_NOWHERE = 'http://127.0.0.1:9/hook';

/** The demo account that holds the fixture's device: the caller, or another one. */
const holderEmailOf = (caller: CallerName, whose: 'owned' | 'foreign'): DemoEmail =>
  whose === 'owned'
    ? emailOf(caller)
    : (CALLERS[(['user', 'approved'] as const).find((name) => name !== caller)!].email as DemoEmail);

const holderOf = (caller: CallerName, whose: 'owned' | 'foreign') => subOf(holderEmailOf(caller, whose));

/**
 * A device owned by the caller or by someone else, registered and claimed through the devices area: a record written
 * here by hand once lacked the fields the area always writes, and broke the holder's device list (a 500).
 */
const device = (caller: CallerName, whose: 'owned' | 'foreign') => deviceOwnedBy(holderEmailOf(caller, whose));

const box = () => createLocalSecretBox(readFileSync(path.join(stack().dataDir, 'webhook-secrets.key'), 'utf8').trim());

/** A webhook of a device owned by the caller or by someone else, as the area stores it. */
const webhook = async (caller: CallerName, whose: 'owned' | 'foreign') => {
  const target = await device(caller, whose);
  const id = newWebhookId();
  const now = Date.now();
  await createWebhookStore({ db: documentClient(), tableName: stack().tables.webhooks! }).create({
    id,
    url: URL_NOWHERE,
    events: ['export.ready'],
    targetKind: 'device',
    targetId: target,
    description: '',
    status: 'enabled',
    secret: await box().seal(newSecret(), id),
    created: now,
    createdBy: await holderOf(caller, whose),
    updated: now,
  });
  return id;
};

/** A delivered delivery of such a webhook. */
const delivery = async (caller: CallerName, whose: 'owned' | 'foreign') => {
  const webhookId = await webhook(caller, whose);
  const created = Date.now();
  const sequence = deliverySequence(created, webhookId);
  const body = JSON.stringify({
    id: 'evt_matrix',
    type: 'ping',
    time: new Date(created).toISOString(),
    version: 1,
    data: {},
  });
  await createDeliveryStore({ db: documentClient(), tableName: stack().tables.webhookDeliveries! }).createDelivery({
    id: deliveryIdOf(webhookId, sequence),
    webhookId,
    sk: `d#${sequence}`,
    kind: 'ping',
    eventId: 'evt_matrix',
    eventType: 'ping',
    status: 'delivered',
    attempts: [{ at: created, statusCode: 204, durationMs: 3 }],
    attemptCount: 1,
    bytes: Buffer.byteLength(body),
    body: gzipSync(body),
    created,
    deliveredAt: created,
    expiresAt: created + KEEP_MS,
    entries: [],
  });
  return deliveryIdOf(webhookId, sequence);
};

export const INTEGRATIONS_FIXTURES: Record<string, RouteFixture> = {
  createWebhook: onOwnedOrForeign(device, (id) => ({
    body: { url: URL_NOWHERE, events: ['export.ready'], target: { kind: 'device', id } },
  })),
  listWebhooks: onOwnedOrForeign(device, (id) => ({ query: { targetKind: 'device', targetId: id, limit: 5 } })),
  getWebhook: onOwnedOrForeign(webhook, (id) => ({ params: { id } })),
  updateWebhook: onOwnedOrForeign(webhook, (id) => ({
    params: { id },
    body: { description: 'Changed by the matrix' },
  })),
  deleteWebhook: onOwnedOrForeign(webhook, (id) => ({ params: { id } })),
  rotateSecret: onOwnedOrForeign(webhook, (id) => ({ params: { id } })),
  testWebhook: onOwnedOrForeign(webhook, (id) => ({ params: { id } })),
  listDeliveries: onOwnedOrForeign(webhook, (id) => ({ params: { id }, query: { limit: 5 } })),
  replayDelivery: onOwnedOrForeign(delivery, (id) => ({ params: { id } })),
};
