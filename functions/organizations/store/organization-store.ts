import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { Organization } from '../../../shared/contracts/organizations';
import { batchGetAll, isConditionFailure, putIf } from '../../_shared/dynamodb';

/** An organization as stored: the logo's read URL is made per response, never kept. */
export type StoredOrganization = Omit<Organization, 'logoUrl'>;

type Key = Record<string, unknown>;

/** The organizations table (one item per organization, keyed by id). */
export const createOrganizationStore = ({ db, tableName }: { db: DynamoDBDocumentClient; tableName: string }) => ({
  get: async (id: string): Promise<StoredOrganization | undefined> =>
    (await db.send(new GetCommand({ TableName: tableName, Key: { id }, ConsistentRead: true }))).Item as
      | StoredOrganization
      | undefined,

  /** Consistent reads by id, in no particular order; ids without an item are left out. */
  getMany: (ids: readonly string[]): Promise<StoredOrganization[]> =>
    batchGetAll<StoredOrganization>(
      db,
      tableName,
      [...new Set(ids)].map((id) => ({ id })),
    ),

  /** @returns false when the id is taken */
  create: (organization: StoredOrganization): Promise<boolean> =>
    putIf(db, { TableName: tableName, Item: organization, ConditionExpression: 'attribute_not_exists(id)' }),

  /**
   * Replaces the item only if it is still the version that was read (its `updated`), so two concurrent
   * changes cannot silently overwrite each other. @returns false when it changed or disappeared meanwhile
   */
  save: (organization: StoredOrganization, readVersion: number): Promise<boolean> =>
    putIf(db, {
      TableName: tableName,
      Item: organization,
      ConditionExpression: 'attribute_exists(id) AND #updated = :read',
      ExpressionAttributeNames: { '#updated': 'updated' },
      ExpressionAttributeValues: { ':read': readVersion },
    }),

  /** @returns false when there was nothing to delete */
  remove: async (id: string): Promise<boolean> => {
    try {
      await db.send(
        new DeleteCommand({ TableName: tableName, Key: { id }, ConditionExpression: 'attribute_exists(id)' }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },

  /** Every organization, a page at a time: admin tooling only (a Scan). */
  scan: async (startKey: Key | undefined, limit: number) => {
    const result = await db.send(
      new ScanCommand({ TableName: tableName, Limit: limit, ExclusiveStartKey: startKey, ConsistentRead: true }),
    );
    return { items: (result.Items ?? []) as StoredOrganization[], lastKey: result.LastEvaluatedKey };
  },
});

export type OrganizationStore = ReturnType<typeof createOrganizationStore>;
