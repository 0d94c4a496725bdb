import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { Banner, Preferences } from '../../../../shared/contracts/notifications';
import { TOPIC_INFO } from '../../../../shared/notifications/topics';
import { EditForm } from '../../components/edit-form';
import { listItem, PagedList } from '../../components/paged-list';
import { useApi } from '../../lib/api';
import { errorOf, routeKey, routeQuery, useChanges, usePagedQuery } from '../../lib/query';
import { useSignedInUser } from '../../lib/session';
import { useCheckedSubmit } from '../../lib/use-checked-submit';
import { At, NotificationBody, NotificationIcon } from './notification-body';
import { bannerChangeKeys, preferenceKeys } from './notifications-api';
import './notifications.css';

const PAGE_SIZE = 20;

type Filter = 'all' | 'unread';
type Row = Banner & { id: string };

/**
 * /dashboard/notifications: every banner the person received, newest first and paged, unread ones marked in words
 * and weight; Mark read / Mark unread and Dismiss per item; and below, their e-mail choice per topic.
 */
export const NotificationsPage = () => {
  const { id: userId } = useSignedInUser();
  const api = useApi('notifications');
  const [filter, setFilter] = useState<Filter>('all');
  const request = { params: { id: userId, x: PAGE_SIZE }, query: { state: filter } } as const;
  const list = usePagedQuery<Row>(routeKey('notifications', 'listUserNotifications', request), async (cursor) => {
    const page = await api.listUserNotifications({ ...request, query: { ...request.query, cursor } });
    return { ...page, items: page.items.map((banner) => ({ ...banner, id: banner.notificationId })) };
  });
  const { busy, error, run } = useChanges<string>();

  const change = (banner: Banner, what: 'read' | 'unread' | 'dismiss') => {
    const id = banner.notificationId;
    const body = what === 'dismiss' ? { dismissed: true } : { read: what === 'read' };
    void run(`${what}:${id}`, () => api.updateNotification({ params: { id }, body }), bannerChangeKeys(id));
  };

  return (
    <div className="page" data-testid="notifications-page">
      <h1>Notifications</h1>
      <section className="card section-card" aria-labelledby="notifications-heading">
        <div className="notifications-head">
          <h2 id="notifications-heading">Your notifications</h2>
          <fieldset className="segmented" aria-label="Show">
            {(['all', 'unread'] as const).map((value) => (
              <button
                key={value}
                type="button"
                aria-pressed={filter === value}
                data-testid={`notifications-filter-${value}`}
                onClick={() => setFilter(value)}
              >
                {value === 'all' ? 'All' : 'Unread'}
              </button>
            ))}
          </fieldset>
        </div>
        <PagedList
          list={list}
          name="notifications"
          error={error}
          loadingText="Loading notifications…"
          empty={filter === 'unread' ? 'Nothing unread.' : 'No notifications yet.'}
        >
          <ul className="notification-list" aria-label="Notifications" data-testid="notifications-list">
            {list.items.map((banner) => {
              const id = banner.notificationId;
              const unread = banner.readAt === undefined;
              return (
                <li
                  key={id}
                  className={unread ? 'notification-item unread' : 'notification-item'}
                  data-testid={`notification-item-${id}`}
                  data-unread={unread || undefined}
                  {...listItem(id)}
                >
                  <NotificationIcon icon={banner.icon} />
                  <div className="notification-main">
                    <p className="notification-title">
                      <Link to={`/dashboard/notifications/${encodeURIComponent(id)}`}>{banner.title}</Link>
                      {unread && (
                        <span className="badge badge-unread" data-testid={`notification-unread-${id}`}>
                          Unread
                        </span>
                      )}
                      {banner.dismissedAt !== undefined && <span className="badge badge-dismissed">Dismissed</span>}
                    </p>
                    <p className="muted small">
                      <At ms={banner.created} /> · {TOPIC_INFO[banner.topic]?.label ?? banner.topic}
                    </p>
                    <NotificationBody html={banner.body} />
                  </div>
                  <div className="actions notification-actions">
                    <button
                      type="button"
                      data-testid={`notification-toggle-read-${id}`}
                      aria-label={`${unread ? 'Mark read' : 'Mark unread'}: ${banner.title}`}
                      disabled={busy?.endsWith(`:${id}`)}
                      onClick={() => change(banner, unread ? 'read' : 'unread')}
                    >
                      {unread ? 'Mark read' : 'Mark unread'}
                    </button>
                    {banner.dismissedAt === undefined && (
                      <button
                        type="button"
                        data-testid={`notification-dismiss-${id}`}
                        aria-label={`Dismiss: ${banner.title}`}
                        disabled={busy?.endsWith(`:${id}`)}
                        onClick={() => change(banner, 'dismiss')}
                      >
                        Dismiss
                      </button>
                    )}
                  </div>
                </li>
              );
            })}
          </ul>
        </PagedList>
      </section>
      <EmailPreferences />
    </div>
  );
};

/** One checkbox per topic; a locked topic is on and cannot be turned off (it is about one's own access). */
const EmailPreferences = () => {
  const api = useApi('notifications');
  const preferences = useQuery(routeQuery('notifications', 'getPreferences', {}));
  const [edits, setEdits] = useState<Partial<Record<string, boolean>>>({});
  const topics = preferences.data?.topics ?? [];
  const checked = (topic: Preferences['topics'][number]) => topic.locked || (edits[topic.topic] ?? topic.email);
  const form = useCheckedSubmit(
    () => ({
      ok: true,
      value: Object.fromEntries(topics.filter((t) => !t.locked).map((t) => [t.topic, checked(t)])),
    }),
    async (email) => {
      await api.updatePreferences({ body: { email } });
      setEdits({});
      return 'Saved.';
    },
    preferenceKeys,
  );

  return (
    <EditForm
      name="preferences"
      id="preferences"
      testId="notification-preferences"
      className="card section-card"
      title="E-mail preferences"
      intro="Banners always come. Choose which topics also come by e-mail."
      form={{ ...form, error: form.error ?? errorOf(preferences) }}
      notice={preferences.isPending && <p className="muted">Loading your choices…</p>}
      submitText="Save preferences"
      busyText="Saving…"
      disabled={!topics.length}
    >
      <ul className="topic-list">
        {topics.map((topic) => {
          const info = TOPIC_INFO[topic.topic];
          const id = `preference-${topic.topic}`;
          return (
            <li key={topic.topic} className="topic-choice">
              <input
                type="checkbox"
                id={id}
                data-testid={id}
                checked={checked(topic)}
                disabled={topic.locked}
                aria-describedby={`${id}-about`}
                onChange={(e) => setEdits({ ...edits, [topic.topic]: e.target.checked })}
              />
              <div>
                <label htmlFor={id}>{info?.label ?? topic.topic}</label>
                <p className="muted small" id={`${id}-about`}>
                  {info?.description}
                  {topic.locked && ' Always sent: it is about your own access.'}
                </p>
              </div>
            </li>
          );
        })}
      </ul>
    </EditForm>
  );
};
