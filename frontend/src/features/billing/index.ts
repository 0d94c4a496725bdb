/**
 * What other features may use of billing (docs/style.md §9, §17): the cart button and the plan reads a device's data
 * panel offers a plan with. The panels other pages show have public entries of their own (public-*.ts), so no page
 * carries another's: a barrel shares every module it names among all the chunks that import it.
 */
export { AddToCart } from './add-to-cart';
export { useDeviceSubscriptions, useProducts } from './billing-api';
export { changesInApp, currentSubscription } from './plan-rules';
