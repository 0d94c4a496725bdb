import type { AlertTarget } from '../../../shared/contracts/alerts';
import type { Log } from '../logger';
import type { CreatorWebhooks } from './creator-webhooks';
import { takesPresence } from './webhook-records';

/**
 * What account deletion removes of a person in the integrations area (docs/integrations.md): every webhook they made,
 * with its lane, waiting events and delivery log. Idempotent and ordered: all switched off first (publishers stop
 * adding to their lanes), then the targets of those taking device.online or device.offline touched (`presence`: the
 * alerts area's sweep closes their devices' presence tracks, decision 105), then each one's deliveries and its record
 * last, so a run cut short leaves records the next run finds and touches again.
 */
export const createWebhooksOfPerson = ({
  webhooks,
  presence,
  now,
  log,
}: {
  webhooks: Pick<CreatorWebhooks, 'madeBy' | 'switchOff' | 'removeDeliveries' | 'removeRecord'>;
  /** Makes the targets' devices due in the alerts area, after its rule caches forget. */
  presence: (targets: readonly AlertTarget[]) => Promise<unknown>;
  now: () => number;
  log: Log;
}) => ({
  area: 'integrations',
  removeAllOf: async (userId: string): Promise<number> => {
    const made = await webhooks.madeBy(userId);
    for (const webhook of made) await webhooks.switchOff(webhook.id, now());
    const watched = made.filter(takesPresence).map((webhook) => ({ kind: webhook.targetKind, id: webhook.targetId }));
    if (watched.length) await presence(watched);
    for (const webhook of made) {
      await webhooks.removeDeliveries(webhook.id);
      await webhooks.removeRecord(webhook.id);
    }
    log('info', "A deleted account's webhooks removed", { userId, webhooks: made.length, presence: watched.length });
    return made.length;
  },
});

export type WebhooksOfPerson = ReturnType<typeof createWebhooksOfPerson>;
