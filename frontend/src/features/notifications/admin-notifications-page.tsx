import { useState } from 'react';
import { Link } from 'react-router-dom';
import {
  NOTIFICATION_METHODS,
  NOTIFICATION_STATUSES,
  type Notification,
  type NotificationMethod,
  type NotificationStatus,
} from '../../../../shared/contracts/notifications';
import { NOTIFICATION_TOPICS, type NotificationTopic, TOPIC_INFO } from '../../../../shared/notifications/topics';
import { ListTable } from '../../components/list-table';
import { PagedList } from '../../components/paged-list';
import { useApi } from '../../lib/api';
import { ChoiceField } from '../../lib/form-fields';
import { routeKey, usePagedQuery } from '../../lib/query';
import { At } from './notification-body';
import { NotificationComposer } from './notification-composer';
import { STATUS_TEXT } from './notification-rules';
import { StatusBadge } from './status-badge';
import './notifications.css';

const PAGE_SIZE = 25;

type Any = '';
const any = ['', 'Any'] as const;

/**
 * /admin/notifications: every notification, newest first, paged and filtered by topic, status and method, with
 * its delivery counts; and the composer behind "New notification".
 */
export const AdminNotificationsPage = () => {
  const api = useApi('notifications');
  const [composing, setComposing] = useState(false);
  const [topic, setTopic] = useState<NotificationTopic | Any>('');
  const [status, setStatus] = useState<NotificationStatus | Any>('');
  const [method, setMethod] = useState<NotificationMethod | Any>('');
  const filters = {
    topic: topic || undefined,
    status: status || undefined,
    method: method || undefined,
    limit: PAGE_SIZE,
  };
  const list = usePagedQuery<Notification>(
    routeKey('notifications', 'listNotifications', { body: filters }),
    (cursor) => api.listNotifications({ body: { ...filters, cursor } }),
  );

  return (
    <div className="page" data-testid="admin-notifications-page">
      <div className="notifications-head">
        <h1>Notifications</h1>
        {!composing && (
          <button type="button" className="primary" data-testid="composer-open" onClick={() => setComposing(true)}>
            New notification
          </button>
        )}
      </div>
      {composing && <NotificationComposer onDone={() => setComposing(false)} />}

      <section className="card section-card" aria-labelledby="sent-heading">
        <h2 id="sent-heading">Sent and drafts</h2>
        <div className="field-row filters">
          <ChoiceField
            id="filter-topic"
            label="Topic"
            value={topic}
            options={[any, ...NOTIFICATION_TOPICS.map((t) => [t, TOPIC_INFO[t].label] as const)]}
            onChange={setTopic}
          />
          <ChoiceField
            id="filter-status"
            label="Status"
            value={status}
            options={[any, ...NOTIFICATION_STATUSES.map((s) => [s, STATUS_TEXT[s].text] as const)]}
            onChange={setStatus}
          />
          <ChoiceField
            id="filter-method"
            label="Method"
            value={method}
            options={[any, ...NOTIFICATION_METHODS.map((m) => [m, m === 'email' ? 'E-mail' : 'Banner'] as const)]}
            onChange={setMethod}
          />
        </div>
        <PagedList
          list={list}
          name="admin-notifications"
          loadingText="Loading notifications…"
          empty="No notifications match."
        >
          <ListTable
            label="Notifications"
            testId="admin-notifications-list"
            rows={list.items}
            rowKey={(n) => n.id}
            rowTestId={(n) => `admin-notification-row-${n.id}`}
            columns={[
              {
                header: 'Title',
                cell: (n) => <Link to={`/admin/notifications/${encodeURIComponent(n.id)}`}>{n.title}</Link>,
              },
              { header: 'Topic', cell: (n) => TOPIC_INFO[n.topic]?.label ?? n.topic },
              { header: 'Status', cell: (n) => <StatusBadge status={n.status} /> },
              { header: 'Created', cell: (n) => <At ms={n.created} /> },
              {
                header: 'Delivered',
                cell: (n) =>
                  n.delivery ? (
                    <span className="small">
                      {n.delivery.recipients} recipients, {n.delivery.banners} banners, {n.delivery.emailsSent} e-mails
                      sent{n.delivery.emailsFailed > 0 && `, ${n.delivery.emailsFailed} failed`}
                    </span>
                  ) : (
                    <span className="muted">—</span>
                  ),
              },
            ]}
          />
        </PagedList>
      </section>
    </div>
  );
};
