import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure, putIf, queryPage, updateIf } from '../dynamodb';
import type { PageRead } from '../paging';
import { type DeviceAlertState, emptyState } from './alert-model';

/**
 * Partitions of the due index: the sweep reads each (side by side), so no one partition takes every device's
 * deadline. Four hold a million devices' writes well under a partition's limit at one batch a minute each.
 */
export const DUE_SHARDS = 4;

/** The item that holds the rules' generation (no device id has a `#`). */
const GENERATION_KEY = '#rules';

/** A device's partition of the due index: a stable hash of its id (FNV-1a). */
export const dueShardOf = (deviceId: string): string => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < deviceId.length; i += 1) {
    hash ^= deviceId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return String((hash >>> 0) % DUE_SHARDS);
};

const toState = (item: Record<string, unknown> | undefined, deviceId: string): DeviceAlertState =>
  item
    ? {
        deviceId,
        version: Number(item.version ?? 0),
        tracks: (item.tracks as DeviceAlertState['tracks'] | undefined) ?? {},
        outbox: (item.outbox as DeviceAlertState['outbox'] | undefined) ?? {},
        ...(typeof item.seen === 'number' ? { seen: item.seen } : {}),
        ...(typeof item.interval === 'number' ? { interval: item.interval } : {}),
        ...(typeof item.learnedAt === 'number' ? { learnedAt: item.learnedAt } : {}),
        ...(typeof item.dueAt === 'number' ? { dueAt: item.dueAt } : {}),
      }
    : emptyState(deviceId);

/**
 * The alert states table (docs/alerts.md): one item per device, replaced whole on the version it was read at (the
 * one guard two evaluations at once need), the outbox's done entries taken out one by one, and the due index.
 */
export const createStateTable = ({ db, tableName }: { db: DynamoDBDocumentClient; tableName: string }) => ({
  /** The device's state (an empty one, version 0, when it has none). Consistent when a write on it just failed. */
  get: async (deviceId: string, consistent = false): Promise<DeviceAlertState> =>
    toState(
      (await db.send(new GetCommand({ TableName: tableName, Key: { deviceId }, ConsistentRead: consistent }))).Item,
      deviceId,
    ),

  /** Writes the state if it is still at `expectedVersion` (0: the device has no item). @returns false otherwise */
  write: (state: DeviceAlertState, expectedVersion: number): Promise<boolean> =>
    putIf(db, {
      TableName: tableName,
      Item: { ...state, ...(state.dueAt === undefined ? {} : { dueShard: dueShardOf(state.deviceId) }) },
      ...(expectedVersion === 0
        ? { ConditionExpression: 'attribute_not_exists(deviceId)' }
        : { ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': expectedVersion } }),
    }),

  /** Takes done effects out of the outbox; a later write that read them before may put them back (they are idempotent). */
  clearOutbox: async (deviceId: string, effectIds: readonly string[]): Promise<void> => {
    if (effectIds.length === 0) return;
    try {
      await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { deviceId },
          UpdateExpression: `REMOVE ${effectIds.map((_, i) => `outbox.#e${i}`).join(', ')}`,
          ConditionExpression: 'attribute_exists(deviceId)',
          ExpressionAttributeNames: Object.fromEntries(effectIds.map((id, i) => [`#e${i}`, id])),
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  },

  /** One page of a partition of the due index: devices whose next look is due at `now` or before, earliest first. */
  due: (shard: string, now: number, page: PageRead) =>
    queryPage(
      db,
      {
        TableName: tableName,
        IndexName: 'byDue',
        KeyConditionExpression: 'dueShard = :shard AND dueAt <= :now',
        ExpressionAttributeValues: { ':shard': shard, ':now': now },
      },
      page,
      (item) => ({ deviceId: String(item.deviceId), dueAt: Number(item.dueAt) }),
    ),

  /**
   * Makes the device due now (a rule of it changed: the sweep sets up or closes its tracks), creating its item if it
   * has none. The version moves, so an evaluation that read the item before writes nothing over it.
   */
  touch: async (deviceId: string, now: number): Promise<void> => {
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { deviceId },
        UpdateExpression:
          'SET dueAt = :now, dueShard = :shard, version = if_not_exists(version, :zero) + :one, ' +
          'tracks = if_not_exists(tracks, :empty), outbox = if_not_exists(outbox, :empty)',
        ExpressionAttributeValues: {
          ':now': now,
          ':shard': dueShardOf(deviceId),
          ':zero': 0,
          ':one': 1,
          ':empty': {},
        },
      }),
    );
  },

  /** The rules' generation: moves with every rule created, changed or deleted. 0 before the first. */
  generation: async (): Promise<number> => {
    const item = (await db.send(new GetCommand({ TableName: tableName, Key: { deviceId: GENERATION_KEY } }))).Item;
    return Number(item?.generation ?? 0);
  },

  bumpGeneration: async (): Promise<void> => {
    await updateIf(db, {
      TableName: tableName,
      Key: { deviceId: GENERATION_KEY },
      UpdateExpression: 'ADD generation :one',
      ExpressionAttributeValues: { ':one': 1 },
    });
  },

  /** For the bench and tests: a state written as it is, whatever was there. */
  put: async (state: DeviceAlertState): Promise<void> => {
    await db.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...state, ...(state.dueAt === undefined ? {} : { dueShard: dueShardOf(state.deviceId) }) },
      }),
    );
  },
});

export type StateTable = ReturnType<typeof createStateTable>;
