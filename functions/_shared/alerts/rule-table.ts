import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { AlertCondition, AlertTarget, Recipient, TargetKind } from '../../../shared/contracts/alerts';
import { putIf, queryPage, removeIfExists, scanPage } from '../dynamodb';
import { type PageRead, readAll } from '../paging';
import type { StoredRule } from './alert-model';

/** A target as the `byTarget` index keys it. */
export const targetKey = (target: AlertTarget): string => `${target.kind}#${target.id}`;

const toItem = (rule: StoredRule) => ({
  ...rule,
  target: targetKey(rule.target),
  targetKind: rule.target.kind,
  targetId: rule.target.id,
});

const toRule = (item: Record<string, unknown>): StoredRule => ({
  id: String(item.id),
  name: String(item.name ?? ''),
  target: { kind: item.targetKind as TargetKind, id: String(item.targetId) },
  condition: item.condition as AlertCondition,
  recipients: (item.recipients as Recipient[] | undefined) ?? [],
  ...(typeof item.remindEverySeconds === 'number' ? { remindEverySeconds: item.remindEverySeconds } : {}),
  enabled: item.enabled !== false,
  createdBy: String(item.createdBy ?? ''),
  created: Number(item.created ?? 0),
  updated: Number(item.updated ?? 0),
});

/**
 * The alert rules table (docs/alerts.md): the alerts area writes it; the evaluation at ingest and the sweep read a
 * device's rules through it (by its own, its campaigns' and its organization's targets).
 */
export const createRuleTable = ({ db, tableName }: { db: DynamoDBDocumentClient; tableName: string }) => {
  const targetPage = (target: AlertTarget, page: PageRead) =>
    queryPage(
      db,
      {
        TableName: tableName,
        IndexName: 'byTarget',
        KeyConditionExpression: '#target = :target',
        ExpressionAttributeNames: { '#target': 'target' },
        ExpressionAttributeValues: { ':target': targetKey(target) },
        ScanIndexForward: false,
      },
      page,
      toRule,
    );

  return {
    get: async (id: string): Promise<StoredRule | undefined> => {
      const item = (await db.send(new GetCommand({ TableName: tableName, Key: { id }, ConsistentRead: true }))).Item;
      return item ? toRule(item) : undefined;
    },

    /** @returns false when the id is taken */
    create: (rule: StoredRule): Promise<boolean> =>
      putIf(db, { TableName: tableName, Item: toItem(rule), ConditionExpression: 'attribute_not_exists(id)' }),

    /** Writes the whole rule if nobody changed it since `expectedUpdated`. @returns false otherwise */
    replace: (rule: StoredRule, expectedUpdated: number): Promise<boolean> =>
      putIf(db, {
        TableName: tableName,
        Item: toItem(rule),
        ConditionExpression: 'attribute_exists(id) AND updated = :expected',
        ExpressionAttributeValues: { ':expected': expectedUpdated },
      }),

    /** @returns the removed rule, or undefined when there was none */
    remove: async (id: string): Promise<StoredRule | undefined> => {
      const old = await removeIfExists(db, tableName, id);
      return old ? toRule(old) : undefined;
    },

    /** A target's rules, newest first. */
    byTarget: targetPage,

    /** Every enabled rule of these targets (a device's own, its campaigns' and its organization's). */
    enabledOf: async (targets: readonly AlertTarget[]): Promise<StoredRule[]> => {
      const all = await Promise.all(
        targets.map((target) => readAll((startKey) => targetPage(target, { limit: 100, startKey }))),
      );
      return all.flat().filter((rule) => rule.enabled);
    },

    /** The rules a person made, newest first. */
    byCreator: (userId: string, page: PageRead) =>
      queryPage(
        db,
        {
          TableName: tableName,
          IndexName: 'byCreator',
          KeyConditionExpression: 'createdBy = :by',
          ExpressionAttributeValues: { ':by': userId },
          ScanIndexForward: false,
        },
        page,
        toRule,
      ),

    /** Every rule, for staff (admin tooling may scan, paged). */
    listAll: (page: PageRead) => scanPage(db, { TableName: tableName }, page, toRule),
  };
};

export type RuleTable = ReturnType<typeof createRuleTable>;
