import { type DynamoDBDocumentClient, GetCommand, type QueryCommandInput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { PRODUCT_LINES, type ProductLine } from '../../../shared/contracts/devices';
import { batchGetAll, isConditionFailure, putIf, queryPage } from '../../_shared/dynamodb';
import type { StoredDevice } from '../domain/device-model';
import type { DeviceChanges, DeviceFilter, DeviceStore } from '../domain/ports';

type Key = Record<string, unknown>;

const FILTERS: Record<DeviceFilter, Pick<QueryCommandInput, 'FilterExpression'> & { values: Key; names: Key }> = {
  located: { FilterExpression: 'attribute_exists(#location)', names: { '#location': 'location' }, values: {} },
  publicMapped: {
    FilterExpression:
      'attribute_exists(#location) AND #visibility = :public AND #privacy <> :hidden AND #state <> :retired',
    names: {
      '#location': 'location',
      '#visibility': 'dataVisibility',
      '#privacy': 'locationPrivacy',
      '#state': 'state',
    },
    values: { ':public': 'public', ':hidden': 'hidden', ':retired': 'retired' },
  },
};

/** A filtered read looks at this many rows at least, so a sparse match does not cost a round trip per row. */
const FILTERED_READ = 200;

const fromItem = (item: Record<string, unknown>): StoredDevice => item as unknown as StoredDevice;

/** The devices table (docs/devices.md). Every state change is a conditional write: no transactions needed. */
export const createDeviceStore = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): DeviceStore => {
  const update = async (
    id: string,
    set: Record<string, unknown>,
    condition?: string,
    values: Key = {},
    remove: string[] = [],
  ): Promise<StoredDevice | undefined> => {
    const exprValues: Key = { ...values };
    const sets = Object.entries(set).map(([field, value]) => {
      exprValues[`:${field}`] = value;
      return `#${field} = :${field}`;
    });
    const updateExpression = [
      sets.length ? `SET ${sets.join(', ')}` : '',
      remove.length ? `REMOVE ${remove.map((f) => `#${f}`).join(', ')}` : '',
    ]
      .filter(Boolean)
      .join(' ');
    const conditionExpression = `attribute_exists(id)${condition ? ` AND ${condition}` : ''}`;
    // Every alias is `#field` for the field of that name; DynamoDB refuses an alias the expressions do not use.
    const names = Object.fromEntries(
      [...`${updateExpression} ${conditionExpression}`.matchAll(/#(\w+)/g)].map((m) => [`#${m[1]}`, m[1]!]),
    );
    try {
      const result = await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { id },
          UpdateExpression: updateExpression,
          ConditionExpression: conditionExpression,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: exprValues,
          ReturnValues: 'ALL_NEW',
        }),
      );
      return fromItem(result.Attributes ?? {});
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  };

  /**
   * One page of one product line, newest first. With a filter, reads at least FILTERED_READ rows and, when more
   * match than asked for, continues after the last one returned (the index key is in every row).
   */
  const queryProductLine = async (
    productLine: ProductLine,
    { limit, startKey, filter }: { limit: number; startKey?: Key; filter?: DeviceFilter },
  ): Promise<{ items: StoredDevice[]; lastKey?: Key }> => {
    const f = filter ? FILTERS[filter] : undefined;
    const { items, lastKey } = await queryPage(
      db,
      {
        TableName: tableName,
        IndexName: 'byProductLine',
        KeyConditionExpression: '#productLine = :productLine',
        ...(f ? { FilterExpression: f.FilterExpression } : {}),
        ExpressionAttributeNames: { '#productLine': 'productLine', ...(f?.names ?? {}) },
        ExpressionAttributeValues: { ':productLine': productLine, ...(f?.values ?? {}) },
        ScanIndexForward: false,
      },
      { limit: f ? Math.max(limit, FILTERED_READ) : limit, startKey },
      fromItem,
    );
    if (items.length > limit) {
      const last = items[limit - 1]!;
      return {
        items: items.slice(0, limit),
        lastKey: { id: last.id, productLine: last.productLine, created: last.created },
      };
    }
    return { items, lastKey };
  };

  return {
    create: (device: StoredDevice): Promise<boolean> =>
      putIf(db, { TableName: tableName, Item: device, ConditionExpression: 'attribute_not_exists(id)' }),

    get: async (id: string): Promise<StoredDevice | undefined> => {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: { id }, ConsistentRead: true }));
      return Item ? fromItem(Item) : undefined;
    },

    getMany: async (ids: readonly string[]): Promise<StoredDevice[]> =>
      (await batchGetAll(db, tableName, ids)).map(fromItem),

    claim: (id: string, ownerId: string, at: number) =>
      update(
        id,
        { ownerId, state: 'active', claimed: at, updated: at },
        'attribute_not_exists(#ownerId) AND #state = :provisioned',
        { ':provisioned': 'provisioned' },
      ),

    unclaim: (id: string, ownerId: string, at: number) =>
      update(id, { state: 'provisioned', updated: at }, '#ownerId = :owner', { ':owner': ownerId }, [
        'ownerId',
        'claimed',
      ]),

    setOwner: (id: string, from: string, to: string, at: number) =>
      update(id, { ownerId: to, updated: at }, '#ownerId = :from', { ':from': from }),

    change: (id: string, changes: DeviceChanges, at: number, allowRetired: boolean) => {
      const set: Record<string, unknown> = { updated: at };
      const remove: string[] = [];
      for (const [field, value] of Object.entries(changes)) {
        if (value === undefined) continue;
        if (value === null) remove.push(field);
        else set[field] = value;
      }
      return allowRetired
        ? update(id, set, undefined, {}, remove)
        : update(id, set, '#state <> :retired', { ':retired': 'retired' }, remove);
    },

    retire: (id: string, at: number) =>
      update(id, { state: 'retired', retired: at, updated: at }, '#state <> :retired', { ':retired': 'retired' }),

    queryProductLine,

    productLines: PRODUCT_LINES,
  };
};
