import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dayOf } from '../../_shared/sensor-data/readings-store';
import type { IngestCount, IngestStatsStore } from '../domain/ports';

/**
 * The ingest stats table: per device and UTC day of arrival, how many readings were stored and how many refused
 * by reason. One UpdateItem ADD per batch, so concurrent batches never lose a count.
 */
export const createIngestStatsStore = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): IngestStatsStore => ({
  add: async (deviceId: string, counts: Partial<Record<IngestCount, number>>, at: number): Promise<void> => {
    const entries = Object.entries(counts).filter(([, n]) => n && n > 0);
    if (entries.length === 0) return;
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { deviceId, day: dayOf(at) },
        UpdateExpression: `SET updated = :at ADD ${entries.map((_, i) => `#c${i} :c${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#c${i}`, name])),
        ExpressionAttributeValues: {
          ':at': at,
          ...Object.fromEntries(entries.map(([, n], i) => [`:c${i}`, n])),
        },
      }),
    );
  },
});
