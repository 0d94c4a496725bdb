import type { alerts } from '../alerts';
import { defineAudit, notAudited } from '../define-audit';

const ruleInPath = { kind: 'alert-rule', id: ({ params }: { params: { id: string } }) => params.id } as const;

/**
 * Alert rules changed by staff, and alerts they acknowledged (docs/audit.md). Whether a staff member also manages the
 * rule's target cannot be told from the request, so every staff change is recorded.
 */
export const alertsAudit = /* @__PURE__ */ defineAudit<typeof alerts>({
  createRule: {
    action: 'alert-rule.create',
    label: 'Created an alert rule',
    target: { kind: 'alert-rule', id: (_request, rule) => rule?.id },
  },
  previewRule: notAudited('a backtest over past data: nothing is stored'),
  updateRule: { action: 'alert-rule.update', label: 'Changed an alert rule', target: ruleInPath },
  deleteRule: { action: 'alert-rule.delete', label: 'Deleted an alert rule', target: ruleInPath },
  acknowledgeEvent: {
    action: 'alert.acknowledge',
    label: 'Acknowledged an alert',
    target: { kind: 'alert', id: ({ params }) => params.id },
  },
});
