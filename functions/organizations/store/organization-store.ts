import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { LOGO_CONTENT_TYPES, type LogoContentType } from '../../../shared/contracts/organizations';
import { batchGetAll, deleteIfExists, putIf, scanPage } from '../../_shared/dynamodb';
import type { OrganizationStore, StoredOrganization } from '../domain/ports';

type Key = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const millis = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;

const toLogo = (value: unknown): StoredOrganization['logo'] => {
  if (!value || typeof value !== 'object') return undefined;
  const { key, contentType, size, updated } = value as Record<string, unknown>;
  if (typeof key !== 'string' || !LOGO_CONTENT_TYPES.some((type) => type === contentType)) return undefined;
  return { key, contentType: contentType as LogoContentType, size: millis(size) ?? 0, updated: millis(updated) ?? 0 };
};

/**
 * A stored row as the contract's organization. Rows written outside this area (test set-ups, demo data, a
 * future migration) may lack fields: a missing time reads as 0 (`updated` as `created`), an unknown creator as
 * '', so a partial row is listed rather than breaking a whole page.
 */
export const toOrganization = (item: Record<string, unknown>): StoredOrganization => {
  const created = millis(item.created) ?? 0;
  const logo = toLogo(item.logo);
  const optional = (name: 'description' | 'website' | 'contactEmail') => {
    const value = text(item[name]);
    return value === undefined ? {} : { [name]: value };
  };
  return {
    id: String(item.id),
    name: text(item.name) ?? String(item.id),
    ...optional('description'),
    ...optional('website'),
    ...optional('contactEmail'),
    ...(logo ? { logo } : {}),
    created,
    createdBy: text(item.createdBy) ?? '',
    updated: millis(item.updated) ?? created,
  };
};

/** The organizations table (one item per organization, keyed by id). */
export const createOrganizationStore = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): OrganizationStore => ({
  get: async (id: string): Promise<StoredOrganization | undefined> => {
    const item = (await db.send(new GetCommand({ TableName: tableName, Key: { id }, ConsistentRead: true }))).Item;
    return item ? toOrganization(item) : undefined;
  },

  getMany: async (ids: readonly string[]): Promise<StoredOrganization[]> =>
    (await batchGetAll(db, tableName, ids)).map(toOrganization),

  create: (organization: StoredOrganization): Promise<boolean> =>
    putIf(db, { TableName: tableName, Item: organization, ConditionExpression: 'attribute_not_exists(id)' }),

  save: (organization: StoredOrganization, readVersion: number): Promise<boolean> =>
    putIf(db, {
      TableName: tableName,
      Item: organization,
      // A row written without `updated` reads as version `created` (toOrganization).
      ConditionExpression: 'attribute_exists(id) AND (#updated = :read OR attribute_not_exists(#updated))',
      ExpressionAttributeNames: { '#updated': 'updated' },
      ExpressionAttributeValues: { ':read': readVersion },
    }),

  remove: (id: string): Promise<boolean> => deleteIfExists(db, tableName, id),

  scan: (startKey: Key | undefined, limit: number) =>
    scanPage(db, { TableName: tableName, ConsistentRead: true }, { limit, startKey }, toOrganization),
});
