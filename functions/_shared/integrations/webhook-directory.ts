import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DeliveredEventType } from '../../../shared/contracts/webhook-events';
import { queryPage } from '../dynamodb';
import type { RelationTable } from '../relations/relation-table';
import { collects, targetKey, type WebhookSubscription, watchesPresence } from './webhook-records';

/** The most webhooks one target may hold (the use case refuses more), so one page of its index holds them all. */
export const MAX_WEBHOOKS_PER_TARGET = 20;

/**
 * How long an instance trusts what it read of a device's campaigns and organization: a device added to a campaign
 * reaches that campaign's webhooks at most this much later. The webhooks themselves are read on every publish (one
 * index read per target), so a webhook added, changed or turned off counts at once.
 */
export const DEVICE_GROUPS_TTL_MS = 60_000;

/**
 * Which webhooks an event of a device goes to: the device's own, its campaigns' and its organization's (the relations
 * `campaign-device` and `organization-device`), those that collect events and subscribe to the type.
 */
export const createWebhookDirectory = ({
  db,
  webhooksTable,
  relations,
  now,
  groupsTtlMs = DEVICE_GROUPS_TTL_MS,
}: {
  db: DynamoDBDocumentClient;
  webhooksTable: string;
  relations: Pick<RelationTable, 'queryAll'>;
  now: () => number;
  groupsTtlMs?: number;
}) => {
  const groups = new Map<string, { keys: string[]; readAt: number }>();

  const targetsOf = async (deviceId: string): Promise<string[]> => {
    const cached = groups.get(deviceId);
    if (cached && now() - cached.readAt < groupsTtlMs) return cached.keys;
    const held = await relations.queryAll('referent', deviceId, ['campaign-device', 'organization-device']);
    const keys = [
      targetKey('device', deviceId),
      ...held.map((relation) =>
        targetKey(relation.type === 'campaign-device' ? 'campaign' : 'organization', relation.referrerId),
      ),
    ];
    // An instance sees a bounded set of devices; a long-lived one should not grow without end.
    if (groups.size > 10_000) groups.clear();
    groups.set(deviceId, { keys, readAt: now() });
    return keys;
  };

  const webhooksOf = async (target: string): Promise<WebhookSubscription[]> =>
    (
      await queryPage<WebhookSubscription>(
        db,
        {
          TableName: webhooksTable,
          IndexName: 'byTarget',
          KeyConditionExpression: '#target = :target',
          ProjectionExpression: 'id, events, #status, disabledReason',
          ExpressionAttributeNames: { '#target': 'target', '#status': 'status' },
          ExpressionAttributeValues: { ':target': target },
        },
        { limit: MAX_WEBHOOKS_PER_TARGET + 5 },
      )
    ).items;

  return {
    /**
     * Whether a webhook of these targets collects device.online or device.offline now: the alerts area's rule caches
     * ask on a miss, and watch the device's presence while one does (decision 105).
     */
    watchesPresence: async (targets: readonly { kind: string; id: string }[]): Promise<boolean> => {
      const found = await Promise.all(targets.map((target) => webhooksOf(targetKey(target.kind, target.id))));
      return found.flat().some(watchesPresence);
    },
    /** The ids of the webhooks that take this type of event of this device now. */
    subscribers: async (deviceId: string, type: DeliveredEventType): Promise<string[]> => {
      const targets = await targetsOf(deviceId);
      const found = await Promise.all(targets.map(webhooksOf));
      return [
        ...new Set(
          found
            .flat()
            .filter((webhook) => collects(webhook) && (webhook.events as readonly string[]).includes(type))
            .map((webhook) => webhook.id),
        ),
      ];
    },
  };
};

export type WebhookDirectory = ReturnType<typeof createWebhookDirectory>;
