import {
  DELIVERY_PREFIX,
  LANE_SK,
  type QueuedEvent,
  queuedEventOf,
  queuedItem,
} from '../../functions/_shared/integrations/webhook-records';
import type {
  DeliveryRecord,
  DeliveryStore,
  LaneState,
  LaneTimer,
  SendOutcome,
  WebhookRecord,
  WebhookStore,
} from '../../functions/integrations/domain/ports';
import type { DomainEvent } from '../../shared/contracts/events';

/**
 * In-memory stand-ins for the integrations area's stores, keeping the rules the real ones keep (the lane's lease fences
 * every change; a delivery is written once), for the use cases' unit tests. The real stores are tested against the
 * emulators (test/integration/integrations).
 */
export const memoryWebhooks = (records: WebhookRecord[] = []) => {
  const byId = new Map(records.map((record) => [record.id, structuredClone(record)]));
  const store: WebhookStore = {
    get: async (id) => structuredClone(byId.get(id)),
    create: async (record) => {
      if (byId.has(record.id)) return false;
      byId.set(record.id, structuredClone(record));
      return true;
    },
    change: async (id, changes, expected) => {
      const record = byId.get(id);
      if (!record || record.updated !== expected) return undefined;
      for (const [name, value] of Object.entries(changes)) {
        if (value === null) delete (record as unknown as Record<string, unknown>)[name];
        else if (value !== undefined) (record as unknown as Record<string, unknown>)[name] = value;
      }
      return structuredClone(record);
    },
    remove: async (id) => {
      byId.delete(id);
    },
    listByTarget: async (kind, targetId) => ({
      items: [...byId.values()].filter((r) => r.targetKind === kind && r.targetId === targetId).reverse(),
    }),
    countByTarget: async (kind, targetId) =>
      [...byId.values()].filter((r) => r.targetKind === kind && r.targetId === targetId).length,
    markFailing: async (id, since) => {
      const record = byId.get(id);
      if (record && record.failingSince === undefined) record.failingSince = since;
    },
    markAnswering: async (id) => {
      const record = byId.get(id);
      if (record) delete record.failingSince;
    },
    disable: async (id, reason, at) => {
      const record = byId.get(id);
      if (record?.status !== 'enabled') return false;
      Object.assign(record, { status: 'disabled', disabledReason: reason, disabledAt: at });
      return true;
    },
  };
  return { store, byId };
};

export const memoryDeliveries = () => {
  const items = new Map<string, Record<string, unknown>>();
  const k = (webhookId: string, sk: string) => `${webhookId}\u0000${sk}`;
  const under = (webhookId: string, prefix: string) =>
    [...items.entries()]
      .filter(([key]) => key.startsWith(`${webhookId}\u0000${prefix}`))
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([, item]) => item);
  const lane = (webhookId: string) => {
    const key = k(webhookId, LANE_SK);
    if (!items.has(key)) items.set(key, { webhookId, sk: LANE_SK });
    return items.get(key)!;
  };
  const laneState = (item: Record<string, unknown>): LaneState => {
    const { webhookId: _w, sk: _s, replays, ...rest } = structuredClone(item);
    const list = [...((replays as Set<string> | undefined) ?? [])].sort();
    return { ...(rest as LaneState), ...(list.length ? { replays: list } : {}) };
  };
  const store: DeliveryStore = {
    getLane: async (webhookId) => {
      const item = items.get(k(webhookId, LANE_SK));
      return item ? laneState(item) : undefined;
    },
    acquire: async (webhookId, owner, now, until) => {
      const item = lane(webhookId);
      if (typeof item.leaseUntil === 'number' && item.leaseUntil >= now && item.leaseOwner !== owner) return undefined;
      Object.assign(item, { leaseOwner: owner, leaseUntil: until });
      delete item.wakeAt;
      return laneState(item);
    },
    changeLane: async (webhookId, owner, changes) => {
      const item = lane(webhookId);
      if (item.leaseOwner !== owner) return false;
      if (changes.head === null) delete item.head;
      else if (changes.head !== undefined) item.head = changes.head;
      if (changes.timer === null) delete item.timer;
      else if (changes.timer !== undefined) item.timer = { ...changes.timer };
      if (changes.lastCreated !== undefined) item.lastCreated = changes.lastCreated;
      for (const sk of changes.replaysDone ?? []) (item.replays as Set<string> | undefined)?.delete(sk);
      return true;
    },
    release: async (webhookId, owner) => {
      const item = lane(webhookId);
      if (item.leaseOwner !== owner) return 'lost';
      if (item.wakeAt !== undefined) {
        delete item.wakeAt;
        return 'again';
      }
      delete item.leaseOwner;
      delete item.leaseUntil;
      return 'released';
    },
    addReplay: async (webhookId, sk) => {
      const item = lane(webhookId);
      item.replays = new Set([...((item.replays as Set<string> | undefined) ?? []), sk]);
    },
    firstQueued: async (webhookId, prefix, limit) => under(webhookId, prefix).slice(0, limit).map(queuedEventOf),
    countQueued: async (webhookId, max) => Math.min(max, under(webhookId, 'o#').length),
    removeQueued: async (webhookId, sks) => {
      for (const sk of sks) items.delete(k(webhookId, sk));
    },
    createDelivery: async (record) => {
      const key = k(record.webhookId, record.sk);
      if (items.has(key)) return false;
      items.set(key, structuredClone({ ...record }) as unknown as Record<string, unknown>);
      return true;
    },
    getDelivery: async (webhookId, sk) => structuredClone(items.get(k(webhookId, sk))) as DeliveryRecord | undefined,
    updateDelivery: async (webhookId, sk, changes) => {
      const item = items.get(k(webhookId, sk));
      if (!item) return;
      for (const [name, value] of Object.entries(changes)) {
        if (value === undefined) delete item[name];
        else item[name] = structuredClone(value);
      }
    },
    listDeliveries: async (webhookId) => ({
      items: under(webhookId, DELIVERY_PREFIX)
        .reverse()
        .map((item) => {
          const { body: _b, entries: _e, ...summary } = structuredClone(item);
          return summary as unknown as DeliveryRecord;
        }),
    }),
    removeLane: async (webhookId) => {
      for (const key of [...items.keys()]) {
        const sk = key.split('\u0000')[1]!;
        if (key.startsWith(`${webhookId}\u0000`) && !sk.startsWith(DELIVERY_PREFIX)) items.delete(key);
      }
    },
  };
  /** What a publisher does: the events stored in the lane (as the shared outbox writes them). */
  const append = (webhookId: string, events: readonly QueuedEvent[], now: number) => {
    for (const event of events) {
      const item = queuedItem(webhookId, event, now);
      items.set(k(webhookId, item.sk), item);
    }
  };
  const deliveries = (webhookId: string) =>
    under(webhookId, DELIVERY_PREFIX).map((item) => structuredClone(item) as unknown as DeliveryRecord);
  return { store, items, append, deliveries, laneOf: (webhookId: string) => items.get(k(webhookId, LANE_SK)) };
};

/** A receiver that answers as scripted (2xx by default), recording each request. */
export const scriptedSender = () => {
  const requests: { url: string; body: string; headers: Record<string, string> }[] = [];
  let answer: (request: { body: string }) => SendOutcome = () => ({ statusCode: 204, durationMs: 5, response: '' });
  return {
    requests,
    answerWith: (next: typeof answer) => {
      answer = next;
    },
    sender: {
      send: async (request: { url: string; body: string; headers: Record<string, string> }) => {
        requests.push(request);
        return answer(request);
      },
    },
  };
};

/** The lane timers' messages, as sent. */
export const recordedTimers = () => {
  const sent: { webhookId: string; timer: LaneTimer; now: number; hop: boolean }[] = [];
  return {
    sent,
    timers: {
      start: async (webhookId: string, timer: LaneTimer, now: number) => {
        sent.push({ webhookId, timer, now, hop: false });
      },
      hop: async (webhookId: string, timer: LaneTimer, now: number) => {
        sent.push({ webhookId, timer, now, hop: true });
      },
    },
  };
};

export const recordedNotices = () => {
  const events: DomainEvent[] = [];
  return { events, notices: { publish: async (sent: readonly DomainEvent[]) => void events.push(...sent) } };
};

/** A secret box that seals in the clear (the real ones are tested on their own). */
export const clearBox = {
  seal: async (secret: string, webhookId: string) => `clear:${webhookId}:${secret}`,
  open: async (sealed: string, webhookId: string) => sealed.slice(`clear:${webhookId}:`.length),
};
