import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useLocation } from 'react-router-dom';
import type { Alert } from '../../../../shared/contracts/alerts';
import { ErrorAlert } from '../../components/form-parts';
import { ListTable } from '../../components/list-table';
import { PagedList } from '../../components/paged-list';
import { When } from '../../components/when';
import { useApi } from '../../lib/api';
import { useFirstPages } from '../../lib/first-reads';
import { sectionOf } from '../../lib/navigation';
import { nameKey, useObjectNames } from '../../lib/object-names';
import { routeKey, routePagesQuery, useChanges, useRoutePages } from '../../lib/query';
import { FIRING_PAGE, lastFiredFirst } from './alert-rules';
import { ALERTS_POLL_MS, alertKeys } from './alerts-api';
import { Acknowledgement, AlertBadge } from './alerts-panel';
import './alerts.css';

const recentRequest = (scope: 'mine' | 'all') => ({ query: { scope, limit: 50 } });

const firingRequestOf = (scope: 'mine' | 'all') => ({ query: { scope, state: 'firing' as const, limit: FIRING_PAGE } });

/**
 * `/dashboard/alerts`: what fires now on the person's devices and their recent alerts, with Acknowledge; `/admin/alerts`:
 * every device's, for staff (docs/alerts.md, "Screens"). Each alert links to its device's page at the time it fired.
 */
export const AlertsPage = () => {
  const { pathname } = useLocation();
  const section = sectionOf(pathname);
  const scope = section === 'admin' ? 'all' : 'mine';
  const alerts = useApi('alerts');
  // What fires now sits above the recent alerts and their buttons: the page is drawn with its first page. A page is the
  // FIRING_PAGE that started last, shown the last fired first; "Load more" adds the ones that started before, so a
  // fleet with more firing than a page hides none. Read again as the device page's alerts are.
  const firingRequest = firingRequestOf(scope);
  useFirstPages(routePagesQuery('alerts', 'listEvents', firingRequest));
  const firing = useRoutePages('alerts', 'listEvents', firingRequest, {
    refetchInterval: ALERTS_POLL_MS,
    order: lastFiredFirst,
  });
  const recent = useRoutePages('alerts', 'listEvents', recentRequest(scope));
  // What fires changed (an alert fired, resolved or was acknowledged since): the recent ones are read again with it,
  // so the two lists never disagree.
  const client = useQueryClient();
  const firingNow = firing.items.map((alert) => `${alert.id}:${alert.acknowledgedBy ?? ''}`).join();
  const firingSeen = useRef(firingNow);
  useEffect(() => {
    if (firingSeen.current === firingNow) return;
    firingSeen.current = firingNow;
    void client.invalidateQueries({ queryKey: routeKey('alerts', 'listEvents', recentRequest(scope)), exact: true });
  }, [client, firingNow, scope]);
  const names = useObjectNames(
    [...firing.items, ...recent.items].map((alert) => ({ kind: 'device' as const, id: alert.deviceId })),
  );
  const { busy, error, run } = useChanges<`ack:${string}`>();
  const acknowledge = (alert: Alert) =>
    void run(`ack:${alert.id}`, () => alerts.acknowledgeEvent({ params: { id: alert.id } }), alertKeys);

  const device = (alert: Alert) => (
    <Link to={`/${section}/devices/${encodeURIComponent(alert.deviceId)}?at=${alert.firedAt ?? alert.startedAt}`}>
      {names.get(nameKey('device', alert.deviceId)) ?? alert.deviceId}
    </Link>
  );
  const acknowledgement = (alert: Alert) => (
    <Acknowledgement alert={alert} busy={busy === `ack:${alert.id}`} onAcknowledge={() => acknowledge(alert)} />
  );

  return (
    <section className="page" data-testid="alerts-page">
      <h1>{scope === 'all' ? 'Alerts of every device' : 'Alerts'}</h1>
      <p className="muted">
        {scope === 'all'
          ? 'Every alert rule’s alerts, newest first.'
          : 'The alerts of the devices you own, administer or use, newest first.'}
      </p>
      <ErrorAlert testId="alerts-page-error" error={error ?? firing.error ?? recent.error} />

      <section className="card section-card" aria-labelledby="alerts-firing-heading">
        <h2 id="alerts-firing-heading">Firing now</h2>
        <PagedList list={firing} name="alerts-page-firing" errorShownAbove empty="Nothing fires now.">
          <ListTable
            label="Firing now"
            testId="alerts-page-firing"
            rows={firing.items}
            rowKey={(alert) => alert.id}
            rowTestId={(alert) => `alerts-page-firing-${alert.id}`}
            columns={[
              { header: 'Device', cell: device },
              { header: 'Rule', cell: (alert) => alert.ruleName },
              { header: 'Since', cell: (alert) => <When ms={alert.firedAt} /> },
              { header: 'Value', cell: (alert) => (alert.value === undefined ? '—' : String(alert.value)) },
              { header: 'Acknowledged', cell: acknowledgement },
            ]}
          />
        </PagedList>
      </section>

      <section className="card section-card" aria-labelledby="alerts-recent-heading">
        <h2 id="alerts-recent-heading">Recent</h2>
        <PagedList list={recent} name="alerts-page-recent" errorShownAbove empty="No alert yet.">
          <ListTable
            label="Recent alerts"
            testId="alerts-page-recent"
            rows={recent.items}
            rowKey={(alert) => alert.id}
            rowTestId={(alert) => `alerts-page-recent-${alert.id}`}
            columns={[
              { header: 'Device', cell: device },
              { header: 'Rule', cell: (alert) => alert.ruleName },
              { header: 'State', cell: (alert) => <AlertBadge state={alert.state} /> },
              { header: 'Fired', cell: (alert) => <When ms={alert.firedAt ?? alert.startedAt} /> },
              { header: 'Resolved', cell: (alert) => <When ms={alert.resolvedAt} /> },
              { header: 'Acknowledged', cell: acknowledgement },
            ]}
          />
        </PagedList>
      </section>
    </section>
  );
};
