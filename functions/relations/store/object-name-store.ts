import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { NamedKind } from '../../../shared/contracts/relations';
import { batchGetKeys } from '../../_shared/dynamodb';
import { nameKey, type ObjectNameStore } from '../domain/object-names';

/**
 * The names of devices, organizations and campaigns, read from their tables (each keyed `id`) in one BatchGetItem:
 * only `id` and `name` are read. Eventually consistent: a rename shows on the next read, not necessarily this one.
 */
export const createObjectNameStore = ({
  db,
  tables,
}: {
  db: DynamoDBDocumentClient;
  tables: Record<NamedKind, string>;
}): ObjectNameStore => ({
  names: async (ids) => {
    const kinds = (Object.keys(tables) as NamedKind[]).filter((kind) => ids[kind].length > 0);
    const found = await batchGetKeys(
      db,
      Object.fromEntries(
        kinds.map((kind) => [
          tables[kind],
          {
            Keys: [...new Set(ids[kind])].map((id) => ({ id })),
            ProjectionExpression: '#id, #name',
            ExpressionAttributeNames: { '#id': 'id', '#name': 'name' },
          },
        ]),
      ),
    );
    const names = new Map<string, string>();
    for (const kind of kinds) {
      for (const item of found.get(tables[kind]) ?? []) {
        if (typeof item.id === 'string' && typeof item.name === 'string') names.set(nameKey(kind, item.id), item.name);
      }
    }
    return names;
  },
});
