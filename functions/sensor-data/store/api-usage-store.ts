import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { QuotaThreshold, QuotaWarning } from '../../../shared/contracts/sensor-data-api-keys';
import { isConditionFailure } from '../../_shared/dynamodb';
import type { ApiUsageStore, CountResult, DeviceMonth } from '../domain/ports';

/**
 * The API usage table (API_USAGE_TABLE). A meter's month is one item, `pk` = `{meter}#{YYYY-MM}`, the meter being a
 * device id or `public#{ownerId}` (a person's allowance for other people's public devices): the count, the key owners
 * who called (so each owner's month can list the devices), and one attribute per recorded quota warning
 * (`warning70`, `warning90`, `warning100`, each `{used, at}`). A person's month is the item
 * `owner#{ownerId}#{YYYY-MM}` with the devices they called. Items expire a year after their month.
 */

const warningAttribute = (threshold: QuotaThreshold) => `warning${threshold}`;

const warningsOf = (item: Record<string, unknown> | undefined): QuotaWarning[] =>
  ([70, 90, 100] as const)
    .map((threshold) => {
      const stored = item?.[warningAttribute(threshold)] as { used: number; at: number } | undefined;
      return stored ? { threshold, used: stored.used, at: stored.at } : undefined;
    })
    .filter((warning): warning is QuotaWarning => warning !== undefined);

const meterPk = (meter: string, month: string) => `${meter}#${month}`;
const ownerPk = (ownerId: string, month: string) => `owner#${ownerId}#${month}`;

export const createApiUsageStore = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): ApiUsageStore => ({
  count: async (input: {
    meter: string;
    month: string;
    ownerId: string;
    limit: number;
    expiresAt: number;
  }): Promise<CountResult> => {
    try {
      const { Attributes } = await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { pk: meterPk(input.meter, input.month) },
          UpdateExpression: 'ADD #count :one, keyOwners :owner SET meter = :meter, #month = :month, expiresAt = :exp',
          ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
          ExpressionAttributeNames: { '#count': 'count', '#month': 'month' },
          ExpressionAttributeValues: {
            ':one': 1,
            ':owner': new Set([input.ownerId]),
            ':meter': input.meter,
            ':month': input.month,
            ':exp': input.expiresAt,
            ':limit': input.limit,
          },
          ReturnValues: 'ALL_OLD',
        }),
      );
      const owners = Attributes?.keyOwners as Set<string> | undefined;
      return {
        counted: true,
        used: ((Attributes?.count as number | undefined) ?? 0) + 1,
        recorded: warningsOf(Attributes).map((w) => w.threshold),
        newOwner: !owners?.has(input.ownerId),
      };
    } catch (error) {
      if (isConditionFailure(error)) return { counted: false };
      throw error;
    }
  },

  recordWarning: async (meter: string, month: string, warning: QuotaWarning): Promise<boolean> => {
    const name = warningAttribute(warning.threshold);
    try {
      await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { pk: meterPk(meter, month) },
          UpdateExpression: 'SET #w = :w',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#w)',
          ExpressionAttributeNames: { '#w': name },
          ExpressionAttributeValues: { ':w': { used: warning.used, at: warning.at } },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },

  forgetWarning: async (meter: string, month: string, threshold: QuotaThreshold): Promise<void> => {
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { pk: meterPk(meter, month) },
        UpdateExpression: 'REMOVE #w',
        ExpressionAttributeNames: { '#w': warningAttribute(threshold) },
      }),
    );
  },

  meterMonth: async (meter: string, month: string): Promise<DeviceMonth> => {
    const { Item } = await db.send(
      new GetCommand({ TableName: tableName, Key: { pk: meterPk(meter, month) }, ConsistentRead: true }),
    );
    return { used: (Item?.count as number | undefined) ?? 0, warnings: warningsOf(Item) };
  },

  addOwnerDevice: async (ownerId: string, month: string, deviceId: string, expiresAt: number): Promise<void> => {
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { pk: ownerPk(ownerId, month) },
        UpdateExpression: 'ADD deviceIds :device SET ownerId = :ownerId, #month = :month, expiresAt = :exp',
        ExpressionAttributeNames: { '#month': 'month' },
        ExpressionAttributeValues: {
          ':device': new Set([deviceId]),
          ':ownerId': ownerId,
          ':month': month,
          ':exp': expiresAt,
        },
      }),
    );
  },

  ownerDevices: async (ownerId: string, month: string): Promise<string[]> => {
    const { Item } = await db.send(
      new GetCommand({ TableName: tableName, Key: { pk: ownerPk(ownerId, month) }, ConsistentRead: true }),
    );
    return [...((Item?.deviceIds as Set<string> | undefined) ?? [])].sort();
  },
});
