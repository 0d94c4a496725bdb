import { type DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { AuthEvent } from '../../../shared/contracts/users';
import { MESSAGES } from '../../../shared/messages';
import { decodeCursor, encodeCursor } from '../../_shared/cursor';
import { batchWriteAll } from '../../_shared/dynamodb';
import { BadRequest } from '../../_shared/errors';
import { readFrom } from '../../_shared/paging';
import type { AuthEventStore, UserAuthEvent } from '../domain/ports';

/** Sorts by time as a string (zero-padded epoch ms), then id: newest first is a reverse Query. */
export const authEventKey = (time: number, id: string) => `${String(time).padStart(15, '0')}#${id}`;

const toEvent = (item: Record<string, unknown>): AuthEvent => {
  const { userId: _u, eventKey: _k, ...event } = item;
  return event as AuthEvent;
};

/** The auth-events table (pk userId, sk eventKey): the sign-in history the platform records itself. */
export const createAuthEventStore = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): AuthEventStore => {
  const keysOf = async (userId: string, startKey?: Record<string, unknown>) =>
    db.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'userId = :user',
        ExpressionAttributeValues: { ':user': userId },
        ProjectionExpression: 'userId, eventKey',
        ExclusiveStartKey: startKey,
      }),
    );

  const deleteAll = (keys: Record<string, unknown>[]) =>
    batchWriteAll(
      db,
      tableName,
      keys.map((Key) => ({ DeleteRequest: { Key } })),
      { concurrency: 1 },
    );

  return {
    record: async ({ userId, ...event }: UserAuthEvent): Promise<void> => {
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: { userId, eventKey: authEventKey(event.time, event.id), ...event },
        }),
      );
    },

    list: async (
      userId: string,
      { limit, cursor }: { limit: number; cursor?: string },
    ): Promise<{ items: AuthEvent[]; nextCursor?: string }> => {
      const decoded = decodeCursor(cursor);
      if (decoded && typeof decoded.eventKey !== 'string') throw new BadRequest(MESSAGES.invalidCursor);
      const result = await readFrom(
        (startKey, max) =>
          db.send(
            new QueryCommand({
              TableName: tableName,
              KeyConditionExpression: 'userId = :user',
              ExpressionAttributeValues: { ':user': userId },
              ScanIndexForward: false,
              ExclusiveStartKey: startKey,
              Limit: max,
            }),
          ),
        decoded ? { userId, eventKey: decoded.eventKey } : undefined,
        limit,
      );
      const last = result.LastEvaluatedKey;
      return {
        items: (result.Items ?? []).map(toEvent),
        nextCursor: last ? encodeCursor({ eventKey: last.eventKey }) : undefined,
      };
    },

    removeAll: async (userId: string): Promise<void> => {
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await keysOf(userId, startKey);
        await deleteAll(page.Items ?? []);
        startKey = page.LastEvaluatedKey;
      } while (startKey);
    },
  };
};
