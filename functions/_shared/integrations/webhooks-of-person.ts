import type { Log } from '../logger';
import type { CreatorWebhooks } from './creator-webhooks';

/**
 * What account deletion removes of a person in the integrations area (docs/integrations.md): every webhook they made,
 * with its lane, waiting events and delivery log. Idempotent and ordered: switched off first (publishers stop adding
 * to its lane), its deliveries next, its record last, so a run cut short leaves the record the next run finds.
 */
export const createWebhooksOfPerson = ({
  webhooks,
  now,
  log,
}: {
  webhooks: Pick<CreatorWebhooks, 'idsOf' | 'switchOff' | 'removeDeliveries' | 'removeRecord'>;
  now: () => number;
  log: Log;
}) => ({
  area: 'integrations',
  removeAllOf: async (userId: string): Promise<number> => {
    const ids = await webhooks.idsOf(userId);
    for (const id of ids) {
      await webhooks.switchOff(id, now());
      await webhooks.removeDeliveries(id);
      await webhooks.removeRecord(id);
    }
    log('info', "A deleted account's webhooks removed", { userId, webhooks: ids.length });
    return ids.length;
  },
});

export type WebhooksOfPerson = ReturnType<typeof createWebhooksOfPerson>;
