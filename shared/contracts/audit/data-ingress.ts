import type { dataIngress } from '../data-ingress';
import { defineAudit, notAudited } from '../define-audit';

export const dataIngressAudit = /* @__PURE__ */ defineAudit<typeof dataIngress>({
  ingestReadings: notAudited("a device's own readings, sent with its credential"),
  getFirmware: notAudited("a device's own firmware offer, read with its credential"),
  reportFirmwareStatus: notAudited("a device's report of its own update, sent with its credential"),
});
