import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import type { Banner } from '../../../../shared/contracts/notifications';
import { useApi } from '../../lib/api';
import { useChanges } from '../../lib/query';
import { NotificationBody, NotificationIcon } from './notification-body';
import { barBanners, READ_AFTER_MS, readsItself } from './notification-rules';
import { bannerChangeKeys, useBarBanners } from './notifications-api';

const NONE: ReadonlySet<string> = new Set();

/**
 * Marks each shown banner that reads itself (no `requireInteraction`) read once it has been on screen for
 * READ_AFTER_MS: only while the tab is visible (a banner in a background tab has not been seen), each banner on its
 * own clock, so a new arrival does not restart the others'.
 */
const useReadWhenSeen = (banners: readonly Banner[], markRead: (id: string) => void) => {
  const ids = banners
    .filter(readsItself)
    .map((b) => b.notificationId)
    .join('\n');
  const timers = useRef(new Map<string, number>());
  const mark = useRef(markRead);
  useEffect(() => {
    mark.current = markRead;
  });

  useEffect(() => {
    const current = ids ? ids.split('\n') : [];
    const running = timers.current;
    const start = () => {
      if (document.visibilityState !== 'visible') return;
      for (const id of current) {
        if (!running.has(id))
          running.set(
            id,
            window.setTimeout(() => mark.current(id), READ_AFTER_MS),
          );
      }
    };
    const stopAll = () => {
      for (const timer of running.values()) window.clearTimeout(timer);
      running.clear();
    };
    for (const [id, timer] of running) {
      if (!current.includes(id)) {
        window.clearTimeout(timer);
        running.delete(id);
      }
    }
    start();
    const onVisibility = () => (document.visibilityState === 'visible' ? start() : stopAll());
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, [ids]);

  // The map is emptied with its timers: an effect run again on the same component (React's StrictMode does it on
  // every mount) would otherwise find each banner "running" and never start its clock.
  useEffect(
    () => () => {
      for (const timer of timers.current.values()) window.clearTimeout(timer);
      timers.current.clear();
    },
    [],
  );
};

/**
 * The signed-in person's banners under the header on every page (spec §3, issue 14): the newest three not yet
 * dismissed, each with its icon, title, body and Dismiss. The region is always there (empty when nothing waits), so
 * a screen reader announces a banner that arrives by the poll. Its own chunk, loaded once someone is signed in.
 */
export const BannerBar = ({ userId }: { userId: string }) => {
  const api = useApi('notifications');
  const bar = useBarBanners(userId);
  const { pathname } = useLocation();
  // What this page has shown stays until the person leaves it (barBanners says why); a new page starts afresh.
  const [shownHere, setShownHere] = useState({ pathname, ids: NONE });
  const kept = shownHere.pathname === pathname ? shownHere.ids : NONE;
  const { shown, more } = barBanners(bar.data?.items ?? [], kept);
  const shownIds = shown.map((banner) => banner.notificationId).join('\n');
  useEffect(() => {
    setShownHere((here) => {
      const before = here.pathname === pathname ? here.ids : NONE;
      const ids = shownIds ? shownIds.split('\n') : [];
      return ids.every((id) => before.has(id)) && before === here.ids
        ? here
        : { pathname, ids: new Set([...before, ...ids]) };
    });
  }, [pathname, shownIds]);
  const { busy, error, run } = useChanges<string>();

  const change = (id: string, body: { read?: boolean; dismissed?: boolean }) =>
    void run(
      `${body.dismissed ? 'dismiss' : 'read'}:${id}`,
      () => api.updateNotification({ params: { id }, body }),
      bannerChangeKeys(id),
    );

  useReadWhenSeen(shown, (id) => change(id, { read: true }));

  return (
    // A named <section> is a region landmark (role="region" stated again would be redundant).
    <section
      aria-label="Notifications"
      aria-live="polite"
      className="banner-bar"
      data-testid="banner-bar"
      data-empty={shown.length === 0 || undefined}
    >
      {shown.length > 0 && (
        <ul className="banner-list">
          {shown.map((banner) => (
            <li
              key={banner.notificationId}
              className={`banner banner-${banner.icon}`}
              data-testid={`banner-${banner.notificationId}`}
            >
              <NotificationIcon icon={banner.icon} />
              <div className="banner-text">
                <p className="banner-title">
                  <Link to={`/dashboard/notifications/${encodeURIComponent(banner.notificationId)}`}>
                    {banner.title}
                  </Link>
                </p>
                <NotificationBody html={banner.body} />
              </div>
              <button
                type="button"
                className="banner-dismiss"
                data-testid={`banner-dismiss-${banner.notificationId}`}
                aria-label={`Dismiss "${banner.title}"`}
                disabled={busy === `dismiss:${banner.notificationId}`}
                onClick={() => change(banner.notificationId, { dismissed: true })}
              >
                Dismiss
              </button>
            </li>
          ))}
        </ul>
      )}
      {(more > 0 || error) && (
        <p className="banner-more">
          {error && (
            <span className="banner-error-text" role="alert">
              {error}{' '}
            </span>
          )}
          {more > 0 && (
            <Link to="/dashboard/notifications" data-testid="banner-more">
              +{more} more
            </Link>
          )}
        </p>
      )}
    </section>
  );
};
