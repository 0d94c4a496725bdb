/** A person's billing as staff see it, for the person's admin page (STYLE §17). */
export { CustomerBillingPanel } from './customer-billing-panel';
