import type { GroupName } from '../../../shared/auth/groups';
import type { Banner, Delivery, NotificationMethod, NotificationStatus } from '../../../shared/contracts/notifications';
import type { NotificationTopic } from '../../../shared/notifications/topics';
import type { RelationType } from '../../../shared/relations/relation-types';
import type { DeliveryTally, ListFilters, NotificationRecord } from './notification-record';

export interface Person {
  id: string;
  email?: string;
  displayName?: string;
  rolesList: string[];
}

export interface AudienceStore {
  /** The referents of one referrer's relations of one type. */
  relationPage: (
    type: RelationType,
    referrerId: string,
    cursor: string | undefined,
    limit: number,
  ) => Promise<{
    ids: string[];
    nextCursor: string | undefined;
  }>;
  groupPage: (
    group: GroupName,
    cursor: string | undefined,
  ) => Promise<{
    ids: string[];
    nextCursor: string | undefined;
  }>;
  /** The people the platform knows among these ids (an id without a user record is nobody to tell). */
  people: (ids: readonly string[]) => Promise<Person[]>;
}

/** A delivery's identity: one per person, method and notification. */
export interface DeliveryRef {
  userId: string;
  method: NotificationMethod;
  notificationId: string;
  /** The notification's creation time: it orders a person's banners. */
  created: number;
  /** The delivery chunk that made it (the one whose tally counts it). */
  chunk?: string;
}

export type BannerContent = Omit<Banner, 'notificationId' | 'created' | 'readAt' | 'dismissedAt'>;

/**
 * Not claimed: `busy` while another worker holds a fresh claim (the work is not done yet), else it is finished;
 * `status` as the store has it (`sent` or `failed` by another worker).
 */
export type EmailClaim =
  | {
      claimed: true;
      attempts: number;
    }
  | {
      claimed: false;
      busy: boolean;
      status?: string;
    };

export interface DeliveryStore {
  /** @returns false when the person already has this banner */
  putBanner: (ref: DeliveryRef, banner: BannerContent, now: number) => Promise<boolean>;
  /**
   * Banners for people who hold none yet (the caller read that first): BatchWriteItem, 25 a call. A second worker
   * running the same chunk at the same moment could rewrite a banner just written, losing a read mark of those
   * few milliseconds; a redelivery after the chunk ran writes nothing.
   */
  putBanners: (refs: readonly DeliveryRef[], banner: BannerContent, now: number) => Promise<void>;
  /** An e-mail not sent on purpose. @returns false when this delivery exists already */
  putSkipped: (ref: DeliveryRef, reason: string, now: number) => Promise<boolean>;
  /**
   * Takes an e-mail delivery to send it: a new one, one whose last attempt failed (`retry`), or one left `sending`
   * longer than `staleMs` by a worker that stopped. Not claimed: it is sent, skipped, failed, or in flight elsewhere.
   */
  claimEmail: (ref: DeliveryRef, now: number, staleMs: number) => Promise<EmailClaim>;
  /** @returns false when the claim was lost (another worker took it over) */
  markEmail: (
    ref: DeliveryRef,
    to: 'sent' | 'retry' | 'failed',
    now: number,
    detail?: {
      messageId?: string;
      reason?: string;
    },
  ) => Promise<boolean>;
  /** The deliveries of these refs that exist, as stored (a BatchGetItem per 100). */
  readMany: (refs: readonly DeliveryRef[]) => Promise<Record<string, unknown>[]>;
  getBanner: (ref: Omit<DeliveryRef, 'method'>) => Promise<Banner | undefined>;
  /** Sets or clears the person's own read and dismissed marks. @returns undefined when they have no such banner */
  setBannerState: (
    ref: Omit<DeliveryRef, 'method'>,
    change: {
      readAt?: number | null;
      dismissedAt?: number | null;
    },
  ) => Promise<Banner | undefined>;
  /** A person's banners, newest first: all, unread, or not dismissed (`active`). */
  listBanners: (
    userId: string,
    state: 'all' | 'unread' | 'active',
    page: {
      limit: number;
      cursor?: string;
    },
  ) => Promise<{
    items: Banner[];
    nextCursor?: string;
  }>;
  /** Unread banners among the person's newest {@link UNREAD_WINDOW}: one Query of at most that many small items. */
  countUnread: (userId: string) => Promise<number>;
  /** A notification's deliveries by method and person. */
  listByNotification: (
    notificationId: string,
    page: {
      limit: number;
      cursor?: string;
    },
  ) => Promise<{
    items: Delivery[];
    nextCursor?: string;
  }>;
}

export interface NotificationStore {
  /** @returns false when a notification with this id exists (a trigger's redelivered event). */
  create: (record: NotificationRecord) => Promise<boolean>;
  get: (id: string) => Promise<NotificationRecord | undefined>;
  /** Replaces a draft's content. @returns undefined when it is missing or no longer a draft */
  updateDraft: (id: string, fields: Record<string, unknown>, now: number) => Promise<NotificationRecord | undefined>;
  /** @returns the record, or undefined when its status is not one of `from` */
  setStatus: (
    id: string,
    to: NotificationStatus,
    from: readonly NotificationStatus[],
    now: number,
  ) => Promise<NotificationRecord | undefined>;
  /** @returns false when it is missing or no longer a draft */
  deleteDraft: (id: string) => Promise<boolean>;
  /** Records the delivery chunks one audience page planned (a set: planning a page twice adds nothing). */
  planChunks: (id: string, chunkIds: readonly string[]) => Promise<NotificationRecord | undefined>;
  /** An audience page whose chunks and follow-up are queued; `resolved` when it was the last page. */
  markPageDone: (id: string, pageKey: string, resolved: boolean) => Promise<NotificationRecord | undefined>;
  /**
   * What one delivery chunk's people hold now (recounted by every run of the chunk, so a run that stopped midway
   * leaves no count behind), and the chunk when it is finished. The totals are the sum over the chunks.
   */
  tally: (id: string, chunk: string, tally: DeliveryTally, done: boolean) => Promise<NotificationRecord | undefined>;
  /**
   * Newest first, filtered. A filter reads past what it drops, up to a few Queries per page; the cursor continues
   * where the last Query stopped.
   */
  list: (
    filters: ListFilters,
    page: {
      limit: number;
      cursor?: string;
    },
  ) => Promise<{
    items: NotificationRecord[];
    nextCursor?: string;
  }>;
}

export interface PreferenceRecord {
  userId: string;
  /** Topics whose e-mail the person turned off. */
  emailOff: NotificationTopic[];
  /** The secret in the person's unsubscribe links (random, so a link cannot be guessed or forged). */
  token?: string;
}

export interface PreferenceStore {
  get: (userId: string) => Promise<PreferenceRecord>;
  /** Everyone's preferences at once (BatchGetItem); people without a record have every e-mail on. */
  getMany: (userIds: readonly string[]) => Promise<Map<string, PreferenceRecord>>;
  /** Turns topics' e-mail on (`false`) or off (`true`); sets are added to and taken from, never rewritten whole. */
  setEmailOff: (
    userId: string,
    off: readonly NotificationTopic[],
    on: readonly NotificationTopic[],
    now: number,
  ) => Promise<PreferenceRecord>;
  /** The person's unsubscribe token, made on first use; a concurrent first use keeps whichever was written first. */
  tokenOf: (userId: string) => Promise<string>;
  findByToken: (token: string) => Promise<string | undefined>;
}
