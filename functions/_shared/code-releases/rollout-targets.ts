import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { RolloutDevice } from '../../../shared/contracts/code-releases';
import { queryPage, updateIf } from '../dynamodb';
import type { AdoptionStore, CountChange, TargetState } from './adoption';

type Key = Record<string, unknown>;

/** A rollout's device as stored: key (rolloutId, deviceId), with the release it was assigned. */
export type StoredTarget = RolloutDevice & { releaseId: string; version: string };

/**
 * The per-device targets of rollouts and the rollouts' counters: written by the code-releases area when a rollout
 * assigns devices and by ingest when a targeted device reports its firmware (docs/code-releases.md, "Adoption").
 */
export const createRolloutTargets = ({
  db,
  targetsTable,
  rolloutsTable,
}: {
  db: DynamoDBDocumentClient;
  targetsTable: string;
  rolloutsTable: string;
}) => {
  const store = {
    put: async (target: StoredTarget): Promise<void> => {
      await db.send(new PutCommand({ TableName: targetsTable, Item: target }));
    },

    page: (rolloutId: string, limit: number, startKey?: Key) =>
      queryPage<StoredTarget>(
        db,
        {
          TableName: targetsTable,
          KeyConditionExpression: 'rolloutId = :r',
          ExpressionAttributeValues: { ':r': rolloutId },
        },
        { limit, startKey },
      ),

    /** A later rollout took the device. @returns the state before, or undefined when there was no live target */
    supersede: async (rolloutId: string, deviceId: string, at: number): Promise<TargetState | undefined> => {
      const before = await updateIf(db, {
        TableName: targetsTable,
        Key: { rolloutId, deviceId },
        UpdateExpression: 'SET #state = :superseded, supersededAt = :at',
        ConditionExpression: 'attribute_exists(deviceId) AND #state <> :superseded',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':superseded': 'superseded', ':at': at },
        ReturnValues: 'ALL_OLD',
      });
      return before?.state as TargetState | undefined;
    },

    report: async (rolloutId, deviceId, { version, at, state }) => {
      const before = await updateIf(db, {
        TableName: targetsTable,
        Key: { rolloutId, deviceId },
        UpdateExpression: 'SET #state = :state, reportedVersion = :version, reported = :at',
        ConditionExpression:
          'attribute_exists(deviceId) AND #state <> :superseded AND (attribute_not_exists(reported) OR reported <= :at)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':state': state, ':version': version, ':at': at, ':superseded': 'superseded' },
        ReturnValues: 'ALL_OLD',
      });
      return before?.state as TargetState | undefined;
    },

    /** Atomic ADDs on the rollout's counters (no read, no lost update under concurrent reports). */
    addCounts: async (rolloutId: string, change: CountChange): Promise<void> => {
      const entries = Object.entries(change).filter(([, n]) => n);
      if (entries.length === 0) return;
      await updateIf(db, {
        TableName: rolloutsTable,
        Key: { id: rolloutId },
        UpdateExpression: `ADD ${entries.map(([name]) => `#counts.#${name} :${name}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(id)',
        ExpressionAttributeNames: {
          '#counts': 'counts',
          ...Object.fromEntries(entries.map(([name]) => [`#${name}`, name])),
        },
        ExpressionAttributeValues: Object.fromEntries(entries.map(([name, n]) => [`:${name}`, n])),
      });
    },
  } satisfies AdoptionStore & Record<string, unknown>;
  return store;
};

export type RolloutTargets = ReturnType<typeof createRolloutTargets>;
