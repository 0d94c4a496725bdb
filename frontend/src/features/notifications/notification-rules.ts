import type { GroupName } from '../../../../shared/auth/groups';
import type { Banner, NotificationStatus } from '../../../../shared/contracts/notifications';
import { formatAudience, parseAudience } from '../../../../shared/notifications/audience';
import { TOPIC_INFO } from '../../../../shared/notifications/topics';
import type { RelationType } from '../../../../shared/relations/relation-types';

/** How many banners the bar shows at once; the rest are behind "+N more". */
export const BAR_LIMIT = 3;

/** How long a banner that does not require interaction stays on the bar before it counts as read and leaves. */
export const READ_AFTER_MS = 10_000;

/**
 * How often the bar and the bell ask for the person's banners. A realtime connection on every page would bring the
 * MQTT client (about 100 kB gzipped, today loaded only on device pages) into the signed-in dashboard, whose JS
 * budget is 220 kB; one cheap Query per visible tab every 15 s shows a new banner within about 15 s of its write
 * (docs/frontend-registry.md, Notifications).
 */
export const BANNER_POLL_MS = 15_000;

/** The page size of the bar's read: enough that "+N more" counts what is there. */
export const BAR_PAGE_SIZE = 50;

/** The unread badge's text: nothing at 0, "99+" beyond 99 (the API counts among the newest 100). */
export const unreadBadgeText = (unread: number): string | undefined =>
  unread <= 0 ? undefined : unread > 99 ? '99+' : String(unread);

/** The bell's accessible name: the count in words, so a screen reader hears it too. */
export const bellLabel = (unread: number): string =>
  unread <= 0 ? 'Notifications' : `Notifications, ${unreadBadgeText(unread)} unread`;

/**
 * Whether a banner belongs on the bar: not dismissed, and either it must be dismissed by hand
 * (`requireInteraction`) or it has not been read yet (a read one stays on the notifications page only).
 */
export const staysOnBar = (banner: Pick<Banner, 'requireInteraction' | 'readAt' | 'dismissedAt'>): boolean =>
  banner.dismissedAt === undefined && (banner.requireInteraction || banner.readAt === undefined);

/** Whether the bar marks a shown banner read on its own after READ_AFTER_MS. */
export const readsItself = (banner: Pick<Banner, 'requireInteraction' | 'readAt'>): boolean =>
  !banner.requireInteraction && banner.readAt === undefined;

/**
 * What the bar shows: its banners newest first, at most BAR_LIMIT, and how many more wait on the page. `keep` are the
 * banners the bar already shows on the page on screen: one read meanwhile stays until the person leaves the page, as
 * a bar that shrank would pull the page up under their pointer (docs/frontend-layout.md, "No lost clicks"); a dismissed
 * one goes at once (the person asked for it).
 */
export const barBanners = <B extends Banner>(
  banners: readonly B[],
  keep: ReadonlySet<string> = new Set(),
): { shown: B[]; more: number } => {
  const on = banners
    .filter((b) => staysOnBar(b) || (b.dismissedAt === undefined && keep.has(b.notificationId)))
    .sort((a, b) => b.created - a.created);
  return { shown: on.slice(0, BAR_LIMIT), more: Math.max(0, on.length - BAR_LIMIT) };
};

/** A status in words, with the badge's class (colour and word, never colour alone). */
export const STATUS_TEXT: Record<
  NotificationStatus,
  { text: string; tone: 'neutral' | 'info' | 'success' | 'danger' }
> = {
  created: { text: 'Draft', tone: 'neutral' },
  queued: { text: 'Queued', tone: 'info' },
  sending: { text: 'Sending', tone: 'info' },
  sent: { text: 'Sent', tone: 'success' },
  'partly-failed': { text: 'Partly failed', tone: 'danger' },
  failed: { text: 'Failed', tone: 'danger' },
};

/** While the worker has it, the record's counts move: its page reads it again this often. */
export const inFlight = (status: NotificationStatus | undefined): boolean =>
  status === 'queued' || status === 'sending';

export const IN_FLIGHT_POLL_MS = 2_000;

export const topicLabel = (topic: keyof typeof TOPIC_INFO): string => TOPIC_INFO[topic]?.label ?? topic;

/** The audience picker's fields, one kind at a time. */
export type AudienceDraft =
  | { kind: 'user'; userId: string }
  | { kind: 'relation'; relationType: RelationType; referrerId: string }
  | { kind: 'role'; group: GroupName };

/**
 * Builds the selector string of a picker's fields, checked by the same parser the API uses, or says what is wrong.
 * An audience already in the list is refused, so each chip is one selector.
 */
export const audienceChip = (
  draft: AudienceDraft,
  current: readonly string[],
): { ok: true; selector: string } | { ok: false; error: string } => {
  const trimmed: AudienceDraft =
    draft.kind === 'user'
      ? { ...draft, userId: draft.userId.trim() }
      : draft.kind === 'relation'
        ? { ...draft, referrerId: draft.referrerId.trim() }
        : draft;
  if (trimmed.kind === 'user' && !trimmed.userId) return { ok: false, error: "Enter the person's user id" };
  if (trimmed.kind === 'relation' && !trimmed.referrerId) {
    return { ok: false, error: 'Enter the id of the device, organization or campaign' };
  }
  const selector = formatAudience(trimmed);
  const parsed = parseAudience(selector);
  if ('error' in parsed) return { ok: false, error: parsed.error };
  if (current.includes(selector)) return { ok: false, error: 'That audience is already in the list' };
  return { ok: true, selector };
};

/** A chip's words: who a selector means, for people rather than the parser. */
export const audienceText = (selector: string): string => {
  const parsed = parseAudience(selector);
  if ('error' in parsed) return selector;
  switch (parsed.kind) {
    case 'user':
      return `Person ${parsed.userId}`;
    case 'relation':
      return `${parsed.relationType} of ${parsed.referrerId}`;
    case 'role':
      return `Everyone in ${parsed.group}`;
  }
};

/** "1 person", "12 people". */
export const peopleCount = (n: number): string => (n === 1 ? '1 person' : `${n} people`);

/**
 * Whether a click in a notification body should stay in the app: a plain left click on a same-site path
 * (`/dashboard/…`), not a new-tab or download click, nor a link to another site or a protocol-relative one.
 */
export const inAppPath = (
  href: string | null,
  click: { button: number; metaKey: boolean; ctrlKey: boolean; shiftKey: boolean; altKey: boolean },
  target?: string | null,
): string | undefined => {
  if (!href?.startsWith('/') || href.startsWith('//')) return undefined;
  if (click.button !== 0 || click.metaKey || click.ctrlKey || click.shiftKey || click.altKey) return undefined;
  if (target && target !== '_self') return undefined;
  return href;
};
