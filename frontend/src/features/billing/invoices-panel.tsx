import { useQuery } from '@tanstack/react-query';
import type { Invoice } from '../../../../shared/contracts/api-subscriptions';
import { ErrorAlert } from '../../components/form-parts';
import { ListTable } from '../../components/list-table';
import { PagedList } from '../../components/paged-list';
import { errorOf, routePagesQuery, routeQuery, useRoutePages } from '../../lib/query';
import { formatDay } from './plan-change-text';
import { formatCents } from './plan-rules';
import './billing.css';

const INVOICES_PAGE = 20;

/** The search for the billing customer of an e-mail (spec §7). */
export const customerOfQuery = (email: string) => routeQuery('api', 'customersSearchByEmail', { body: { email } });

/** A customer's invoices as `InvoicesTable` reads them, a page at a time. */
const invoicesRequest = (customerId: string) => ({ body: { customerId }, query: { limit: INVOICES_PAGE } });

/** The first page of a customer's invoices, for a screen that waits for it (lib/first-reads.ts). */
export const invoicesPagesQuery = (customerId: string) =>
  routePagesQuery('api', 'invoicesListByCustomer', invoicesRequest(customerId));

/**
 * The billing customer of an e-mail (the first Stripe answers, as spec §7's search): a person's own, or anyone's
 * for staff. Undefined data until the search answers; `null` when the e-mail has none (nothing bought yet).
 */
export const useCustomerOf = (email: string | undefined) => {
  const query = useQuery({ ...customerOfQuery(email ?? ''), enabled: Boolean(email) });
  return { customerId: query.data ? (query.data.items[0]?.id ?? null) : undefined, query };
};

/** Invoice statuses as people read them: Stripe's word, capitalised ("Paid", "Open"). */
const statusText = (status: string) => status.charAt(0).toUpperCase() + status.slice(1).replaceAll('_', ' ');

/** A customer's invoices, newest first, paged: number, date, amount, status and Stripe's page of each. */
export const InvoicesTable = ({ customerId, testId }: { customerId: string; testId: string }) => {
  const invoices = useRoutePages('api', 'invoicesListByCustomer', invoicesRequest(customerId));
  return (
    <PagedList list={invoices} name={testId} loadingText="Loading the invoices…" empty="No invoices yet.">
      <ListTable
        labelledBy={`${testId}-heading`}
        rows={invoices.items}
        rowKey={(invoice) => invoice.id}
        rowTestId={() => `${testId}-row`}
        columns={[
          { header: 'Number', className: 'mono', cell: (invoice: Invoice) => invoice.number ?? invoice.id },
          { header: 'Date', cell: (invoice) => formatDay(invoice.created) },
          {
            header: 'Amount',
            cellData: () => ({ 'data-testid': `${testId}-amount` }),
            cell: (invoice) =>
              formatCents(invoice.status === 'paid' ? invoice.amountPaid : invoice.amountDue, invoice.currency),
          },
          { header: 'Status', cell: (invoice) => statusText(invoice.status) },
          {
            header: 'Invoice',
            cell: (invoice) =>
              invoice.hostedInvoiceUrl ? (
                <a href={invoice.hostedInvoiceUrl} target="_blank" rel="noreferrer">
                  View invoice
                </a>
              ) : (
                <span className="muted">—</span>
              ),
          },
        ]}
      />
    </PagedList>
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
