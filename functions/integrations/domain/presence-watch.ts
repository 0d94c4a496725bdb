import type { Log } from '../../_shared/logger';
import type { PresenceWatches, WebhookRecord } from './ports';

/**
 * Tells the alerts area that a webhook started or stopped taking its target's devices' presence (decision 105). A
 * failure is logged, not thrown: the webhook's own change stands (a secret shown once, an owner told of a turn-off),
 * and a device's rule cache reads the webhooks again within 5 minutes at ingest.
 */
export const presenceWatchMoved = async (
  presence: PresenceWatches,
  log: Log,
  webhook: Pick<WebhookRecord, 'id' | 'targetKind' | 'targetId'>,
): Promise<void> => {
  try {
    await presence.changed(webhook.targetKind, webhook.targetId);
  } catch (error) {
    log('warn', 'Presence watch not updated', {
      webhookId: webhook.id,
      error: error instanceof Error ? error.message : String(error),
    });
  }
};
