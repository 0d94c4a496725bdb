import type { api } from '../api';
import type { subscriptionRoutes } from '../api-subscriptions';
import { type AuditMap, defineAudit, notAudited } from '../define-audit';

const deviceInBody = { kind: 'device', id: ({ body }: { body: { deviceId: string } }) => body.deviceId } as const;

/**
 * Billing overrides (docs/audit.md): staff changing, cancelling or resuming the subscription of a device, or checking
 * out for devices, which staff may do for any. Whether a staff member also owns the device cannot be told from the
 * request, so every staff call is recorded. The reads change nothing.
 */
const subscriptionsAudit: AuditMap<typeof subscriptionRoutes> = {
  productsList: notAudited('a read'),
  productsGet: notAudited('a read'),
  pricesListByProduct: notAudited('a read'),
  pricesGet: notAudited('a read'),
  invoicesGet: notAudited('a read'),
  customersSearchByEmail: notAudited('a read'),
  subscriptionsListByCustomer: notAudited('a read'),
  subscriptionsListByDevice: notAudited('a read'),
  activeEntitlementsList: notAudited('a read'),
  billingPortal: notAudited("opens a billing page; changes there are Stripe's to log"),
  invoicesListByCustomer: notAudited('a read'),
  subscriptionsChangeTier: {
    action: 'subscription.change-tier',
    label: "Changed a device's subscription tier",
    target: deviceInBody,
  },
  subscriptionsCancel: {
    action: 'subscription.cancel',
    label: "Cancelled a device's subscription at period end",
    target: deviceInBody,
  },
  subscriptionsResume: {
    action: 'subscription.resume',
    label: "Kept a device's subscription as it is (undid a cancellation or downgrade)",
    target: deviceInBody,
  },
  checkout: {
    action: 'subscription.checkout',
    label: 'Started a checkout for devices',
    target: { kind: 'device', id: ({ body }) => [...new Set(body.items.map((item) => item.deviceId))].join(', ') },
  },
};

export const apiAudit = /* @__PURE__ */ defineAudit<typeof api>({
  aws: notAudited('signs a short-lived read URL'),
  ...subscriptionsAudit,
});
