import type { api } from '../../../shared/contracts/api';
import type { AreaHandlers } from '../../_shared/http/http-area';
import type { ApiDeps } from '../deps';

export const apiHandlers: AreaHandlers<typeof api, ApiDeps> = {
  aws: ({ caller, body }, { signedUrls }) => signedUrls.getSignedS3Url(caller, body.params),
  productsList: (_request, { subscriptions }) => subscriptions.products(),
  productsGet: ({ body }, { subscriptions }) => subscriptions.product(body.productId),
  pricesListByProduct: ({ body }, { subscriptions }) => subscriptions.prices(body.productId),
  pricesGet: ({ body }, { subscriptions }) => subscriptions.price(body.priceId),
  invoicesGet: ({ caller, body }, { subscriptions }) => subscriptions.invoice(caller, body.invoiceId),
  customersSearchByEmail: ({ caller, body }, { subscriptions }) => subscriptions.customersByEmail(caller, body.email),
  subscriptionsListByCustomer: ({ caller, body }, { subscriptions }) =>
    subscriptions.subscriptionsOfCustomer(caller, body.customerId),
  subscriptionsListByDevice: ({ caller, body }, { subscriptions }) =>
    subscriptions.subscriptionsOfDevice(caller, body.deviceId),
  activeEntitlementsList: ({ caller, body }, { subscriptions }) => subscriptions.entitlements(caller, body.customerId),
  billingPortal: ({ caller, body }, { subscriptions }) => subscriptions.portal(caller, body.returnUrl),
  invoicesListByCustomer: ({ caller, body, query }, { subscriptions }) =>
    subscriptions.invoicesOfCustomer(caller, body.customerId, query),
  subscriptionsChangeTier: ({ caller, body, audit }, { subscriptions }) =>
    subscriptions.changeTier(caller, body.deviceId, body.productId, audit),
  subscriptionsCancel: ({ caller, body, audit }, { subscriptions }) =>
    subscriptions.cancel(caller, body.deviceId, audit),
  subscriptionsResume: ({ caller, body, audit }, { subscriptions }) =>
    subscriptions.resume(caller, body.deviceId, audit),
  checkout: ({ caller, body: { items, successUrl, cancelUrl } }, { subscriptions }) =>
    subscriptions.checkout(caller, items, { successUrl, cancelUrl }),
};
