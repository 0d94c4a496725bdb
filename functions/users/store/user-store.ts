import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { DELETION_DELAY_MS } from '../../../shared/users/constants';
import { batchGetAll, putIf, queryPage, scanPage, updateIf } from '../../_shared/dynamodb';
import { cursorPage, readAll } from '../../_shared/paging';
import type { NewUser, StoredUser, UserFilters, UserStore } from '../domain/ports';

interface UserItem extends Omit<StoredUser, 'signInMethods'> {
  emailKey: string;
  /** A string set, so that a trigger adds a method with one atomic ADD and adding it twice changes nothing. */
  signInMethods?: Set<string>;
  deletionState?: 'queued';
  deletionDueAt?: number;
}

/** Index keys follow from the record, so no caller can write a record whose indexes disagree with it. */
const toItem = (user: StoredUser): UserItem => {
  const queuedAt = user.metadata?.deletionQueued?.time;
  const { signInMethods, ...rest } = user;
  const item: UserItem = { ...rest, emailKey: user.email.trim().toLowerCase() };
  // DynamoDB keeps no empty set.
  if (signInMethods?.length) item.signInMethods = new Set(signInMethods);
  delete item.deletionState;
  delete item.deletionDueAt;
  if (queuedAt !== undefined) {
    item.deletionState = 'queued';
    item.deletionDueAt = queuedAt + DELETION_DELAY_MS;
  }
  return item;
};

const toUser = (item: Record<string, unknown>): StoredUser => {
  const { emailKey: _e, deletionState: _s, deletionDueAt: _d, signInMethods, ...user } = item as unknown as UserItem;
  return {
    ...user,
    cartItems: user.cartItems ?? [],
    rolesList: user.rolesList ?? [],
    ...(signInMethods?.size ? { signInMethods: [...signInMethods].sort() } : {}),
  };
};

/** The users table (spec §3 User): the only code that reads or writes it. */
export const createUserStore = ({ db, tableName }: { db: DynamoDBDocumentClient; tableName: string }): UserStore => ({
  get: async (id: string): Promise<StoredUser | undefined> => {
    const result = await db.send(new GetCommand({ TableName: tableName, Key: { id }, ConsistentRead: true }));
    return result.Item ? toUser(result.Item) : undefined;
  },

  getMany: async (ids: readonly string[]): Promise<StoredUser[]> => (await batchGetAll(db, tableName, ids)).map(toUser),

  ensure: async (user: NewUser): Promise<boolean> => {
    const record: StoredUser = {
      id: user.id,
      email: user.email,
      ...(user.givenName ? { givenName: user.givenName } : {}),
      ...(user.familyName ? { familyName: user.familyName } : {}),
      metadata: { email: user.email },
      cartItems: [],
      rolesList: user.roles,
      ...(user.signInMethods?.length ? { signInMethods: user.signInMethods } : {}),
      created: user.now,
      updated: user.now,
    };
    return putIf(db, { TableName: tableName, Item: toItem(record), ConditionExpression: 'attribute_not_exists(id)' });
  },

  save: (user: StoredUser, readVersion: number): Promise<boolean> =>
    putIf(db, {
      TableName: tableName,
      Item: toItem(user),
      ConditionExpression: 'attribute_exists(id) AND updated = :read',
      ExpressionAttributeValues: { ':read': readVersion },
    }),

  addSignInMethods: async (id: string, methods: readonly string[]): Promise<boolean> => {
    if (methods.length === 0) return true;
    const done = await updateIf(db, {
      TableName: tableName,
      Key: { id },
      UpdateExpression: 'ADD signInMethods :methods',
      ConditionExpression: 'attribute_exists(id)',
      ExpressionAttributeValues: { ':methods': new Set(methods) },
    });
    return done !== undefined;
  },

  findIdsByEmail: async (email: string): Promise<string[]> => {
    const result = await db.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: 'byEmail',
        KeyConditionExpression: 'emailKey = :email',
        ExpressionAttributeValues: { ':email': email.trim().toLowerCase() },
        ProjectionExpression: 'id',
      }),
    );
    return (result.Items ?? []).map((item) => String(item.id));
  },

  listDueDeletions: (now: number) =>
    readAll((startKey) =>
      queryPage(
        db,
        {
          TableName: tableName,
          IndexName: 'byDeletionDue',
          KeyConditionExpression: 'deletionState = :queued AND deletionDueAt <= :now',
          ExpressionAttributeValues: { ':queued': 'queued', ':now': now },
        },
        { startKey },
        toUser,
      ),
    ),

  scanIds: async (filters: UserFilters, { limit, cursor }: { limit: number; cursor?: string }) => {
    const conditions: string[] = [];
    const values: Record<string, unknown> = {};
    if (filters.email) {
      conditions.push('begins_with(emailKey, :email)');
      values[':email'] = filters.email.trim().toLowerCase();
    }
    if (filters.deletionQueued !== undefined) {
      conditions.push(filters.deletionQueued ? 'deletionState = :queued' : 'attribute_not_exists(deletionState)');
      if (filters.deletionQueued) values[':queued'] = 'queued';
    }
    if (filters.role) {
      conditions.push('contains(rolesList, :role)');
      values[':role'] = filters.role;
    }
    const page = await cursorPage(
      (startKey, max) =>
        scanPage(
          db,
          {
            TableName: tableName,
            ProjectionExpression: 'id',
            ...(conditions.length ? { FilterExpression: conditions.join(' AND ') } : {}),
            // DynamoDB refuses an empty map: "not queued" alone is a condition without values.
            ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
          },
          { limit: max, startKey },
          (item) => String(item.id),
        ),
      { limit, cursor },
    );
    return { ids: page.items, nextCursor: page.nextCursor };
  },

  remove: async (id: string): Promise<void> => {
    await db.send(new DeleteCommand({ TableName: tableName, Key: { id } }));
  },
});
