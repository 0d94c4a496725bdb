import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { ErrorAlert } from '../../components/form-parts';
import { ListTable } from '../../components/list-table';
import { PagedList } from '../../components/paged-list';
import { useFirstAnswers } from '../../lib/first-answers';
import { useFirstReads } from '../../lib/first-reads';
import { errorOf, queryList, routeQuery } from '../../lib/query';
import { customerOfQuery, InvoicesTable, invoicesPagesQuery, useCustomerOf } from './invoices-panel';
import { formatDay, tierLabel } from './plan-change-text';
import { SubscriptionBadge } from './status-badge';
import './billing.css';

const subscriptionsQuery = (customerId: string) =>
  routeQuery('api', 'subscriptionsListByCustomer', { body: { customerId } });

/** A customer's subscriptions, canceled ones too: status, devices, tier and period. */
const CustomerSubscriptions = ({ customerId }: { customerId: string }) => {
  const query = useQuery(subscriptionsQuery(customerId));
  return (
    <>
      <h3 id="person-subscriptions-heading">Subscriptions</h3>
      <PagedList
        list={queryList(query, query.data?.items)}
        name="person-subscriptions"
        loadingText="Loading the subscriptions…"
        empty="No subscriptions."
      >
        <ListTable
          labelledBy="person-subscriptions-heading"
          rows={query.data?.items ?? []}
          rowKey={(subscription) => subscription.id}
          rowTestId={() => 'person-subscription-row'}
          columns={[
            { header: 'Product', cell: (subscription) => subscription.productName },
            { header: 'Status', cell: (subscription) => <SubscriptionBadge status={subscription.status} /> },
            {
              header: 'Devices',
              cell: (subscription) =>
                subscription.deviceIds.length === 0 ? (
                  <span className="muted">—</span>
                ) : (
                  subscription.deviceIds.map((deviceId, index) => (
                    <span key={deviceId}>
                      {index > 0 && ', '}
                      <Link to={`/dashboard/devices/${encodeURIComponent(deviceId)}`} className="mono">
                        {deviceId}
                      </Link>
                    </span>
                  ))
                ),
            },
            {
              header: 'Tier',
              cell: (subscription) => (
                <>
                  {subscription.tier ? tierLabel(subscription.tier) : '—'}
                  {subscription.scheduledTier && subscription.scheduledAt !== undefined && (
                    <span className="muted small">
                      {' '}
                      (then {tierLabel(subscription.scheduledTier)} from {formatDay(subscription.scheduledAt)})
                    </span>
                  )}
                </>
              ),
            },
            {
              header: 'Period',
              cell: (subscription) => (
                <>
                  {subscription.currentPeriodStart !== undefined && subscription.currentPeriodEnd !== undefined
                    ? `${formatDay(subscription.currentPeriodStart)} – ${formatDay(subscription.currentPeriodEnd)}`
                    : '—'}
                  {subscription.cancelAtPeriodEnd && <span className="muted small"> · ends then</span>}
                </>
              ),
            },
          ]}
        />
      </PagedList>
    </>
  );
};

/**
 * Holds a screen (lib/first-reads.ts) until what `CustomerBillingPanel` draws has come: the customer of the e-mail,
 * then their subscriptions and first page of invoices. Drawn as they came, they pushed down what sits below the
 * panel (the person page's deletion controls, 64 px on a phone, under a press).
 */
export const useCustomerBillingFirstReads = (email: string | undefined): void => {
  const client = useQueryClient();
  const lookup = email ? customerOfQuery(email) : undefined;
  useFirstReads(lookup);
  const customerId = lookup && client.getQueryData(lookup.queryKey)?.items[0]?.id;
  useFirstAnswers({
    reads: [customerId ? subscriptionsQuery(customerId) : undefined],
    pages: [customerId ? invoicesPagesQuery(customerId) : undefined],
  });
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
