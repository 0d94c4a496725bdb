import { useQuery } from '@tanstack/react-query';
import type { Notification } from '../../../../shared/contracts/notifications';
import { returnError } from '../../../../shared/errors/handling';
import type { ApiClient } from '../../lib/api';
import { routeKey, routeQuery } from '../../lib/query';
import { BANNER_POLL_MS, BAR_PAGE_SIZE } from './notification-rules';

/**
 * The person's banners still on the bar (`active`: not dismissed), with their unread count: the banner bar and the
 * header's bell read this one query, so they never disagree. Polled (notification-rules.ts says why) and read again
 * when the window regains focus; a tab in the background does not poll (TanStack's default).
 */
export const barQuery = (userId: string) => ({
  ...routeQuery('notifications', 'listUserNotifications', {
    params: { id: userId, x: BAR_PAGE_SIZE },
    query: { state: 'active' },
  }),
  refetchInterval: BANNER_POLL_MS,
  refetchOnWindowFocus: true,
});

export const useBarBanners = (userId: string | undefined) => useQuery({ ...barQuery(userId ?? ''), enabled: !!userId });

/** One notification as its reader may see it (a recipient: the content and their banner's state). */
export const useNotification = (id: string) =>
  useQuery(routeQuery('notifications', 'getNotification', { params: { id } }));

/** Every list of a person's banners: the bar, the bell and the notifications page's filters. */
export const bannerListKeys = [routeKey('notifications', 'listUserNotifications')];

/** A banner marked read, unread or dismissed shows in the lists and on its own page. */
export const bannerChangeKeys = (id: string) => [
  ...bannerListKeys,
  routeKey('notifications', 'getNotification', { params: { id } }),
];

/** The staff list of notifications. */
export const notificationListKeys = [routeKey('notifications', 'listNotifications')];

/** A notification created, edited, sent or deleted: its record, its deliveries and the staff list. */
export const notificationShownKeys = (id?: string) => [
  ...notificationListKeys,
  ...(id
    ? [
        routeKey('notifications', 'getNotification', { params: { id } }),
        routeKey('notifications', 'listDeliveries', { params: { id } }),
      ]
    : []),
  // Staff may be in the audience of what they send: their own bar reads again too.
  ...bannerListKeys,
];

/** The person's e-mail choices per topic (the notifications page, and after an unsubscribe link). */
export const preferenceKeys = [routeKey('notifications', 'getPreferences')];

/**
 * Spec §8: the notification create calls return the error object rather than throw it: a draft saved
 * (POST /notification) or sent at once (POST /jobsQueue) answers the notification or the error, which the composer
 * shows beside the form it keeps filled in.
 */
export const createNotification = (
  api: ApiClient<'notifications'>,
  how: 'draft' | 'send',
  body: Parameters<ApiClient<'notifications'>['createNotification']>[0]['body'],
): Promise<Notification | Error> =>
  returnError(() => (how === 'send' ? api.queueNotification({ body }) : api.createNotification({ body })));
