import { formatMoney, priceLabel } from './stripe-catalogue';
import type {
  LocalCheckoutLineItem,
  LocalCheckoutSession,
  LocalCustomer,
  LocalInvoice,
  LocalPortalSession,
  LocalSubscription,
} from './stripe-state';

/**
 * The pages Stripe hosts, as the local Stripe server serves them: checkout, an invoice, the billing portal. Plain
 * HTML forms (no script), labelled fields and an alert region, so a person, a screen reader and a browser test
 * use them alike.
 */

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const date = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

const page = (title: string, body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 36rem; margin: 2rem auto; padding: 0 1rem; color: #1a1a1a; }
table { width: 100%; border-collapse: collapse; margin: 1rem 0; }
th, td { text-align: left; padding: .4rem; border-bottom: 1px solid #ddd; }
td.amount, th.amount { text-align: right; }
label { display: block; margin: 1rem 0 .3rem; font-weight: 600; }
input { font-size: 1rem; padding: .5rem; width: 100%; box-sizing: border-box; }
button { font-size: 1rem; padding: .6rem 1.2rem; margin-top: 1rem; background: #635bff; color: #fff; border: 0; border-radius: 4px; }
[role="alert"] { color: #b00020; font-weight: 600; margin: 1rem 0; }
.note { color: #555; font-size: .9rem; }
</style>
</head>
<body>
<p class="note">Local Stripe server (test mode)</p>
${body}
</body>
</html>
`;

export interface CheckoutPageInput {
  session: LocalCheckoutSession;
  lineItems: LocalCheckoutLineItem[];
  productName: (id: string) => string;
  error?: string;
  card?: string;
}

export const checkoutPage = ({ session, lineItems, productName, error, card }: CheckoutPageInput) => {
  const rows = lineItems
    .map(
      (item) =>
        `<tr><td>${escapeHtml(productName(item.price.product))}</td><td>${item.quantity}</td><td>${escapeHtml(priceLabel(item.price))}</td><td class="amount">${escapeHtml(formatMoney(item.amount_total, item.currency))}</td></tr>`,
    )
    .join('\n');
  const items = `<table>
<caption>Your order</caption>
<thead><tr><th scope="col">Item</th><th scope="col">Qty</th><th scope="col">Price</th><th scope="col" class="amount">Amount</th></tr></thead>
<tbody>
${rows}
</tbody>
<tfoot><tr><th scope="row" colspan="3">Total due today</th><td class="amount" data-testid="total">${escapeHtml(formatMoney(session.amount_total, session.currency))}</td></tr></tfoot>
</table>`;
  if (session.status !== 'open') {
    const next =
      session.status === 'complete' && session.success_url
        ? `<p><a href="${escapeHtml(session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', session.id))}">Continue</a></p>`
        : session.cancel_url
          ? `<p><a href="${escapeHtml(session.cancel_url)}">Return</a></p>`
          : '';
    return page(
      'Checkout',
      `<h1>Checkout</h1>\n<p role="status">This checkout session is ${escapeHtml(session.status)}.</p>\n${items}\n${next}`,
    );
  }
  const email = session.customer
    ? ''
    : session.customer_email
      ? `<p>Paying as <strong>${escapeHtml(session.customer_email)}</strong></p>`
      : `<label for="email">E-mail</label>\n<input id="email" name="email" type="email" autocomplete="email" required>`;
  const cancel = session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">Cancel and return</a></p>` : '';
  return page(
    'Checkout',
    `<h1>Checkout</h1>
${items}
<form method="post" action="/checkout/${escapeHtml(session.id)}">
${error ? `<div role="alert" id="card-error">${escapeHtml(error)}</div>` : '<div role="alert" id="card-error"></div>'}
${email}
<label for="card">Card number</label>
<input id="card" name="card" inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242" required${
      card ? ` value="${escapeHtml(card)}"` : ''
    }${error ? ' aria-invalid="true" aria-describedby="card-error"' : ''}>
<p class="note">Test cards: 4242 4242 4242 4242 pays; 4000 0000 0000 0002 is declined.</p>
<button type="submit">Pay ${escapeHtml(formatMoney(session.amount_total, session.currency))}</button>
</form>
${cancel}`,
  );
};

export const invoicePage = (invoice: LocalInvoice) => {
  const rows = invoice.lines.data
    .map(
      (l) =>
        `<tr><td>${escapeHtml(l.description ?? '')}</td><td>${date(l.period.start)} – ${date(l.period.end)}</td><td class="amount">${escapeHtml(formatMoney(l.amount, l.currency))}</td></tr>`,
    )
    .join('\n');
  return page(
    `Invoice ${invoice.number ?? invoice.id}`,
    `<h1>Invoice ${escapeHtml(invoice.number ?? invoice.id)}</h1>
<dl>
<dt>Status</dt><dd data-testid="status">${escapeHtml(invoice.status)}</dd>
<dt>Billed to</dt><dd>${escapeHtml(invoice.customer_name ?? invoice.customer_email ?? invoice.customer)}</dd>
<dt>Date</dt><dd>${date(invoice.created)}</dd>
</dl>
<table>
<caption>Items</caption>
<thead><tr><th scope="col">Description</th><th scope="col">Period</th><th scope="col" class="amount">Amount</th></tr></thead>
<tbody>
${rows}
</tbody>
<tfoot>
<tr><th scope="row" colspan="2">Total</th><td class="amount">${escapeHtml(formatMoney(invoice.total, invoice.currency))}</td></tr>
<tr><th scope="row" colspan="2">Amount paid</th><td class="amount" data-testid="amount-paid">${escapeHtml(formatMoney(invoice.amount_paid, invoice.currency))}</td></tr>
<tr><th scope="row" colspan="2">Amount remaining</th><td class="amount">${escapeHtml(formatMoney(invoice.amount_remaining, invoice.currency))}</td></tr>
</tfoot>
</table>`,
  );
};

export const portalPage = ({
  session,
  customer,
  subscriptions,
  invoices,
  productName,
}: {
  session: LocalPortalSession;
  customer: LocalCustomer;
  subscriptions: LocalSubscription[];
  invoices: LocalInvoice[];
  productName: (id: string) => string;
}) => {
  const subscriptionRows = subscriptions
    .map((s) => {
      const items = s.items.data
        .map((i) => `${escapeHtml(productName(i.price.product))} × ${i.quantity} (${escapeHtml(priceLabel(i.price))})`)
        .join('<br>');
      const end = s.items.data[0]?.current_period_end;
      const renewal =
        s.status === 'canceled'
          ? `Ended ${date(s.ended_at ?? s.canceled_at ?? s.created)}`
          : s.cancel_at_period_end && end
            ? `Cancels ${date(end)}`
            : end
              ? `Renews ${date(end)}`
              : '';
      const device = s.metadata.deviceId ? ` <span class="note">device ${escapeHtml(s.metadata.deviceId)}</span>` : '';
      return `<tr><td>${items}${device}</td><td>${escapeHtml(s.status)}</td><td>${renewal}</td></tr>`;
    })
    .join('\n');
  const invoiceRows = invoices
    .map(
      (i) =>
        `<tr><td><a href="/invoices/${escapeHtml(i.id)}">${escapeHtml(i.number ?? i.id)}</a></td><td>${date(i.created)}</td><td>${escapeHtml(i.status)}</td><td class="amount">${escapeHtml(formatMoney(i.total, i.currency))}</td></tr>`,
    )
    .join('\n');
  return page(
    'Billing',
    `<h1>Billing for ${escapeHtml(customer.name ?? customer.email ?? customer.id)}</h1>
<h2>Subscriptions</h2>
${
  subscriptions.length === 0
    ? '<p>No subscriptions.</p>'
    : `<table>
<thead><tr><th scope="col">Plan</th><th scope="col">Status</th><th scope="col">Period</th></tr></thead>
<tbody>
${subscriptionRows}
</tbody>
</table>`
}
<h2>Invoices</h2>
${
  invoices.length === 0
    ? '<p>No invoices.</p>'
    : `<table>
<thead><tr><th scope="col">Number</th><th scope="col">Date</th><th scope="col">Status</th><th scope="col" class="amount">Total</th></tr></thead>
<tbody>
${invoiceRows}
</tbody>
</table>`
}
${session.return_url ? `<p><a href="${escapeHtml(session.return_url)}">Return to the app</a></p>` : ''}`,
  );
};

export const notFoundPage = (what: string) => page('Not found', `<h1>Not found</h1>\n<p>${escapeHtml(what)}</p>`);
