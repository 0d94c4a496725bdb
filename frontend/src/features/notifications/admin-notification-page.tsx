import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { Delivery } from '../../../../shared/contracts/notifications';
import { TOPIC_INFO } from '../../../../shared/notifications/topics';
import { ErrorAlert } from '../../components/form-parts';
import { ListTable } from '../../components/list-table';
import { PagedList } from '../../components/paged-list';
import { PersonName } from '../../components/person-name';
import { useApi } from '../../lib/api';
import { errorOf, REFRESH_MS, routeKey, routeQuery, useChanges, usePagedQuery } from '../../lib/query';
import { AudienceLabel } from './audience-label';
import { At, NotificationBody, NotificationIcon } from './notification-body';
import { NotificationComposer } from './notification-composer';
import { IN_FLIGHT_POLL_MS, inFlight } from './notification-rules';
import { notificationShownKeys } from './notifications-api';
import { StatusBadge } from './status-badge';
import { useMarkReadOnOpen } from './use-mark-read';
import './notifications.css';

const PAGE_SIZE = 50;

type Row = Delivery & { id: string };

/**
 * /admin/notifications/{id}: the record with its status and delivery counts (read every 2 s while the worker has
 * it), its deliveries one per person and method, and for a draft Edit, Send and Delete.
 */
export const AdminNotificationPage = () => {
  const { id = '' } = useParams();
  const api = useApi('notifications');
  const navigate = useNavigate();
  const client = useQueryClient();
  const [editing, setEditing] = useState(false);
  const notification = useQuery({
    ...routeQuery('notifications', 'getNotification', { params: { id } }),
    refetchInterval: (query) => (inFlight(query.state.data?.status) ? IN_FLIGHT_POLL_MS : REFRESH_MS),
  });
  const record = notification.data;
  useMarkReadOnOpen(record);

  const deliveriesKey = routeKey('notifications', 'listDeliveries', { params: { id }, query: { limit: PAGE_SIZE } });
  const deliveries = usePagedQuery<Row>(deliveriesKey, async (cursor) => {
    const page = await api.listDeliveries({ params: { id }, query: { limit: PAGE_SIZE, cursor } });
    return { ...page, items: page.items.map((d) => ({ ...d, id: `${d.userId}:${d.method}` })) };
  });
  // While the worker delivers, each new count means new delivery rows: the list follows the record's counts.
  const progress = record?.delivery ? Object.values(record.delivery).join(',') : '';
  useEffect(() => {
    if (progress)
      void client.invalidateQueries({ queryKey: routeKey('notifications', 'listDeliveries', { params: { id } }) });
  }, [progress, id, client]);

  const { busy, error, run } = useChanges<'send' | 'delete'>();
  const send = () => void run('send', () => api.queueNotification({ body: { id } }), notificationShownKeys(id));
  const remove = () => {
    if (!window.confirm(`Delete the draft "${record?.title}"?`)) return;
    let gone = false;
    void run(
      'delete',
      async () => {
        await api.deleteNotification({ params: { id } });
        gone = true;
      },
      notificationShownKeys(),
    ).then(() => gone && navigate('/admin/notifications'));
  };

  const draft = record?.status === 'created';
  const counts = record?.delivery;

  return (
    <div className="page" data-testid="admin-notification-page">
      <p>
        <Link to="/admin/notifications">All notifications</Link>
      </p>
      <ErrorAlert testId="admin-notification-error" error={error ?? errorOf(notification)} />
      {notification.isPending && <p className="muted">Loading the notification…</p>}
      {record && editing && <NotificationComposer editing={record} onDone={() => setEditing(false)} />}
      {record && !editing && (
        <article className="card section-card" aria-labelledby="admin-notification-title">
          <h1 id="admin-notification-title" className="notification-heading">
            <NotificationIcon icon={record.icon} />
            <span data-testid="admin-notification-title">{record.title}</span>
          </h1>
          <p className="notification-status">
            Status <StatusBadge status={record.status} testId="admin-notification-status" />
          </p>
          <NotificationBody html={record.body} testId="admin-notification-body" />
          <dl className="facts">
            <dt>Topic</dt>
            <dd>{TOPIC_INFO[record.topic]?.label ?? record.topic}</dd>
            <dt>Sent as</dt>
            <dd>
              {record.methods.map((m) => (m === 'email' ? 'e-mail' : 'banner')).join(', ')}
              {record.requireInteraction && ' (the banner stays until dismissed)'}
            </dd>
            <dt>Audience</dt>
            <dd>
              <ul className="link-list">
                {(record.audience ?? []).map((selector) => (
                  <li key={selector}>
                    <AudienceLabel selector={selector} />
                  </li>
                ))}
              </ul>
            </dd>
            <dt>Created</dt>
            <dd>
              <At ms={record.created} /> by <PersonName id={record.initiator.id} />
            </dd>
            {record.sentAt !== undefined && (
              <>
                <dt>Finished</dt>
                <dd>
                  <At ms={record.sentAt} />
                </dd>
              </>
            )}
          </dl>
          {counts && (
            <dl className="counts" data-testid="admin-notification-counts" aria-label="Delivery counts">
              {(
                [
                  ['Recipients', counts.recipients, 'recipients'],
                  ['Banners', counts.banners, 'banners'],
                  ['E-mails sent', counts.emailsSent, 'emails-sent'],
                  ['E-mails skipped', counts.emailsSkipped, 'emails-skipped'],
                  ['E-mails failed', counts.emailsFailed, 'emails-failed'],
                ] as const
              ).map(([label, value, key]) => (
                <div key={key}>
                  <dt>{label}</dt>
                  <dd data-testid={`count-${key}`}>{value}</dd>
                </div>
              ))}
            </dl>
          )}
          {draft && (
            <div className="actions draft-actions">
              <button
                type="button"
                className="primary"
                data-testid="draft-send"
                disabled={busy !== undefined}
                onClick={send}
              >
                {busy === 'send' ? 'Sending…' : 'Send'}
              </button>
              <button type="button" data-testid="draft-edit" onClick={() => setEditing(true)}>
                Edit
              </button>
              <button
                type="button"
                className="danger"
                data-testid="draft-delete"
                disabled={busy !== undefined}
                onClick={remove}
              >
                Delete
              </button>
            </div>
          )}
        </article>
      )}
      {record && !draft && (
        <section className="card section-card" aria-labelledby="deliveries-heading">
          <h2 id="deliveries-heading">Deliveries</h2>
          <PagedList list={deliveries} name="deliveries" empty="No deliveries yet.">
            <ListTable
              label="Deliveries"
              testId="deliveries-list"
              rows={deliveries.items}
              rowKey={(d) => d.id}
              columns={[
                { header: 'Person', className: 'mono', cell: (d) => d.userId },
                { header: 'Method', cell: (d) => (d.method === 'email' ? 'E-mail' : 'Banner') },
                { header: 'Status', cell: (d) => d.status },
                { header: 'At', cell: (d) => <At ms={d.at} /> },
                { header: 'Why', cell: (d) => d.reason ?? <span className="muted">—</span> },
              ]}
            />
          </PagedList>
        </section>
      )}
    </div>
  );
};
