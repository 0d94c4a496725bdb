import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure, putIf, queryPage, updateIf } from '../dynamodb';
import type { PageRead } from '../paging';
import { type DeviceAlertState, emptyState } from './alert-model';
import { createRestMarks, isAtRest } from './rest-marks';

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
 * What a rule change does to the alert states table (a rule's API, an account's purge): its devices made due, the rules'
 * generation moved. No state is written through these, so they need no device records (decision 097).
 */
export const createStateTouches = ({ db, tableName }: { db: DynamoDBDocumentClient; tableName: string }) => ({
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

  bumpGeneration: async (): Promise<void> => {
    await updateIf(db, {
      TableName: tableName,
      Key: { deviceId: GENERATION_KEY },
      UpdateExpression: 'ADD generation :one',
      ExpressionAttributeValues: { ':one': 1 },
    });
  },
});

export type StateTouches = ReturnType<typeof createStateTouches>;

/**
 * The alert states table (docs/alerts.md): one item per device, replaced whole on the version it was read at (the
 * one guard two evaluations at once need), the outbox's done entries taken out one by one, and the due index. Every
 * write keeps the rest marks on the device record (`devicesTable`; decision 097) as ingest relies on them.
 */
export const createStateTable = ({
  db,
  tableName,
  devicesTable,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
  devicesTable: string;
}) => {
  const marks = createRestMarks({ db, devicesTable });
  const touches = createStateTouches({ db, tableName });
  return {
    /** The device's state (an empty one, version 0, when it has none). Consistent when a write on it just failed. */
    get: async (deviceId: string, consistent = false): Promise<DeviceAlertState> =>
      toState(
        (await db.send(new GetCommand({ TableName: tableName, Key: { deviceId }, ConsistentRead: consistent }))).Item,
        deviceId,
      ),

    /**
     * Writes the state if it is still at `expectedVersion` (0: the device has no item). A state with a track not at
     * rest is marked busy on the device record first; one at rest after a state that was not (`restBefore`: the state
     * written over had every track at rest, so the record's marks stay true) is marked at rest after, and a failure of
     * that mark only costs the device's next batches a read. @returns false when the version had moved
     */
    write: async (state: DeviceAlertState, expectedVersion: number, restBefore = false): Promise<boolean> => {
      const atRest = isAtRest(state);
      if (!atRest) await marks.busy(state.deviceId, state.version);
      const written = await putIf(db, {
        TableName: tableName,
        Item: { ...state, ...(state.dueAt === undefined ? {} : { dueShard: dueShardOf(state.deviceId) }) },
        ...(expectedVersion === 0
          ? { ConditionExpression: 'attribute_not_exists(deviceId)' }
          : { ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': expectedVersion } }),
      });
      if (written && atRest && !restBefore) await marks.atRest(state.deviceId, state.version).catch(() => false);
      return written;
    },

    /**
     * Marks the device at rest as of a state read with every track at rest (ingest, when the record did not say so).
     * @returns false when a busier state may have been written since (or the device is gone)
     */
    markAtRest: (deviceId: string, version: number): Promise<boolean> => marks.atRest(deviceId, version),

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

    /** The rules' generation: moves with every rule created, changed or deleted. 0 before the first. */
    generation: async (): Promise<number> => {
      const item = (await db.send(new GetCommand({ TableName: tableName, Key: { deviceId: GENERATION_KEY } }))).Item;
      return Number(item?.generation ?? 0);
    },

    ...touches,

    /**
     * For the bench and tests: a state written as it is, whatever was there. Its version may go back, so the device's
     * rest marks go first: the next batch reads the state.
     */
    put: async (state: DeviceAlertState): Promise<void> => {
      await marks.forget(state.deviceId);
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: { ...state, ...(state.dueAt === undefined ? {} : { dueShard: dueShardOf(state.deviceId) }) },
        }),
      );
    },
  };
};

export type StateTable = ReturnType<typeof createStateTable>;
