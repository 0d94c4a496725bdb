import * as z from 'zod';
import { parseAudience } from '../notifications/audience';
import { NOTIFICATION_TOPICS } from '../notifications/topics';
import { EpochMillis, PageQuery, page } from './common';
import { defineArea, defineRoute, guest, minGroup, signedIn } from './define-route';
import { PageSize } from './shapes';

export const NOTIFICATION_METHODS = ['email', 'banner'] as const;
export type NotificationMethod = (typeof NOTIFICATION_METHODS)[number];

/**
 * Spec §3 lists `created`; the rest is the lifecycle of docs/notifications.md: a draft is `created`, sending puts it
 * `queued`, the worker makes it `sending` while it resolves the audience and delivers, and it ends `sent` (every
 * delivery done), `partly-failed` (some deliveries failed for good) or `failed` (all did, or nobody to tell).
 */
export const NOTIFICATION_STATUSES = ['created', 'queued', 'sending', 'sent', 'partly-failed', 'failed'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

/** Spec §3 names `info`; the banner bar also draws these. */
export const NOTIFICATION_ICONS = ['info', 'warning', 'success', 'error'] as const;

export const NotificationId = z
  .string()
  .trim()
  .min(1, 'Notification id cannot be empty')
  .max(128, 'Notification id is at most 128 characters')
  .regex(/^[A-Za-z0-9._:-]+$/, 'Notification id may contain only letters, digits, ".", "_", ":" and "-"');

export const Topic = z.enum(NOTIFICATION_TOPICS, {
  error: () => `Topic must be one of: ${NOTIFICATION_TOPICS.join(', ')}`,
});

export const AudienceSelector = z
  .string()
  .max(300, 'An audience selector is at most 300 characters')
  .superRefine((selector, context) => {
    const parsed = parseAudience(selector);
    if ('error' in parsed) context.addIssue({ code: 'custom', message: parsed.error });
  });

export const Initiator = z.object({ id: z.string(), type: z.literal('user-id') });

const Methods = z
  .array(z.enum(NOTIFICATION_METHODS, { error: () => 'A method is "email" or "banner"' }))
  .min(1, 'Choose at least one method: email, banner')
  .refine((methods) => new Set(methods).size === methods.length, 'Each method at most once');

/**
 * What staff write (spec §3). `body` is HTML: links and basic formatting stay, everything else is removed on the way
 * in (docs/notifications.md). `title` is not in the spec: it is the e-mail's subject and the banner's headline.
 * `status` and `initiator` are accepted as the spec lists them, but the server sets both (the initiator is the caller).
 */
const NotificationFields = z.object({
  methods: Methods,
  icon: z.enum(NOTIFICATION_ICONS),
  requireInteraction: z.boolean(),
  audience: z.array(AudienceSelector).min(1, 'Name at least one audience').max(20, 'At most 20 audience selectors'),
  topic: Topic,
  title: z.string().trim().min(1, 'Give the notification a title').max(150, 'A title is at most 150 characters'),
  body: z.string().trim().min(1, 'The body cannot be empty').max(20_000, 'The body is at most 20,000 characters'),
});

export const NotificationInput = NotificationFields.extend({
  icon: NotificationFields.shape.icon.default('info'),
  requireInteraction: NotificationFields.shape.requireInteraction.default(false),
  topic: Topic.default('announcements'),
  status: z.literal('created').optional(),
  initiator: Initiator.optional(),
}).strict();
export type NotificationInput = z.infer<typeof NotificationInput>;

/** Per notification, counted once per person and method however often the worker sees a message. */
export const DeliveryCounts = z.object({
  /** Distinct people the audience resolved to. */
  recipients: z.number().int(),
  banners: z.number().int(),
  emailsSent: z.number().int(),
  /** The person turned the topic's e-mail off, or has no e-mail address. */
  emailsSkipped: z.number().int(),
  emailsFailed: z.number().int(),
});
export type DeliveryCounts = z.infer<typeof DeliveryCounts>;

/** A person's own copy of a banner: its read and dismissed state is theirs alone. */
export const BannerState = z.object({ readAt: EpochMillis.optional(), dismissedAt: EpochMillis.optional() });

/**
 * A notification as its reader sees it. Staff see the whole record (audience, status, counts); a recipient sees the
 * content and their own banner's state; the body's /dashboard links are /admin links for staff (spec §2).
 */
export const Notification = z.object({
  id: NotificationId,
  methods: z.array(z.enum(NOTIFICATION_METHODS)),
  icon: z.enum(NOTIFICATION_ICONS),
  requireInteraction: z.boolean(),
  topic: Topic,
  title: z.string(),
  body: z.string(),
  initiator: Initiator,
  created: EpochMillis,
  updated: EpochMillis,
  status: z.enum(NOTIFICATION_STATUSES).optional(),
  audience: z.array(z.string()).optional(),
  /** When the worker finished it. */
  sentAt: EpochMillis.optional(),
  delivery: DeliveryCounts.optional(),
  banner: BannerState.optional(),
});
export type Notification = z.infer<typeof Notification>;

/** One banner in a person's list: a copy of the notification's content with the person's own state. */
export const Banner = z.object({
  notificationId: NotificationId,
  icon: z.enum(NOTIFICATION_ICONS),
  requireInteraction: z.boolean(),
  topic: Topic,
  title: z.string(),
  body: z.string(),
  initiator: Initiator,
  created: EpochMillis,
  readAt: EpochMillis.optional(),
  dismissedAt: EpochMillis.optional(),
});
export type Banner = z.infer<typeof Banner>;

/** Whether a delivery was made. Banners are `delivered` or nothing; e-mail is worked until `sent` or `failed`. */
export const DELIVERY_STATUSES = ['delivered', 'sending', 'sent', 'skipped', 'failed'] as const;
export const Delivery = z.object({
  userId: z.string(),
  method: z.enum(NOTIFICATION_METHODS),
  status: z.enum(DELIVERY_STATUSES),
  at: EpochMillis,
  attempts: z.number().int().optional(),
  /** Why an e-mail was skipped or failed, in words. */
  reason: z.string().optional(),
});
export type Delivery = z.infer<typeof Delivery>;

const IdParams = z.object({ id: NotificationId });

export const NotificationFilters = z
  .object({
    topic: Topic.optional(),
    status: z.enum(NOTIFICATION_STATUSES).optional(),
    method: z.enum(NOTIFICATION_METHODS).optional(),
    /** The initiator's user id. */
    initiator: z.string().min(1).max(128).optional(),
    /** Created at or after (ms). */
    from: EpochMillis.optional(),
    /** Created before (ms). */
    to: EpochMillis.optional(),
    limit: PageQuery.shape.limit,
    cursor: PageQuery.shape.cursor,
  })
  .strict()
  .refine((f) => f.from === undefined || f.to === undefined || f.from < f.to, {
    message: '"from" must be before "to"',
    path: ['to'],
  });

/** Which of a person's banners: all of them, the unread ones, or those still on the banner bar (not dismissed). */
export const BANNER_STATES = ['all', 'unread', 'active'] as const;

export const BannerChange = z
  .object({
    read: z.boolean().optional(),
    dismissed: z.boolean().optional(),
  })
  .strict();

/**
 * PUT /update-notification/{id}: a recipient marks their own banner (`read`, `dismissed`); staff may also change a
 * draft's content (only while it is `created`).
 */
export const NotificationUpdate = z
  .object({
    ...BannerChange.shape,
    ...NotificationFields.partial().shape,
  })
  .strict()
  .refine((change) => Object.values(change).some((value) => value !== undefined), 'Nothing to change');

export const TopicPreference = z.object({
  topic: Topic,
  email: z.boolean(),
  /** Cannot be turned off (it is about the person's own access). */
  locked: z.boolean(),
});
export const Preferences = z.object({ topics: z.array(TopicPreference) });
export type Preferences = z.infer<typeof Preferences>;

export const UnsubscribeQuery = z.object({
  token: z.string().min(16, 'The unsubscribe link is not complete').max(200, 'The unsubscribe link is not valid'),
  topic: Topic,
});

export const notifications = defineArea('notifications', {
  createNotification: defineRoute({
    method: 'POST',
    path: '/notification',
    access: minGroup('Employees'),
    summary:
      'Create a notification (a draft, `created`); send it with POST /jobsQueue. Failures answer the error object.',
    body: NotificationInput,
    response: Notification,
    status: 201,
  }),
  queueNotification: defineRoute({
    method: 'POST',
    path: '/jobsQueue',
    access: minGroup('Employees'),
    summary:
      'Queue a notification for the worker: a new one from its fields, or a draft named by `id`. 202 with the record (`queued`).',
    body: NotificationFields.partial()
      .extend({
        id: NotificationId.optional(),
        status: z.literal('created').optional(),
        initiator: Initiator.optional(),
      })
      .strict()
      .superRefine((body, context) => {
        if (body.id !== undefined) return;
        const full = NotificationInput.safeParse(body);
        if (!full.success) for (const issue of full.error.issues) context.addIssue({ ...issue, code: 'custom' });
      }),
    response: Notification,
    status: 202,
  }),
  listNotifications: defineRoute({
    method: 'POST',
    path: '/notifications',
    access: minGroup('Employees'),
    summary: 'Notifications, newest first, optionally by topic, status, method, initiator and creation time; paged.',
    body: NotificationFilters,
    response: page(Notification),
  }),
  getNotification: defineRoute({
    method: 'GET',
    path: '/notification/{id}',
    access: signedIn,
    summary: 'One notification: staff see any; a person sees one they received (with their banner state).',
    params: IdParams,
    response: Notification,
  }),
  updateNotification: defineRoute({
    method: 'PUT',
    path: '/update-notification/{id}',
    access: signedIn,
    summary: "Mark one's own banner read or dismissed; staff also edit a draft's content.",
    params: IdParams,
    body: NotificationUpdate,
    response: Notification,
  }),
  deleteNotification: defineRoute({
    method: 'DELETE',
    path: '/delete-notification/{id}',
    access: signedIn,
    summary: "Staff delete a draft; for a sent notification, the caller's own banner is dismissed.",
    params: IdParams,
    response: z.void(),
  }),
  listUserNotifications: defineRoute({
    method: 'GET',
    path: '/notificationsByUserId/{id}/{x}',
    access: signedIn,
    summary:
      "A person's banners, newest first, `{x}` per page (`?state=unread|active`); their own, or anyone's for staff.",
    params: z.object({ id: z.string().min(1).max(128), x: PageSize }),
    query: z.object({
      state: z.enum(BANNER_STATES).default('all'),
      cursor: z.string().min(1).max(2048).optional(),
    }),
    response: page(Banner).extend({
      /** Unread banners among the person's newest 100 (the badge shows "99+" beyond). */
      unread: z.number().int(),
    }),
  }),
  // Not in the spec: what the admin composer and the delivery status need.
  previewAudience: defineRoute({
    method: 'POST',
    path: '/notification-audience',
    access: minGroup('Employees'),
    summary: 'How many distinct people an audience resolves to now (not in the spec: the composer shows it).',
    body: z.object({ audience: NotificationFields.shape.audience }).strict(),
    response: z.object({ recipients: z.number().int(), sample: z.array(z.string()) }),
  }),
  listDeliveries: defineRoute({
    method: 'GET',
    path: '/notification/{id}/deliveries',
    access: minGroup('Employees'),
    summary: "A notification's deliveries, one per person and method (not in the spec: the delivery status).",
    params: IdParams,
    query: PageQuery,
    response: page(Delivery),
  }),
  getPreferences: defineRoute({
    method: 'GET',
    path: '/notification-preferences',
    access: signedIn,
    summary: "The caller's e-mail choice per topic (banners always come).",
    response: Preferences,
  }),
  updatePreferences: defineRoute({
    method: 'PUT',
    path: '/notification-preferences',
    access: signedIn,
    summary: "Change the caller's e-mail choice per topic; a locked topic stays on.",
    body: z.object({ email: z.partialRecord(Topic, z.boolean()) }).strict(),
    response: Preferences,
  }),
  unsubscribe: defineRoute({
    method: 'POST',
    path: '/unsubscribe',
    access: guest,
    summary:
      "One-click unsubscribe (RFC 8058) from an e-mail's topic, by the link's token; any body (`List-Unsubscribe=One-Click`) is ignored.",
    query: UnsubscribeQuery,
    response: z.object({ topic: Topic, email: z.literal(false) }),
  }),
});
