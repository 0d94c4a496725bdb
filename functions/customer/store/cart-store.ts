import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { CartItem } from '../../../shared/contracts/users';
import { updateIf } from '../../_shared/dynamodb';
import type { CartStore } from '../domain/bought-items';

/**
 * The cart on a person's record in the users table (the users area owns the record; billing only takes bought
 * items out). The record's `updated` is its version, as the users area's own writes use it, so a cart changed in
 * between is read again rather than overwritten.
 */
export const createCartStore = ({ db, tableName }: { db: DynamoDBDocumentClient; tableName: string }): CartStore => ({
  read: async (userId) => {
    const { Item } = await db.send(
      new GetCommand({
        TableName: tableName,
        Key: { id: userId },
        ConsistentRead: true,
        ProjectionExpression: 'cartItems, updated',
      }),
    );
    return Item ? { items: (Item.cartItems ?? []) as CartItem[], version: Item.updated as number } : undefined;
  },

  write: async (userId, items, readVersion, now) =>
    (await updateIf(db, {
      TableName: tableName,
      Key: { id: userId },
      UpdateExpression: 'SET cartItems = :items, updated = :updated',
      ConditionExpression: 'attribute_exists(id) AND updated = :read',
      ExpressionAttributeValues: { ':items': items, ':updated': Math.max(now, readVersion + 1), ':read': readVersion },
    })) !== undefined,
});
