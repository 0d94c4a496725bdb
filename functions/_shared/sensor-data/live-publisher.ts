import { type IoTDataPlaneClient, PublishCommand } from '@aws-sdk/client-iot-data-plane';
import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { iotServiceError } from '../../../shared/iot/iot-errors';
import { log } from '../logger';
import type { StoredReading } from './readings-store';

/** What a live message carries to a watcher's topic. */
export interface LiveMessage {
  deviceId: string;
  readings: StoredReading[];
}

/** One watch: a realtime identity the API has checked, the topic it reads, and until when (s since the epoch). */
export interface LiveWatch {
  deviceId: string;
  watcher: string;
  topic: string;
  expiresAt: number;
}

/**
 * Sends a device's new readings to everyone watching it live: to each current watch's own topic (the API
 * checked the watcher's access when it registered the watch). Best effort: the readings are stored already,
 * so a failed publish is logged, never thrown.
 */
export const createLivePublisher = ({
  db,
  tableName,
  iot,
  now = Date.now,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
  iot: IoTDataPlaneClient;
  now?: () => number;
}) => ({
  publish: async (deviceId: string, readings: readonly StoredReading[]): Promise<number> => {
    if (readings.length === 0) return 0;
    try {
      const { Items = [] } = await db.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'deviceId = :device',
          // DynamoDB's TTL deletes late (and the local emulator never): expired watches are skipped here.
          FilterExpression: 'expiresAt > :now',
          ExpressionAttributeValues: { ':device': deviceId, ':now': Math.floor(now() / 1000) },
        }),
      );
      const latest = [...readings].sort((a, b) => a.timestamp - b.timestamp).slice(-50);
      const payload = Buffer.from(JSON.stringify({ deviceId, readings: latest } satisfies LiveMessage));
      const results = await Promise.allSettled(
        (Items as LiveWatch[]).map((watch) => iot.send(new PublishCommand({ topic: watch.topic, qos: 0, payload }))),
      );
      const failed = results.filter((r) => r.status === 'rejected');
      if (failed.length) {
        log('warn', 'Live publish failed for some watchers', {
          deviceId,
          failed: failed.length,
          // The service's own code (spec §8), e.g. ThrottlingException, for what to do about it.
          code: iotServiceError((failed[0] as PromiseRejectedResult).reason).code,
          error: String((failed[0] as PromiseRejectedResult).reason),
        });
      }
      return results.length - failed.length;
    } catch (error) {
      log('warn', 'Live publish failed', { deviceId, error: error instanceof Error ? error.message : String(error) });
      return 0;
    }
  },
});

export type LivePublisher = ReturnType<typeof createLivePublisher>;
