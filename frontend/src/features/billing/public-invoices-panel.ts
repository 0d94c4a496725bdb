/** A person's own invoices, for their profile (docs/style.md §9). */
export { InvoicesPanel } from './invoices-panel';
