/** A person's own invoices, for their profile (STYLE §17). */
export { InvoicesPanel } from './invoices-panel';
