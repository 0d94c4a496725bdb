import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ItemKey } from '../../../shared/contracts/system';
import { batchGetWithLeftovers } from '../../_shared/dynamodb';
import type { ItemReader } from '../domain/item-lookup';

/** A look-up reads what is there now, and retries what DynamoDB leaves unread this many rounds before answering it. */
const ROUNDS = 4;

/**
 * Items by key from the tables the system area may read (their deployed names by platform key). Only GetItem and
 * BatchGetItem are granted on them (infra/definitions/services.ts `keyReadTables`).
 */
export const createItemStore = ({
  db,
  tableNames,
}: {
  db: DynamoDBDocumentClient;
  tableNames: Readonly<Record<string, string>>;
}): ItemReader => ({
  batchGet: async (keys) => {
    const byName = new Map(Object.entries(tableNames).map(([table, name]) => [name, table]));
    const requestItems = Object.fromEntries(
      [...keys]
        .filter(([, tableKeys]) => tableKeys.length > 0)
        .map(([table, tableKeys]) => [tableNames[table]!, { Keys: [...tableKeys], ConsistentRead: true }]),
    );
    const { found, unprocessed } = await batchGetWithLeftovers(db, requestItems, { rounds: ROUNDS });
    const rename = <T>(map: Map<string, T>) => new Map([...map].map(([name, value]) => [byName.get(name)!, value]));
    return { found: rename(found), unprocessed: rename(unprocessed) as Map<string, ItemKey[]> };
  },
});
