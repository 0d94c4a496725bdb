import type {
  DeliveryAttempt,
  DeliveryStatus,
  DisabledReason,
  TargetKind,
} from '../../../shared/contracts/integrations';
import type { DeliveredEventType, WebhookEventType } from '../../../shared/contracts/webhook-events';
import type { StoredQueuedEvent } from '../../_shared/integrations/webhook-records';
import type { PageRead, StoredPage } from '../../_shared/paging';

/** A webhook as stored (docs/integrations.md): its secrets sealed (KMS in the cloud), never in the clear. */
export interface WebhookRecord {
  id: string;
  url: string;
  events: WebhookEventType[];
  targetKind: TargetKind;
  targetId: string;
  description: string;
  status: 'enabled' | 'disabled';
  disabledReason?: DisabledReason;
  disabledAt?: number;
  /** When the current run of failed attempts began; cleared by the next 2xx. */
  failingSince?: number;
  /** The signing secret, sealed. */
  secret: string;
  /** The previous secret, sealed, and until when it still signs. */
  previousSecret?: string;
  previousSecretUntil?: number;
  created: number;
  createdBy: string;
  updated: number;
}

/** The fields an edit sets (or, `null`, removes). */
export type WebhookChanges = {
  [K in Exclude<keyof WebhookRecord, 'id' | 'created' | 'createdBy' | 'targetKind' | 'targetId'>]?:
    | WebhookRecord[K]
    | null;
};

export interface WebhookStore {
  get: (id: string) => Promise<WebhookRecord | undefined>;
  /** @returns false when the id is taken */
  create: (record: WebhookRecord) => Promise<boolean>;
  /** Sets the changed fields if nobody changed the webhook since `expectedUpdated`. @returns the record, or undefined */
  change: (id: string, changes: WebhookChanges, expectedUpdated: number) => Promise<WebhookRecord | undefined>;
  remove: (id: string) => Promise<void>;
  /** A target's webhooks, newest first. */
  listByTarget: (kind: TargetKind, targetId: string, page: PageRead) => Promise<StoredPage<WebhookRecord>>;
  /** How many webhooks a target holds (up to `max` + 1). */
  countByTarget: (kind: TargetKind, targetId: string, max: number) => Promise<number>;
  /** Records the start of a run of failures, unless one is under way. */
  markFailing: (id: string, since: number) => Promise<void>;
  /** The receiver answered: the run of failures is over. */
  markAnswering: (id: string) => Promise<void>;
  /** Turns an enabled webhook off. @returns false when it was already off (or gone) */
  disable: (id: string, reason: DisabledReason, at: number) => Promise<boolean>;
}

/** A delivery as stored: one message to one webhook, its body kept gzip'd for retries and replays. */
export interface DeliveryRecord {
  id: string;
  webhookId: string;
  /** Its sort key under the webhook (`d#{sequence}`). */
  sk: string;
  kind: 'event' | 'ping';
  eventId: string;
  eventType: DeliveredEventType;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  attemptCount: number;
  batches?: number;
  /** The body's length in bytes, before gzip. */
  bytes: number;
  body: Uint8Array;
  created: number;
  nextAttemptAt?: number;
  deliveredAt?: number;
  /** When it expires (ms). */
  expiresAt: number;
  /** The waiting events it was made of (their sort keys), removed once it exists. */
  entries: string[];
}

/** A delivery without its body, as the log lists it. */
export type DeliverySummary = Omit<DeliveryRecord, 'body' | 'entries'>;

/** A retry timer of a lane: only the message carrying its token continues. */
export interface LaneTimer {
  token: string;
  dueAt: number;
}

/** A webhook's lane: who is sending for it, the delivery under way, the retry timer and replays asked for. */
export interface LaneState {
  leaseOwner?: string;
  leaseUntil?: number;
  wakeAt?: number;
  timer?: LaneTimer;
  /** The delivery under way (its sort key): the only one the lane sends until it is delivered. */
  head?: string;
  /** The latest delivery's creation time: the next is made at least 1 ms later, so the log keeps their order. */
  lastCreated?: number;
  /** Deliveries a person asked to send again (their sort keys). */
  replays?: string[];
}

/** What the lane may change of its own state, fenced by its lease. */
export interface LaneChanges {
  head?: string | null;
  timer?: LaneTimer | null;
  lastCreated?: number;
  /** Replays done: taken out of the set. */
  replaysDone?: string[];
}

export interface DeliveryStore {
  getLane: (webhookId: string) => Promise<LaneState | undefined>;
  /**
   * Takes the lane for `owner` until `until`, unless another holds it (one whose lease has not run out); clears the
   * wake request (the run will see what asked for it). @returns the lane, or undefined when it is taken
   */
  acquire: (webhookId: string, owner: string, now: number, until: number) => Promise<LaneState | undefined>;
  /** Changes the lane while `owner` holds it. @returns false when the lease was lost */
  changeLane: (webhookId: string, owner: string, changes: LaneChanges) => Promise<boolean>;
  /**
   * Gives the lane up, unless a wake was asked for meanwhile: then the request is taken and `again` answered, and
   * the owner keeps the lane (an event came in while it sent).
   */
  release: (webhookId: string, owner: string) => Promise<'released' | 'again' | 'lost'>;
  /** A replay asked for by a person: the lane sends it at its next run. */
  addReplay: (webhookId: string, sk: string) => Promise<void>;
  /** The first waiting events of a kind (`o#` events, `t#` tests), in order. */
  firstQueued: (webhookId: string, prefix: string, limit: number) => Promise<StoredQueuedEvent[]>;
  /** How many events wait, counting up to `max`. */
  countQueued: (webhookId: string, max: number) => Promise<number>;
  removeQueued: (webhookId: string, sks: readonly string[]) => Promise<void>;
  /** @returns false when it exists */
  createDelivery: (record: DeliveryRecord) => Promise<boolean>;
  getDelivery: (webhookId: string, sk: string) => Promise<DeliveryRecord | undefined>;
  /** Sets the delivery's changed fields; `undefined` values are removed. */
  updateDelivery: (
    webhookId: string,
    sk: string,
    changes: Partial<Pick<DeliveryRecord, 'status' | 'attempts' | 'attemptCount' | 'nextAttemptAt' | 'deliveredAt'>>,
  ) => Promise<void>;
  /** A webhook's deliveries, newest first, without bodies. */
  listDeliveries: (webhookId: string, page: PageRead) => Promise<StoredPage<DeliverySummary>>;
  /** Removes the lane and the waiting events (deliveries expire with their records). */
  removeLane: (webhookId: string) => Promise<void>;
}

/** What one HTTP attempt came to. */
export type SendOutcome =
  | { statusCode: number; durationMs: number; response: string }
  | { error: string; durationMs: number; refused?: boolean };

export interface WebhookSender {
  /** POSTs the body to the URL, through the home's address filter, following no redirect, within the timeout. */
  send: (request: { url: string; body: string; headers: Record<string, string> }) => Promise<SendOutcome>;
}

/** Seals secrets at rest (KMS in the cloud), bound to their webhook (the encryption context). */
export interface SecretBox {
  seal: (secret: string, webhookId: string) => Promise<string>;
  open: (sealed: string, webhookId: string) => Promise<string>;
}

/** A lane's retry timer: a wake message that arrives when the retry is due (or a hop of at most 15 minutes on). */
export interface LaneTimers {
  start: (webhookId: string, timer: LaneTimer, now: number) => Promise<void>;
  /** Another hop of a timer whose message came early (a long wait). */
  hop: (webhookId: string, timer: LaneTimer, now: number) => Promise<void>;
}

/**
 * The alerts area's watch of devices' presence (decision 105): a webhook that starts or stops taking device.online or
 * device.offline (made, changed, turned off or on, deleted) makes the rule caches forget and its target's devices due,
 * so the sweep sets up or takes away their presence tracks.
 */
export interface PresenceWatches {
  changed: (kind: TargetKind, id: string) => Promise<void>;
}

/** Objects a webhook can follow. */
export interface TargetDirectory {
  exists: (kind: TargetKind, id: string) => Promise<boolean>;
}
