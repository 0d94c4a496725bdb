import { type DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type KeyRead, type ReadAhead, readKey } from '../read-ahead';

/** Longer than any token lives (access and id tokens: 60 minutes, infra/definitions/auth.ts). */
export const RETIRED_SESSION_KEEP_MS = 24 * 60 * 60 * 1000;

export interface AccessVersion {
  version: number;
  /** When a relation deciding the user's access last changed (ms); 0 if never. */
  changedAt: number;
}

/**
 * The per-user record read once per signed-in request: the access version, and the session state the
 * API is the authority on (docs/architecture.md#identity-and-permissions), so refusing a disabled or signed-out user
 * costs no extra read.
 */
export interface UserSession extends AccessVersion {
  disabled: boolean;
  /** Tokens authenticated before this time (ms) are refused; 0 if never signed out everywhere. */
  signedOutAt: number;
  /** The user's groups as of `groupsChangedAt`: they replace the groups of tokens issued before it. */
  groups?: string[];
  groupsChangedAt: number;
}

const numberOr0 = (value: unknown): number => (typeof value === 'number' ? value : 0);

/** A user's record as the session guard and the access cache read it; no record is a user never changed. */
const sessionOf = (item: Record<string, unknown> | undefined): UserSession => ({
  version: numberOr0(item?.version),
  changedAt: numberOr0(item?.changedAt),
  disabled: item?.disabled === true,
  signedOutAt: numberOr0(item?.signedOutAt),
  ...(Array.isArray(item?.groups) ? { groups: item.groups.map(String) } : {}),
  groupsChangedAt: numberOr0(item?.groupsChangedAt),
});

/** The per-user records behind every Lambda's access cache and every request's session check. */
export const createAccessVersionStore = ({ db, tableName }: { db: DynamoDBDocumentClient; tableName: string }) => {
  const set = (userId: string, expression: string, values: Record<string, unknown>, names?: Record<string, string>) =>
    db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { userId },
        UpdateExpression: expression,
        ExpressionAttributeValues: values,
        ...(names ? { ExpressionAttributeNames: names } : {}),
      }),
    );
  /** Consistent: a disable, sign-out, group change or relation change must count on the very next request. */
  const keyRead = (userId: string): KeyRead => ({ table: tableName, key: { userId }, consistent: true });

  return {
    keyRead,

    get: async (userId: string, ahead?: ReadAhead): Promise<UserSession> =>
      sessionOf(await readKey(db, keyRead(userId), ahead)),

    /** An atomic ADD per user: concurrent changes never lose a bump. */
    bump: async (userIds: readonly string[], now: number): Promise<void> => {
      await Promise.all(
        [...new Set(userIds)].map((userId) =>
          db.send(
            new UpdateCommand({
              TableName: tableName,
              Key: { userId },
              UpdateExpression: 'ADD #version :one SET changedAt = :now',
              ExpressionAttributeNames: { '#version': 'version' },
              ExpressionAttributeValues: { ':one': 1, ':now': now },
            }),
          ),
        ),
      );
    },

    setDisabled: async (userId: string, disabled: boolean): Promise<void> => {
      await set(userId, 'SET disabled = :disabled', { ':disabled': disabled });
    },

    /** Every token authenticated before `now` stops working at the API. */
    signOutEverywhere: async (userId: string, now: number): Promise<void> => {
      await set(userId, 'SET signedOutAt = :now', { ':now': now });
    },

    setGroups: async (userId: string, groups: readonly string[], now: number): Promise<void> => {
      await set(
        userId,
        'SET #groups = :groups, groupsChangedAt = :now',
        { ':groups': [...groups], ':now': now },
        { '#groups': 'groups' },
      );
    },

    /**
     * For a deleted account: the record shrinks to the bare id marked disabled, so a token issued before
     * the deletion is refused until it would have expired anyway; `expiresAt` (seconds, the table's TTL
     * attribute) then removes even that.
     */
    retire: async (userId: string, now: number): Promise<void> => {
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: { userId, disabled: true, expiresAt: Math.ceil((now + RETIRED_SESSION_KEEP_MS) / 1000) },
        }),
      );
    },
  };
};

export type AccessVersionStore = ReturnType<typeof createAccessVersionStore>;
