import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Relation } from '../../../shared/contracts/relations';
import type { RelationType } from '../../../shared/relations/relation-types';
import { batchGetAll, putIf, queryPage, removeIfExists, scanPage } from '../dynamodb';
import { type PageRead, readAll } from '../paging';
import { type KeyRead, NOTHING_AHEAD, type ReadAhead } from '../read-ahead';

/** Which end of a relation a lookup starts from. */
export type RelationSide = 'referrer' | 'referent';

type Key = Record<string, unknown>;

const INDEX: Record<RelationSide, { name: string; key: string; sort: string }> = {
  referrer: { name: 'byReferrer', key: 'referrerId', sort: 'referrerSort' },
  referent: { name: 'byReferent', key: 'referentId', sort: 'referentSort' },
};

/** The stored row: the relation plus the sort keys of its two indexes, each led by the type. */
export const toItem = (relation: Relation) => ({
  ...relation,
  referrerSort: `${relation.type}#${relation.referentId}`,
  referentSort: `${relation.type}#${relation.referrerId}`,
});

export const toRelation = (item: Record<string, unknown>): Relation => ({
  id: item.id as string,
  type: item.type as RelationType,
  referrerId: item.referrerId as string,
  referentId: item.referentId as string,
  created: typeof item.created === 'number' ? item.created : 0,
  ...(typeof item.createdBy === 'string' ? { createdBy: item.createdBy } : {}),
});

export interface IndexQuery {
  type?: RelationType;
  /** With `type`: only the relation between the two ids. */
  otherId?: string;
  limit: number;
  startKey?: Key;
}

/**
 * The one adapter of the relations table. The relations area writes through it; every other area's
 * access checks read through it (their Lambdas hold read-only grants).
 */
export const createRelationTable = ({ db, tableName }: { db: DynamoDBDocumentClient; tableName: string }) => {
  /** Without a limit, a page ends at DynamoDB's 1 MB (a read of every page). */
  const indexPage = (
    side: RelationSide,
    id: string,
    { type, otherId, limit, startKey }: Omit<IndexQuery, 'limit'> & { limit?: number },
  ) => {
    const index = INDEX[side];
    const sort = type === undefined ? undefined : otherId === undefined ? `${type}#` : `${type}#${otherId}`;
    return queryPage(
      db,
      {
        TableName: tableName,
        IndexName: index.name,
        KeyConditionExpression:
          sort === undefined
            ? '#key = :key'
            : otherId === undefined
              ? '#key = :key AND begins_with(#sort, :sort)'
              : '#key = :key AND #sort = :sort',
        ExpressionAttributeNames: { '#key': index.key, ...(sort === undefined ? {} : { '#sort': index.sort }) },
        ExpressionAttributeValues: { ':key': id, ...(sort === undefined ? {} : { ':sort': sort }) },
      },
      { limit, startKey },
      toRelation,
    );
  };

  const queryIndex = (side: RelationSide, id: string, query: IndexQuery) => indexPage(side, id, query);

  const keyRead = (id: string): KeyRead => ({ table: tableName, key: { id }, consistent: true });

  return {
    keyRead,

    get: async (id: string): Promise<Relation | undefined> => {
      const result = await db.send(new GetCommand({ TableName: tableName, Key: { id }, ConsistentRead: true }));
      return result.Item ? toRelation(result.Item) : undefined;
    },

    /**
     * Consistent reads by id: the authority for access decisions (index reads may lag in DynamoDB). Ids read ahead
     * (keyRead) are taken from there.
     */
    getMany: async (ids: readonly string[], ahead: ReadAhead = NOTHING_AHEAD): Promise<Relation[]> => {
      const left = ids.filter((id) => !ahead.has(keyRead(id)));
      const known = ids
        .map((id) => ahead.item(keyRead(id)))
        .filter((item): item is Record<string, unknown> => item !== undefined);
      const read = left.length ? await batchGetAll<Record<string, unknown>>(db, tableName, left) : [];
      return [...known, ...read].map(toRelation);
    },

    queryIndex,

    /** Every relation of the given types at one end of `id`, through all pages. */
    queryAll: async (side: RelationSide, id: string, types: readonly RelationType[]): Promise<Relation[]> => {
      const all: Relation[] = [];
      for (const type of types) all.push(...(await readAll((startKey) => indexPage(side, id, { type, startKey }))));
      return all;
    },

    /** Every relation at one end of `id`, whatever its type, through all pages (an account's deletion). */
    queryEveryType: (side: RelationSide, id: string): Promise<Relation[]> =>
      readAll((startKey) => indexPage(side, id, { startKey })),

    /** One type's relations, newest first. */
    listByType: (type: RelationType, page: PageRead) =>
      queryPage(
        db,
        {
          TableName: tableName,
          IndexName: 'byType',
          KeyConditionExpression: '#type = :type',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: { ':type': type },
          ScanIndexForward: false,
        },
        page,
        toRelation,
      ),

    /** @returns false when the same (type, referrer, referent) exists */
    create: (relation: Relation): Promise<boolean> =>
      putIf(db, { TableName: tableName, Item: toItem(relation), ConditionExpression: 'attribute_not_exists(id)' }),

    /** Writes the relation whether or not it exists: restores one whose removal had to be undone. */
    put: async (relation: Relation): Promise<void> => {
      await db.send(new PutCommand({ TableName: tableName, Item: toItem(relation) }));
    },

    /** @returns the removed relation, or undefined when there was none */
    remove: async (id: string): Promise<Relation | undefined> => {
      const old = await removeIfExists(db, tableName, id);
      return old ? toRelation(old) : undefined;
    },

    /** Raw rows, for the migration only (admin tooling may scan). */
    scan: (page: PageRead) => scanPage(db, { TableName: tableName, ConsistentRead: true }, page),

    /** Removes a row by its stored id without reading it (a legacy row the migration re-keyed). */
    removeRow: async (id: string): Promise<void> => {
      await db.send(new DeleteCommand({ TableName: tableName, Key: { id } }));
    },
  };
};

export type RelationTable = ReturnType<typeof createRelationTable>;
