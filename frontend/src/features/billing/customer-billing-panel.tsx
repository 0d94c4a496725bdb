import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { ErrorAlert } from '../../components/form-parts';
import { TableScroll } from '../../components/table-scroll';
import { errorOf, routeQuery } from '../../lib/query';
import { InvoicesTable, useCustomerOf } from './invoices-panel';
import { formatDay, tierLabel } from './plan-change-text';
import { SubscriptionBadge } from './status-badge';
import './billing.css';

/** A customer's subscriptions, canceled ones too: status, devices, tier and period. */
const CustomerSubscriptions = ({ customerId }: { customerId: string }) => {
  const query = useQuery(routeQuery('api', 'subscriptionsListByCustomer', { body: { customerId } }));
  const items = query.data?.items ?? [];
  return (
    <>
      <h3 id="person-subscriptions-heading">Subscriptions</h3>
      <ErrorAlert testId="person-subscriptions-error" error={errorOf(query)} />
      {query.isPending && <p className="muted">Loading the subscriptions…</p>}
      {query.data && items.length === 0 && (
        <p className="muted" data-testid="person-subscriptions-empty">
          No subscriptions.
        </p>
      )}
      {items.length > 0 && (
        <TableScroll labelledBy="person-subscriptions-heading">
          <table className="table" aria-labelledby="person-subscriptions-heading">
            <thead>
              <tr>
                <th scope="col">Product</th>
                <th scope="col">Status</th>
                <th scope="col">Devices</th>
                <th scope="col">Tier</th>
                <th scope="col">Period</th>
              </tr>
            </thead>
            <tbody>
              {items.map((subscription) => (
                <tr key={subscription.id} data-testid="person-subscription-row">
                  <th scope="row">{subscription.productName}</th>
                  <td data-label="Status">
                    <SubscriptionBadge status={subscription.status} />
                  </td>
                  <td data-label="Devices">
                    {subscription.deviceIds.length === 0 && <span className="muted">—</span>}
                    {subscription.deviceIds.map((deviceId, index) => (
                      <span key={deviceId}>
                        {index > 0 && ', '}
                        <Link to={`/dashboard/devices/${encodeURIComponent(deviceId)}`} className="mono">
                          {deviceId}
                        </Link>
                      </span>
                    ))}
                  </td>
                  <td data-label="Tier">
                    {subscription.tier ? tierLabel(subscription.tier) : '—'}
                    {subscription.scheduledTier && subscription.scheduledAt !== undefined && (
                      <span className="muted small">
                        {' '}
                        (then {tierLabel(subscription.scheduledTier)} from {formatDay(subscription.scheduledAt)})
                      </span>
                    )}
                  </td>
                  <td data-label="Period">
                    {subscription.currentPeriodStart !== undefined && subscription.currentPeriodEnd !== undefined
                      ? `${formatDay(subscription.currentPeriodStart)} – ${formatDay(subscription.currentPeriodEnd)}`
                      : '—'}
                    {subscription.cancelAtPeriodEnd && <span className="muted small"> · ends then</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </>
  );
};

/**
 * Staff's view of a person's billing on the admin person page: the subscriptions and invoices of the billing
 * customer of their e-mail.
 */
export const CustomerBillingPanel = ({ email }: { email: string | undefined }) => {
  const { customerId, query } = useCustomerOf(email);
  return (
    <section className="panel" aria-labelledby="person-billing-heading" data-testid="person-billing">
      <h2 id="person-billing-heading">Billing</h2>
      <ErrorAlert testId="person-billing-error" error={errorOf(query)} />
      {customerId === null && (
        <p className="muted" data-testid="person-billing-none">
          No billing customer: this person has bought nothing.
        </p>
      )}
      {customerId && (
        <>
          <p className="small muted">
            Customer <span className="mono">{customerId}</span>
          </p>
          <CustomerSubscriptions customerId={customerId} />
          <h3 id="person-invoices-heading">Invoices</h3>
          <InvoicesTable customerId={customerId} testId="person-invoices" />
        </>
      )}
    </section>
  );
};
