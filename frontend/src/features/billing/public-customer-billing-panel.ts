/** A person's billing as staff see it, for the person's admin page (docs/style.md §9). */
export { CustomerBillingPanel, useCustomerBillingFirstReads } from './customer-billing-panel';
