import type { customer } from '../customer';
import { defineAudit, notAudited } from '../define-audit';

export const customerAudit = /* @__PURE__ */ defineAudit<typeof customer>({
  stripeWebhook: notAudited("Stripe's signed events, not a person's call"),
});
