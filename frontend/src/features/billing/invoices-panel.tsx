import { useQuery } from '@tanstack/react-query';
import type { Invoice } from '../../../../shared/contracts/api-subscriptions';
import { ErrorAlert } from '../../components/form-parts';
import { TableScroll } from '../../components/table-scroll';
import { LoadMoreButton } from '../../lib/load-more-button';
import { errorOf, routeQuery, useRoutePages } from '../../lib/query';
import { formatDay } from './plan-change-text';
import { formatCents } from './plan-rules';
import './billing.css';

const INVOICES_PAGE = 20;

/**
 * The billing customer of an e-mail (the first Stripe answers, as spec §7's search): a person's own, or anyone's
 * for staff. Undefined data until the search answers; `null` when the e-mail has none (nothing bought yet).
 */
export const useCustomerOf = (email: string | undefined) => {
  const query = useQuery({
    ...routeQuery('api', 'customersSearchByEmail', { body: { email: email ?? '' } }),
    enabled: Boolean(email),
  });
  return { customerId: query.data ? (query.data.items[0]?.id ?? null) : undefined, query };
};

/** Invoice statuses as people read them: Stripe's word, capitalised ("Paid", "Open"). */
const statusText = (status: string) => status.charAt(0).toUpperCase() + status.slice(1).replaceAll('_', ' ');

/** A customer's invoices, newest first, paged: number, date, amount, status and Stripe's page of each. */
export const InvoicesTable = ({ customerId, testId }: { customerId: string; testId: string }) => {
  const invoices = useRoutePages('api', 'invoicesListByCustomer', {
    body: { customerId },
    query: { limit: INVOICES_PAGE },
  });
  return (
    <>
      <ErrorAlert testId={`${testId}-error`} error={invoices.error} />
      {invoices.items.length > 0 && (
        <TableScroll labelledBy={`${testId}-heading`}>
          <table className="table" aria-labelledby={`${testId}-heading`}>
            <thead>
              <tr>
                <th scope="col">Number</th>
                <th scope="col">Date</th>
                <th scope="col">Amount</th>
                <th scope="col">Status</th>
                <th scope="col">Invoice</th>
              </tr>
            </thead>
            <tbody>
              {invoices.items.map((invoice: Invoice) => (
                <tr key={invoice.id} data-testid={`${testId}-row`}>
                  <th scope="row" className="mono">
                    {invoice.number ?? invoice.id}
                  </th>
                  <td data-label="Date">{formatDay(invoice.created)}</td>
                  <td data-label="Amount" data-testid={`${testId}-amount`}>
                    {formatCents(invoice.status === 'paid' ? invoice.amountPaid : invoice.amountDue, invoice.currency)}
                  </td>
                  <td data-label="Status">{statusText(invoice.status)}</td>
                  <td data-label="Invoice">
                    {invoice.hostedInvoiceUrl ? (
                      <a href={invoice.hostedInvoiceUrl} target="_blank" rel="noreferrer">
                        View invoice
                      </a>
                    ) : (
                      <span className="muted">—</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {invoices.loading === 'first' && <p className="muted">Loading the invoices…</p>}
      {invoices.loaded && invoices.items.length === 0 && !invoices.nextCursor && (
        <p className="muted" data-testid={`${testId}-empty`}>
          No invoices yet.
        </p>
      )}
      <LoadMoreButton list={invoices} testId={`${testId}-load-more`} />
    </>
  );
};

/** The person's own invoices on their profile (docs/billing.md, "Screens"). */
export const InvoicesPanel = ({ email }: { email: string | undefined }) => {
  const { customerId, query } = useCustomerOf(email);
  return (
    <section className="panel" aria-labelledby="invoices-heading" data-testid="invoices">
      <h2 id="invoices-heading">Invoices</h2>
      <ErrorAlert testId="invoices-customer-error" error={errorOf(query)} />
      {customerId === null && (
        <p className="muted" data-testid="invoices-empty">
          No invoices yet: they appear here after your first purchase.
        </p>
      )}
      {customerId && <InvoicesTable customerId={customerId} testId="invoices" />}
    </section>
  );
};
