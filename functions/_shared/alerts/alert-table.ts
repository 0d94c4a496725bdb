import { DeleteCommand, type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Alert, AlertState } from '../../../shared/contracts/alerts';
import { isConditionFailure, queryPage, updateIf } from '../dynamodb';
import type { PageRead } from '../paging';
import type { AlertRecord } from './alert-model';

/** Every alert is in the `byFeed` index under this, for staff's list of all (alerts are few beside readings). */
const FEED = 'all';

export const toAlert = (item: Record<string, unknown>): AlertRecord => {
  const { feed: _feed, ...rest } = item;
  return { reminders: 0, ...(rest as Omit<AlertRecord, 'reminders'>) } as AlertRecord;
};

/** The API's view of a record: without the version it was projected at. */
export const publicAlert = ({ version: _version, target: _target, ...alert }: AlertRecord): Alert => alert;

export interface AlertFilter {
  state?: AlertState;
  from?: number;
  to?: number;
}

/**
 * The alerts table (docs/alerts.md): each record a projection of a device's alert state, written only over an older
 * version, so a projection done again (an outbox redelivered) or late never takes back a newer one.
 */
export const createAlertTable = ({ db, tableName }: { db: DynamoDBDocumentClient; tableName: string }) => {
  const indexPage = (
    index: 'byDevice' | 'byRule' | 'byFeed',
    key: string,
    value: string,
    filter: AlertFilter,
    page: PageRead,
  ) =>
    // DynamoDB refuses a BETWEEN whose bounds are reversed; such a window (a cursor already past `from`) holds nothing.
    (filter.from ?? 0) > (filter.to ?? Number.MAX_SAFE_INTEGER)
      ? Promise.resolve({ items: [] as AlertRecord[] })
      : queryPage(
          db,
          {
            TableName: tableName,
            IndexName: index,
            KeyConditionExpression: `#key = :key AND startedAt BETWEEN :from AND :to`,
            ...(filter.state ? { FilterExpression: '#state = :state' } : {}),
            ExpressionAttributeNames: { '#key': key, ...(filter.state ? { '#state': 'state' } : {}) },
            ExpressionAttributeValues: {
              ':key': value,
              ':from': filter.from ?? 0,
              ':to': filter.to ?? Number.MAX_SAFE_INTEGER,
              ...(filter.state ? { ':state': filter.state } : {}),
            },
            ScanIndexForward: false,
          },
          page,
          toAlert,
        );

  return {
    get: async (id: string): Promise<AlertRecord | undefined> => {
      const item = (await db.send(new GetCommand({ TableName: tableName, Key: { id }, ConsistentRead: true }))).Item;
      return item ? toAlert(item) : undefined;
    },

    /** Writes the record's fields over an older version (or none). @returns false when a newer one is there */
    project: async (record: AlertRecord): Promise<boolean> => {
      // A field the record leaves out is left as it is: an acknowledgement written to the record itself stays.
      const fields = Object.entries({ ...record, feed: FEED }).filter(
        ([name, value]) => name !== 'id' && value !== undefined,
      );
      const removed = (['firedAt', 'resolvedAt', 'resolvedValue'] as const).filter(
        (name) => record[name] === undefined,
      );
      const result = await updateIf(db, {
        TableName: tableName,
        Key: { id: record.id },
        UpdateExpression:
          `SET ${fields.map((_, i) => `#f${i} = :f${i}`).join(', ')}` +
          (removed.length ? ` REMOVE ${removed.map((_, i) => `#r${i}`).join(', ')}` : ''),
        ConditionExpression: 'attribute_not_exists(id) OR version < :version',
        ExpressionAttributeNames: {
          ...Object.fromEntries(fields.map(([name], i) => [`#f${i}`, name])),
          ...Object.fromEntries(removed.map((name, i) => [`#r${i}`, name])),
        },
        ExpressionAttributeValues: {
          ...Object.fromEntries(fields.map(([, value], i) => [`:f${i}`, value])),
          ':version': record.version,
        },
      });
      return result !== undefined;
    },

    /** A pending alert that never fired goes; one that fired stays whatever asks. */
    remove: async (id: string): Promise<void> => {
      try {
        await db.send(
          new DeleteCommand({
            TableName: tableName,
            Key: { id },
            ConditionExpression: 'attribute_not_exists(firedAt)',
          }),
        );
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    },

    /** The alert of a rule that went: resolved at `at`, if it still says otherwise. */
    close: async (id: string, at: number): Promise<void> => {
      await updateIf(db, {
        TableName: tableName,
        Key: { id },
        UpdateExpression: 'SET #state = :resolved, resolvedAt = :at, updated = :at',
        ConditionExpression: 'attribute_exists(id) AND #state <> :resolved',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':resolved': 'resolved', ':at': at },
      });
    },

    /**
     * A person acknowledges an alert no device state holds open any more (resolved): once, the first one kept.
     * @returns the record as it is after
     */
    acknowledge: async (id: string, userId: string, at: number): Promise<AlertRecord | undefined> => {
      const changed = await updateIf(db, {
        TableName: tableName,
        Key: { id },
        UpdateExpression: 'SET acknowledgedBy = :by, acknowledgedAt = :at',
        ConditionExpression: 'attribute_exists(id) AND attribute_not_exists(acknowledgedAt)',
        ExpressionAttributeValues: { ':by': userId, ':at': at },
        ReturnValues: 'ALL_NEW',
      });
      if (changed) return toAlert(changed);
      const item = (await db.send(new GetCommand({ TableName: tableName, Key: { id }, ConsistentRead: true }))).Item;
      return item ? toAlert(item) : undefined;
    },

    /** A device's alerts, newest first. */
    byDevice: (deviceId: string, filter: AlertFilter, page: PageRead) =>
      indexPage('byDevice', 'deviceId', deviceId, filter, page),

    /** A rule's alerts, newest first. */
    byRule: (ruleId: string, filter: AlertFilter, page: PageRead) =>
      indexPage('byRule', 'ruleId', ruleId, filter, page),

    /** Every alert, newest first (staff). */
    all: (filter: AlertFilter, page: PageRead) => indexPage('byFeed', 'feed', FEED, filter, page),
  };
};

export type AlertTable = ReturnType<typeof createAlertTable>;
