import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { updateIf } from './dynamodb';

/** A counter outlives its hour by one more, then the table's TTL (`expiresAt`, seconds) removes it. */
const KEPT_SECONDS = 2 * 3600;

/**
 * An hourly use counter as an item of a table keyed `id` (the table's own records beside it): `{ id, count,
 * expiresAt }`, one item per subject and hour, raised by one conditional ADD so concurrent uses never pass the limit.
 * `kind` names the counted action in the id: `{kind}#{subject}#{hourStart}`.
 */
export const createHourlyCounter =
  ({ db, tableName, kind }: { db: DynamoDBDocumentClient; tableName: string; kind: string }) =>
  async (subject: string, hourStart: number, limit: number): Promise<boolean> =>
    (await updateIf(db, {
      TableName: tableName,
      Key: { id: `${kind}#${subject}#${hourStart}` },
      UpdateExpression: 'ADD #count :one SET expiresAt = :exp',
      ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':exp': Math.ceil(hourStart / 1000) + KEPT_SECONDS },
    })) !== undefined;
