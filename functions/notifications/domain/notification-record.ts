import type {
  Banner,
  DeliveryCounts,
  Notification,
  NotificationMethod,
  NotificationStatus,
} from '../../../shared/contracts/notifications';
import { linksForViewer } from '../../../shared/notifications/links';
import type { NotificationTopic } from '../../../shared/notifications/topics';

export type DeliveryTally = DeliveryCounts;

export const NO_TALLY: DeliveryTally = { recipients: 0, banners: 0, emailsSent: 0, emailsSkipped: 0, emailsFailed: 0 };

/** The stored notification: the contract's fields plus the worker's progress (docs/notifications.md, "Worker"). */
export interface NotificationRecord extends DeliveryTally {
  id: string;
  methods: NotificationMethod[];
  icon: Notification['icon'];
  requireInteraction: boolean;
  audience: string[];
  topic: NotificationTopic;
  title: string;
  body: string;
  initiator: { id: string; type: 'user-id' };
  status: NotificationStatus;
  created: number;
  updated: number;
  sentAt?: number;
  /** The domain event a trigger made it from. */
  source?: string;
  /** Delivery chunks queued, and those finished: the notification is done when every planned chunk is. */
  chunksPlanned: string[];
  chunksDone: string[];
  /** Audience pages whose chunks and follow-up are queued (`{selector}.{page}`). */
  pagesDone: string[];
  /** The last audience page is done: no chunk will be planned any more. */
  resolved?: boolean;
}

export interface ListFilters {
  topic?: string;
  status?: NotificationStatus;
  method?: NotificationMethod;
  initiator?: string;
  from?: number;
  to?: number;
}

const tallyOf = (record: NotificationRecord): DeliveryTally => ({
  recipients: record.recipients ?? 0,
  banners: record.banners ?? 0,
  emailsSent: record.emailsSent ?? 0,
  emailsSkipped: record.emailsSkipped ?? 0,
  emailsFailed: record.emailsFailed ?? 0,
});

/**
 * Where a sending notification ends once every planned chunk is done: `failed` when nobody was reached (no
 * recipients, or every delivery failed), `partly-failed` when some e-mail failed for good, else `sent`.
 * Undefined while work remains.
 */
export const finalStatus = (record: NotificationRecord): NotificationStatus | undefined => {
  if (record.status !== 'sending' || !record.resolved) return undefined;
  const done = new Set(record.chunksDone);
  if (!record.chunksPlanned.every((chunk) => done.has(chunk))) return undefined;
  const tally = tallyOf(record);
  const reached = tally.banners + tally.emailsSent + tally.emailsSkipped;
  if (reached === 0) return 'failed';
  return tally.emailsFailed > 0 ? 'partly-failed' : 'sent';
};

const content = (record: NotificationRecord, viewerGroups: readonly string[]) => ({
  id: record.id,
  methods: record.methods,
  icon: record.icon,
  requireInteraction: record.requireInteraction,
  topic: record.topic,
  title: record.title,
  body: linksForViewer(record.body, viewerGroups),
  initiator: record.initiator,
  created: record.created,
  updated: record.updated,
});

/** What staff read: everything, with the counts. */
export const staffView = (record: NotificationRecord, viewerGroups: readonly string[]): Notification => ({
  ...content(record, viewerGroups),
  status: record.status,
  audience: record.audience,
  ...(record.sentAt !== undefined ? { sentAt: record.sentAt } : {}),
  delivery: tallyOf(record),
});

/** What a recipient reads: the content and their own banner's state. */
export const recipientView = (
  record: NotificationRecord,
  viewerGroups: readonly string[],
  banner: Pick<Banner, 'readAt' | 'dismissedAt'> | undefined,
): Notification => ({
  ...content(record, viewerGroups),
  ...(banner
    ? {
        banner: {
          ...(banner.readAt !== undefined ? { readAt: banner.readAt } : {}),
          ...(banner.dismissedAt !== undefined ? { dismissedAt: banner.dismissedAt } : {}),
        },
      }
    : {}),
});
