import { defineAudit, notAudited } from '../define-audit';
import type { integrations } from '../integrations';

const webhookInPath = { kind: 'webhook', id: ({ params }: { params: { id: string } }) => params.id } as const;

/**
 * Webhooks changed by staff (docs/integrations.md, docs/audit.md). Whether a staff member also manages the target
 * cannot be told from the request, so every staff change is recorded; reads and tests change nothing kept.
 */
export const integrationsAudit = /* @__PURE__ */ defineAudit<typeof integrations>({
  createWebhook: {
    action: 'webhook.create',
    label: 'Added a webhook',
    target: { kind: 'webhook', id: (_request, webhook) => webhook?.id },
  },
  updateWebhook: { action: 'webhook.update', label: 'Changed a webhook', target: webhookInPath },
  deleteWebhook: { action: 'webhook.delete', label: 'Deleted a webhook', target: webhookInPath },
  rotateSecret: { action: 'webhook.secret.rotate', label: "Rotated a webhook's signing secret", target: webhookInPath },
  testWebhook: notAudited('sends a test event to the webhook’s own URL; nothing kept changes but its log'),
  replayDelivery: {
    action: 'webhook.delivery.replay',
    label: 'Sent a webhook delivery again',
    target: { kind: 'delivery', id: ({ params }) => params.id },
  },
});
