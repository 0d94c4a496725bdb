import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { AuthEvent } from '../../../shared/contracts/users';
import { MESSAGES } from '../../../shared/messages';
import { decodeCursor, encodeCursor } from '../../_shared/cursor';
import { batchWriteAll, queryPage } from '../../_shared/dynamodb';
import { BadRequest } from '../../_shared/errors';
import { eachPage, readFrom } from '../../_shared/paging';
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
          queryPage(
            db,
            {
              TableName: tableName,
              KeyConditionExpression: 'userId = :user',
              ExpressionAttributeValues: { ':user': userId },
              ScanIndexForward: false,
            },
            { limit: max, startKey },
            toEvent,
          ),
        decoded ? { userId, eventKey: decoded.eventKey } : undefined,
        limit,
      );
      const last = result.lastKey;
      return { items: result.items, nextCursor: last ? encodeCursor({ eventKey: last.eventKey }) : undefined };
    },

    removeAll: async (userId: string): Promise<void> => {
      // Page by page: a long history is never held whole.
      const keys = eachPage((startKey) =>
        queryPage(
          db,
          {
            TableName: tableName,
            KeyConditionExpression: 'userId = :user',
            ExpressionAttributeValues: { ':user': userId },
            ProjectionExpression: 'userId, eventKey',
          },
          { startKey },
        ),
      );
      for await (const page of keys) await deleteAll(page);
    },
  };
};
