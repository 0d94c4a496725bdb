import { ONLINE_WINDOW_MS } from '../../../shared/devices/presence';
import type { WebhookOutbox } from '../../_shared/integrations/webhook-outbox';
import { presenceEvent } from '../../_shared/integrations/webhook-publisher';
import { collects, type QueuedEvent } from '../../_shared/integrations/webhook-records';
import type { Log } from '../../_shared/logger';
import { eachPage } from '../../_shared/paging';
import type { DeliveryStore, TargetDirectory, WebhookStore } from './ports';

export interface PresenceDeps {
  store: Pick<WebhookStore, 'listWatching'>;
  deliveries: Pick<DeliveryStore, 'presenceOf' | 'setPresence'>;
  targets: Pick<TargetDirectory, 'devicesOf' | 'lastSeen'>;
  outbox: Pick<WebhookOutbox, 'append' | 'wake'>;
  log: Log;
}

/**
 * device.online and device.offline from the devices' last-seen times (docs/integrations.md, "Presence"), not from the
 * alerts area's silences, which are each rule's (docs/decisions/096-presence-stays-on-last-seen.md): each run (a minute apart) compares every watched
 * device with what its webhook was last told. A device is online while its newest reading is at most ONLINE_WINDOW_MS old, as its page says.
 * What a webhook first sees of a device is recorded without an event: it is told of changes, not of the state it
 * started in.
 */
export const createPresence = ({ store, deliveries, targets, outbox, log }: PresenceDeps) => ({
  run: async (now: number) => {
    let webhooks = 0;
    let events = 0;
    for await (const page of eachPage((startKey) => store.listWatching({ limit: 50, startKey }))) {
      for (const webhook of page) {
        if (!collects(webhook)) continue;
        const types = webhook.events.filter((type) => type === 'device.online' || type === 'device.offline');
        if (!types.length) continue;
        webhooks += 1;
        try {
          const devices = await targets.devicesOf(webhook.targetKind, webhook.targetId);
          const [seen, told] = await Promise.all([targets.lastSeen(devices), deliveries.presenceOf(webhook.id)]);
          let sent = 0;
          for (const deviceId of devices) {
            const lastSeen = seen.get(deviceId);
            const online = lastSeen !== undefined && now - lastSeen <= ONLINE_WINDOW_MS;
            const before = told.get(deviceId);
            if (before?.online === online) continue;
            const type = online ? 'device.online' : 'device.offline';
            if (before && lastSeen !== undefined && types.includes(type)) {
              // The event is stored before the state: a run that stops between them sends it again (the same id).
              const event: QueuedEvent = presenceEvent(deviceId, online, lastSeen, ONLINE_WINDOW_MS, now);
              await outbox.append(webhook.id, [event]);
              sent += 1;
            }
            await deliveries.setPresence(webhook.id, deviceId, {
              online,
              ...(lastSeen !== undefined ? { lastSeen } : {}),
            });
          }
          if (sent) await outbox.wake(webhook.id);
          events += sent;
        } catch (error) {
          // One webhook's failure (a target gone) does not hold back the others; the next run tries it again.
          log('error', 'Presence check failed', {
            webhookId: webhook.id,
            error: error instanceof Error ? error.message : String(error),
          });
        }
      }
    }
    return { webhooks, events };
  },
});
