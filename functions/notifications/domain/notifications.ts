import { randomUUID } from 'node:crypto';
import { hasRole } from '../../../shared/auth/groups';
import type { Caller } from '../../../shared/auth/verify-token';
import type { JobsMessage } from '../../../shared/contracts/events';
import { type Banner, NotificationInput, type Preferences } from '../../../shared/contracts/notifications';
import { MESSAGES } from '../../../shared/messages';
import { parseAudience } from '../../../shared/notifications/audience';
import { linksForViewer } from '../../../shared/notifications/links';
import { NOTIFICATION_TOPICS, type NotificationTopic, TOPIC_INFO } from '../../../shared/notifications/topics';
import { type AuditNote, NO_AUDIT } from '../../_shared/audit/audit-note';
import { BadRequest, Conflict, Forbidden, NotFound, ServiceUnavailable } from '../../_shared/errors';
import { RELATION_PAGE } from './delivery';
import { sanitizeBody } from './html';
import { type ListFilters, NO_TALLY, type NotificationRecord, recipientView, staffView } from './notification-record';
import type { AudienceStore, DeliveryStore, NotificationStore, PreferenceStore } from './ports';

/** The preview counts at most this many distinct people (a larger audience shows as this number). */
export const PREVIEW_LIMIT = 20_000;

const CONTENT_FIELDS = ['methods', 'icon', 'requireInteraction', 'audience', 'topic', 'title', 'body'] as const;

export interface NotificationsDeps {
  notifications: NotificationStore;
  deliveries: DeliveryStore;
  preferences: PreferenceStore;
  audiences: AudienceStore;
  queue: { send: (messages: readonly JobsMessage[]) => Promise<void> };
  now: () => number;
}

const isStaff = (caller: Caller) => hasRole(caller.groups, 'Employees');

/** The Notifications API's use cases (spec §7); who may do what is docs/notifications.md, "Access". */
export const createNotifications = (deps: NotificationsDeps) => {
  const draftFrom = (input: NotificationInput, caller: Caller): NotificationRecord => {
    const now = deps.now();
    return {
      id: randomUUID(),
      methods: input.methods,
      icon: input.icon,
      requireInteraction: input.requireInteraction,
      audience: input.audience,
      topic: input.topic,
      title: input.title,
      body: sanitizeBody(input.body),
      initiator: { id: caller.sub, type: 'user-id' },
      status: 'created',
      created: now,
      updated: now,
      ...NO_TALLY,
      chunksPlanned: [],
      chunksDone: [],
      pagesDone: [],
    };
  };

  const found = async (id: string) => {
    const record = await deps.notifications.get(id);
    if (!record) throw new NotFound(MESSAGES.notificationNotFound(id));
    return record;
  };

  /** The record as this caller may read it; a person who did not receive it gets a 404, as if it did not exist. */
  const viewFor = async (record: NotificationRecord, caller: Caller, banner?: Banner) => {
    const own =
      banner ??
      (await deps.deliveries.getBanner({ userId: caller.sub, notificationId: record.id, created: record.created }));
    if (isStaff(caller))
      return { ...staffView(record, caller.groups), ...(own ? recipientView(record, caller.groups, own) : {}) };
    if (!own) throw new NotFound(MESSAGES.notificationNotFound(record.id));
    return recipientView(record, caller.groups, own);
  };

  /** Queues the send, then marks it `queued`; a refused queue leaves a draft to send again, never a lost send. */
  const queueSend = async (record: NotificationRecord) => {
    try {
      await deps.queue.send([{ kind: 'notification.send', notificationId: record.id }]);
    } catch {
      throw new ServiceUnavailable(MESSAGES.notificationNotQueued);
    }
    // The worker may have started it already: then it is past `queued`, and the condition leaves it so.
    return (
      (await deps.notifications.setStatus(record.id, 'queued', ['created'], deps.now())) ?? (await found(record.id))
    );
  };

  return {
    create: async (input: NotificationInput, caller: Caller) => {
      const record = draftFrom(input, caller);
      await deps.notifications.create(record);
      return staffView(record, caller.groups);
    },

    queue: async (body: Partial<NotificationInput> & { id?: string }, caller: Caller) => {
      let record: NotificationRecord;
      if (body.id !== undefined) {
        record = await found(body.id);
        if (record.status !== 'created') throw new Conflict(MESSAGES.notificationNotDraft);
      } else {
        record = draftFrom(NotificationInput.parse(body), caller);
        await deps.notifications.create(record);
      }
      return staffView(await queueSend(record), caller.groups);
    },

    list: async (filters: ListFilters, page: { limit: number; cursor?: string }, caller: Caller) => {
      const result = await deps.notifications.list(filters, page);
      return { ...result, items: result.items.map((record) => staffView(record, caller.groups)) };
    },

    get: async (id: string, caller: Caller) => viewFor(await found(id), caller),

    update: async (
      id: string,
      change: { read?: boolean; dismissed?: boolean } & Partial<Record<(typeof CONTENT_FIELDS)[number], unknown>>,
      caller: Caller,
      audit: AuditNote = NO_AUDIT,
    ) => {
      let record = await found(id);
      audit.label(record.title);
      audit.before(record);
      const content = Object.fromEntries(
        CONTENT_FIELDS.filter((f) => change[f] !== undefined).map((f) => [f, change[f]]),
      );
      if (Object.keys(content).length > 0) {
        if (!isStaff(caller)) throw new Forbidden(MESSAGES.notificationContentStaffOnly);
        if (typeof content.body === 'string') content.body = sanitizeBody(content.body);
        const updated = await deps.notifications.updateDraft(id, content, deps.now());
        if (!updated) throw new Conflict(MESSAGES.notificationNotDraft);
        record = updated;
      }
      let banner: Banner | undefined;
      if (change.read !== undefined || change.dismissed !== undefined) {
        const now = deps.now();
        banner = await deps.deliveries.setBannerState(
          { userId: caller.sub, notificationId: id, created: record.created },
          {
            ...(change.read !== undefined ? { readAt: change.read ? now : null } : {}),
            // Dismissing is reading too: a dismissed banner never counts as unread.
            ...(change.dismissed !== undefined ? { dismissedAt: change.dismissed ? now : null } : {}),
            ...(change.dismissed && change.read === undefined ? { readAt: now } : {}),
          },
        );
        if (!banner) throw new NotFound(MESSAGES.notificationNotFound(id));
      }
      return viewFor(record, caller, banner);
    },

    remove: async (id: string, caller: Caller, audit: AuditNote = NO_AUDIT) => {
      const record = await found(id);
      audit.label(record.title);
      audit.before(record);
      // A sent notification is not deleted: the caller's own banner of it is dismissed.
      if (record.status !== 'created') audit.after({ ...record, banner: { dismissedAt: deps.now() } });
      if (record.status === 'created') {
        if (!isStaff(caller)) throw new NotFound(MESSAGES.notificationNotFound(id));
        if (!(await deps.notifications.deleteDraft(id))) throw new Conflict(MESSAGES.notificationNotDraft);
        return;
      }
      const now = deps.now();
      const banner = await deps.deliveries.setBannerState(
        { userId: caller.sub, notificationId: id, created: record.created },
        { dismissedAt: now },
      );
      if (!banner) throw new NotFound(MESSAGES.notificationNotFound(id));
      if (banner.readAt === undefined) {
        await deps.deliveries.setBannerState(
          { userId: caller.sub, notificationId: id, created: record.created },
          { readAt: now },
        );
      }
    },

    listForUser: async (
      userId: string,
      state: 'all' | 'unread' | 'active',
      page: { limit: number; cursor?: string },
      caller: Caller,
    ) => {
      if (userId !== caller.sub && !isStaff(caller)) throw new Forbidden(MESSAGES.notificationOthersBanners);
      const [result, unread] = await Promise.all([
        deps.deliveries.listBanners(userId, state, page),
        deps.deliveries.countUnread(userId),
      ]);
      return {
        ...result,
        items: result.items.map((banner) => ({ ...banner, body: linksForViewer(banner.body, caller.groups) })),
        unread,
      };
    },

    /** Distinct people the audience resolves to now, with the first few ids; the worker resolves the same way. */
    previewAudience: async (audience: readonly string[]) => {
      const ids = new Set<string>();
      for (const selector of audience) {
        const parsed = parseAudience(selector);
        if ('error' in parsed) continue;
        if (parsed.kind === 'user') {
          ids.add(parsed.userId);
          continue;
        }
        let cursor: string | undefined;
        do {
          const page =
            parsed.kind === 'relation'
              ? await deps.audiences.relationPage(parsed.relationType, parsed.referrerId, cursor, RELATION_PAGE)
              : await deps.audiences.groupPage(parsed.group, cursor);
          for (const id of page.ids) ids.add(id);
          cursor = page.nextCursor;
        } while (cursor && ids.size < PREVIEW_LIMIT);
      }
      const known = await deps.audiences.people([...ids].slice(0, PREVIEW_LIMIT));
      return { recipients: known.length, sample: known.slice(0, 5).map((person) => person.id) };
    },

    deliveries: async (id: string, page: { limit: number; cursor?: string }) => {
      await found(id);
      return deps.deliveries.listByNotification(id, page);
    },

    preferences: async (userId: string): Promise<Preferences> =>
      preferencesOf((await deps.preferences.get(userId)).emailOff),

    setPreferences: async (
      userId: string,
      email: Partial<Record<NotificationTopic, boolean>>,
    ): Promise<Preferences> => {
      const entries = Object.entries(email) as [NotificationTopic, boolean][];
      const off = entries.filter(([topic, on]) => !on && !TOPIC_INFO[topic].locked).map(([topic]) => topic);
      const on = entries.filter(([, value]) => value).map(([topic]) => topic);
      const record = await deps.preferences.setEmailOff(userId, off, on, deps.now());
      return preferencesOf(record.emailOff);
    },

    unsubscribe: async (token: string, topic: NotificationTopic) => {
      const userId = await deps.preferences.findByToken(token);
      if (!userId) throw new NotFound(MESSAGES.unsubscribeInvalid);
      if (TOPIC_INFO[topic].locked) throw new BadRequest(MESSAGES.topicLocked(TOPIC_INFO[topic].label));
      await deps.preferences.setEmailOff(userId, [topic], [], deps.now());
      return { topic, email: false as const };
    },
  };
};

const preferencesOf = (emailOff: readonly NotificationTopic[]): Preferences => ({
  topics: NOTIFICATION_TOPICS.map((topic) => ({
    topic,
    email: TOPIC_INFO[topic].locked || !emailOff.includes(topic),
    locked: TOPIC_INFO[topic].locked,
  })),
});

export type Notifications = ReturnType<typeof createNotifications>;
