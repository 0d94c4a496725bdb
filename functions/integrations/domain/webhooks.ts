import type { Caller } from '../../../shared/auth/verify-token';
import type {
  CreatedWebhook,
  Delivery,
  RotatedSecret,
  TargetKind,
  Webhook,
  WebhookTarget,
} from '../../../shared/contracts/integrations';
import { PING_MESSAGE } from '../../../shared/contracts/integrations';
import type { WebhookEventType } from '../../../shared/contracts/webhook-events';
import { MESSAGES } from '../../../shared/messages';
import type { Access } from '../../_shared/access/access';
import { type AuditNote, NO_AUDIT } from '../../_shared/audit/audit-note';
import { BadRequest, Conflict, Forbidden, NotFound } from '../../_shared/errors';
import { MAX_WEBHOOKS_PER_TARGET } from '../../_shared/integrations/webhook-directory';
import type { WebhookOutbox } from '../../_shared/integrations/webhook-outbox';
import {
  DELIVERY_PREFIX,
  eventIdOf,
  type QueuedEvent,
  watchesPresence,
} from '../../_shared/integrations/webhook-records';
import type { Log } from '../../_shared/logger';
import { cursorPage } from '../../_shared/paging';
import type {
  DeliveryStore,
  DeliverySummary,
  PresenceWatches,
  SecretBox,
  TargetDirectory,
  WebhookChanges,
  WebhookRecord,
  WebhookStore,
} from './ports';
import { presenceWatchMoved } from './presence-watch';
import { type TargetPolicy, urlProblem } from './target-policy';
import { PREVIOUS_SECRET_MS, parseDeliveryId } from './webhook-rules';

export interface WebhooksDeps {
  store: WebhookStore;
  deliveries: Pick<
    DeliveryStore,
    'getLane' | 'addReplay' | 'countQueued' | 'getDelivery' | 'updateDelivery' | 'listDeliveries' | 'removeLane'
  >;
  outbox: Pick<WebhookOutbox, 'append' | 'wake'>;
  secrets: SecretBox;
  targets: Pick<TargetDirectory, 'exists'>;
  presence: PresenceWatches;
  access: Access;
  /** Where webhooks may point in this home (WEBHOOK_TARGETS). */
  policy: TargetPolicy;
  now: () => number;
  newId: () => string;
  newSecret: () => string;
  log: Log;
}

interface PageRequest {
  limit: number;
  cursor?: string;
}

/** Events waited counted up to this for a webhook's page: beyond, "1,000 or more". */
const WAITING_COUNT_MAX = 1_000;

export const webhookView = (record: WebhookRecord, now: number, waiting?: number): Webhook => ({
  id: record.id,
  url: record.url,
  events: record.events,
  target: { kind: record.targetKind, id: record.targetId },
  description: record.description,
  status: record.status,
  ...(record.disabledReason ? { disabledReason: record.disabledReason } : {}),
  ...(record.disabledAt !== undefined ? { disabledAt: record.disabledAt } : {}),
  ...(record.failingSince !== undefined ? { failingSince: record.failingSince } : {}),
  ...(record.previousSecretUntil !== undefined && record.previousSecretUntil > now
    ? { previousSecretUntil: record.previousSecretUntil }
    : {}),
  ...(waiting !== undefined ? { waiting } : {}),
  created: record.created,
  createdBy: record.createdBy,
  updated: record.updated,
});

export const deliveryView = (record: DeliverySummary): Delivery => ({
  id: record.id,
  webhookId: record.webhookId,
  eventId: record.eventId,
  eventType: record.eventType,
  status: record.status,
  attemptCount: record.attemptCount,
  attempts: record.attempts,
  ...(record.batches !== undefined ? { batches: record.batches } : {}),
  bytes: record.bytes,
  created: record.created,
  ...(record.nextAttemptAt !== undefined && (record.status === 'pending' || record.status === 'retrying')
    ? { nextAttemptAt: record.nextAttemptAt }
    : {}),
  ...(record.deliveredAt !== undefined ? { deliveredAt: record.deliveredAt } : {}),
  expiresAt: record.expiresAt,
});

/** What the audit log keeps of a webhook: never its secrets. */
const auditable = ({ secret: _s, previousSecret: _p, ...rest }: WebhookRecord) => rest;

/**
 * The webhooks' routes (docs/integrations.md): who may (manage on the target: a device's owner or administrators, a
 * campaign's or organization's managers, or staff), where a webhook may point, its secret shown once, its log.
 */
export const createWebhooks = (deps: WebhooksDeps) => {
  const { store, deliveries, outbox, access, now, log } = deps;

  const checkUrl = (url: string) => {
    const problem = urlProblem(url, deps.policy);
    if (problem) throw new BadRequest(`Invalid body: url: ${problem}`, [{ path: 'body.url', message: problem }]);
  };

  const mayManage = async (caller: Caller, kind: TargetKind, id: string) => {
    const decision = await access.forCaller(caller).check(kind, id, { need: 'manage' });
    if (!decision.allowed) throw new Forbidden(MESSAGES.webhookManagerRequired(kind));
  };

  /** The webhook, if the caller may manage its target. */
  const load = async (caller: Caller, id: string): Promise<WebhookRecord> => {
    const record = await store.get(id);
    if (!record) throw new NotFound(MESSAGES.webhookNotFound(id));
    await mayManage(caller, record.targetKind, record.targetId);
    return record;
  };

  const change = async (record: WebhookRecord, changes: WebhookChanges) => {
    const changed = await store.change(
      record.id,
      { ...changes, updated: Math.max(now(), record.updated + 1) },
      record.updated,
    );
    if (!changed) throw new Conflict(MESSAGES.webhookChanged);
    return changed;
  };

  /** The alerts area starts or stops watching the target's devices' presence (presence-watch.ts). */
  const presenceMoved = async (
    before: boolean,
    after: boolean,
    record: Pick<WebhookRecord, 'id' | 'targetKind' | 'targetId'>,
  ) => {
    if (before !== after) await presenceWatchMoved(deps.presence, log, record);
  };

  /** The delivery under way is sent now rather than at its retry time (the webhook is on again, or points elsewhere). */
  const resumeHead = async (webhookId: string) => {
    const lane = await deliveries.getLane(webhookId);
    if (lane?.head) {
      const head = await deliveries.getDelivery(webhookId, lane.head);
      if (head && (head.status === 'waiting' || head.status === 'retrying' || head.status === 'pending')) {
        await deliveries.updateDelivery(webhookId, head.sk, { status: 'pending', nextAttemptAt: now() });
      }
    }
    await outbox.wake(webhookId, { immediately: true });
  };

  return {
    create: async (
      caller: Caller,
      input: { url: string; events: WebhookEventType[]; target: WebhookTarget; description: string },
    ): Promise<CreatedWebhook> => {
      checkUrl(input.url);
      await mayManage(caller, input.target.kind, input.target.id);
      if (!(await deps.targets.exists(input.target.kind, input.target.id))) {
        throw new NotFound(MESSAGES.webhookTargetNotFound(input.target.kind, input.target.id));
      }
      if (
        (await store.countByTarget(input.target.kind, input.target.id, MAX_WEBHOOKS_PER_TARGET)) >=
        MAX_WEBHOOKS_PER_TARGET
      ) {
        throw new Conflict(MESSAGES.webhookLimit(MAX_WEBHOOKS_PER_TARGET));
      }
      const id = deps.newId();
      const secret = deps.newSecret();
      const time = now();
      const record: WebhookRecord = {
        id,
        url: input.url,
        events: input.events,
        targetKind: input.target.kind,
        targetId: input.target.id,
        description: input.description,
        status: 'enabled',
        secret: await deps.secrets.seal(secret, id),
        created: time,
        createdBy: caller.sub,
        updated: time,
      };
      if (!(await store.create(record))) throw new Conflict(MESSAGES.webhookChanged);
      log('info', 'Webhook added', { webhookId: id, target: `${record.targetKind}#${record.targetId}` });
      await presenceMoved(false, watchesPresence(record), record);
      return { ...webhookView(record, time), secret };
    },

    list: async (caller: Caller, kind: TargetKind, targetId: string, request: PageRequest) => {
      await mayManage(caller, kind, targetId);
      const page = await cursorPage(
        (startKey, limit) => store.listByTarget(kind, targetId, { limit, startKey }),
        request,
      );
      return { ...page, items: page.items.map((record) => webhookView(record, now())) };
    },

    get: async (caller: Caller, id: string): Promise<Webhook> => {
      const record = await load(caller, id);
      return webhookView(record, now(), await deliveries.countQueued(id, WAITING_COUNT_MAX));
    },

    update: async (
      caller: Caller,
      id: string,
      input: { url?: string; events?: WebhookEventType[]; description?: string; enabled?: boolean },
      audit: AuditNote = NO_AUDIT,
    ): Promise<Webhook> => {
      const record = await load(caller, id);
      audit.label(record.url);
      audit.before(auditable(record));
      if (input.url !== undefined) checkUrl(input.url);
      const changes: WebhookChanges = {
        ...(input.url !== undefined ? { url: input.url } : {}),
        ...(input.events !== undefined ? { events: input.events } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
      };
      const turnOn = input.enabled === true && record.status === 'disabled';
      const turnOff = input.enabled === false && record.status === 'enabled';
      if (turnOn)
        Object.assign(changes, { status: 'enabled', disabledReason: null, disabledAt: null, failingSince: null });
      if (turnOff) Object.assign(changes, { status: 'disabled', disabledReason: 'owner', disabledAt: now() });
      const changed = await change(record, changes);
      await presenceMoved(watchesPresence(record), watchesPresence(changed), changed);
      const moved = input.url !== undefined && input.url !== record.url;
      // On again, or pointed elsewhere: what waited goes now. Off: the lane parks what it holds.
      if (turnOn || (moved && changed.status === 'enabled')) await resumeHead(id);
      else if (turnOff) await outbox.wake(id, { immediately: true });
      return webhookView(changed, now());
    },

    remove: async (caller: Caller, id: string, audit: AuditNote = NO_AUDIT): Promise<void> => {
      const record = await load(caller, id);
      audit.label(record.url);
      audit.before(auditable(record));
      await store.remove(id);
      await deliveries.removeLane(id);
      await presenceMoved(watchesPresence(record), false, record);
    },

    rotateSecret: async (caller: Caller, id: string, audit: AuditNote = NO_AUDIT): Promise<RotatedSecret> => {
      const record = await load(caller, id);
      audit.label(record.url);
      const secret = deps.newSecret();
      const previousSecretUntil = now() + PREVIOUS_SECRET_MS;
      await change(record, {
        secret: await deps.secrets.seal(secret, id),
        previousSecret: record.secret,
        previousSecretUntil,
      });
      return { secret, previousSecretUntil };
    },

    test: async (caller: Caller, id: string): Promise<{ eventId: string }> => {
      await load(caller, id);
      const time = now();
      const data = { webhookId: id, message: PING_MESSAGE };
      const ping: QueuedEvent = {
        id: eventIdOf('ping', id, time, deps.newId()),
        type: 'ping',
        time,
        orderAt: time,
        data,
        bytes: Buffer.byteLength(JSON.stringify(data)),
      };
      await outbox.append(id, [ping]);
      await outbox.wake(id, { immediately: true });
      return { eventId: ping.id };
    },

    deliveries: async (caller: Caller, id: string, request: PageRequest) => {
      await load(caller, id);
      const at = now();
      const page = await cursorPage((startKey, limit) => deliveries.listDeliveries(id, { limit, startKey }), request);
      return { ...page, items: page.items.filter((item) => item.expiresAt > at).map(deliveryView) };
    },

    replay: async (caller: Caller, deliveryId: string, audit: AuditNote = NO_AUDIT): Promise<Delivery> => {
      const named = parseDeliveryId(deliveryId);
      if (!named) throw new NotFound(MESSAGES.webhookDeliveryNotFound(deliveryId));
      const record = await store.get(named.webhookId);
      if (!record) throw new NotFound(MESSAGES.webhookDeliveryNotFound(deliveryId));
      await mayManage(caller, record.targetKind, record.targetId);
      const sk = `${DELIVERY_PREFIX}${named.sequence}`;
      const delivery = await deliveries.getDelivery(record.id, sk);
      if (!delivery || delivery.expiresAt <= now()) throw new NotFound(MESSAGES.webhookDeliveryNotFound(deliveryId));
      audit.label(record.url);
      if (record.status === 'disabled') throw new Conflict(MESSAGES.webhookReplayDisabled);
      const lane = await deliveries.getLane(record.id);
      if (lane?.head === sk) {
        await deliveries.updateDelivery(record.id, sk, { status: 'pending', nextAttemptAt: now() });
      } else {
        await deliveries.addReplay(record.id, sk);
      }
      await outbox.wake(record.id, { immediately: true });
      return deliveryView(delivery);
    },
  };
};

export type Webhooks = ReturnType<typeof createWebhooks>;
