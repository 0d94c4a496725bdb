import { Link, useParams } from 'react-router-dom';
import { TOPIC_INFO } from '../../../../shared/notifications/topics';
import { ErrorAlert } from '../../components/form-parts';
import { errorOf } from '../../lib/query';
import { At, NotificationBody, NotificationIcon } from './notification-body';
import { useNotification } from './notifications-api';
import { useMarkReadOnOpen } from './use-mark-read';
import './notifications.css';

/** /dashboard/notifications/{id}: one notification as its reader sees it, marked read when opened. */
export const NotificationPage = () => {
  const { id = '' } = useParams();
  const notification = useNotification(id);
  useMarkReadOnOpen(notification.data);
  const record = notification.data;

  return (
    <div className="page" data-testid="notification-page">
      <p>
        <Link to="/dashboard/notifications">All notifications</Link>
      </p>
      <ErrorAlert testId="notification-error" error={errorOf(notification)} />
      {notification.isPending && <p className="muted">Loading the notification…</p>}
      {record && (
        <article className="card section-card notification-detail" aria-labelledby="notification-title">
          <h1 id="notification-title" className="notification-heading">
            <NotificationIcon icon={record.icon} />
            <span data-testid="notification-title">{record.title}</span>
          </h1>
          <NotificationBody html={record.body} testId="notification-body" />
          <dl className="facts">
            <dt>Sent</dt>
            <dd>
              <At ms={record.sentAt ?? record.created} testId="notification-time" />
            </dd>
            <dt>Topic</dt>
            <dd>{TOPIC_INFO[record.topic]?.label ?? record.topic}</dd>
            <dt>From</dt>
            <dd className="mono" data-testid="notification-initiator">
              {record.initiator.id}
            </dd>
            {record.banner && (
              <>
                <dt>Read</dt>
                <dd data-testid="notification-read">
                  {record.banner.readAt === undefined ? 'Not yet' : <At ms={record.banner.readAt} />}
                </dd>
              </>
            )}
          </dl>
        </article>
      )}
    </div>
  );
};
