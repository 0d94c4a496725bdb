import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { DAY_MS } from '../../../shared/alerts/alert-rules';
import type { PlanFacts } from '../../_shared/alerts/evaluation';
import { queryPage } from '../../_shared/dynamodb';
import { dayOf } from '../../_shared/sensor-data/readings-store';
import { medianGap } from '../domain/batch-interval';
import type { SweepSources } from '../domain/ports';

/** Batches a device's interval is learned from: its latest, from today's and yesterday's readings. */
const BATCHES = 48;

/**
 * What the sweep reads beyond the alert state: a device's recent batches (the readings table's items are one per
 * batch and hour, keyed by their first reading's time: decision 044) and its plan (billing's subscription record).
 */
export const createSweepSources = ({
  db,
  readingsTable,
  subscriptionsTable,
}: {
  db: DynamoDBDocumentClient;
  readingsTable: string;
  subscriptionsTable: string;
}): SweepSources => ({
  batchInterval: async (deviceId: string, now: number) => {
    const times: number[] = [];
    for (const day of [now, now - DAY_MS]) {
      const page = await queryPage(
        db,
        {
          TableName: readingsTable,
          KeyConditionExpression: 'pk = :pk AND ts <= :now',
          ExpressionAttributeValues: { ':pk': `${deviceId}#${dayOf(day)}`, ':now': now },
          ProjectionExpression: 'ts',
          ScanIndexForward: false,
        },
        { limit: BATCHES - times.length },
      );
      times.push(...page.items.map((item) => Number(item.ts)));
      if (times.length >= BATCHES) break;
    }
    return medianGap(times);
  },

  plan: async (deviceId: string): Promise<PlanFacts | null> => {
    const item = (
      await db.send(new GetCommand({ TableName: subscriptionsTable, Key: { deviceId }, ConsistentRead: true }))
    ).Item;
    if (!item) return null;
    return {
      status: String(item.status ?? ''),
      ...(typeof item.trialEnd === 'number' ? { trialEnd: item.trialEnd } : {}),
      ...(typeof item.currentPeriodEnd === 'number' ? { currentPeriodEnd: item.currentPeriodEnd } : {}),
      ...(typeof item.cancelAtPeriodEnd === 'boolean' ? { cancelAtPeriodEnd: item.cancelAtPeriodEnd } : {}),
    };
  },
});
