import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import {
  type DeviceUpdateState,
  IN_FLIGHT_STATES,
  type StageCounts,
} from '../../../shared/code-releases/rollout-rules';
import { batchWriteAll, queryPage, updateIf } from '../dynamodb';
import { readAll } from '../paging';
import type { CountChange, DeviceUpdateStore, MoveTo } from './device-updates';
import { LIVE, progressOf, type StoredRollout, type StoredTarget } from './rollout-item';

type Key = Record<string, unknown>;

/** States a device leaves its stage from when a later rollout takes it: it had not finished. */
const SUPERSEDED_STATES = ['pending', 'offered', 'downloading', 'installing'] as const;

/** BatchWriteItem calls in flight when a rollout writes its targets: 1,000 devices are 40 calls, 5 rounds. */
const TARGET_WRITE_LANES = 8;

export type { StoredTarget } from './rollout-item';

/** A target taken by a later rollout, as it was before: the state it left, without the marks of the taking. */
const beforeSuperseded = ({
  superseded: _at,
  supersededBy: _by,
  supersededFrom,
  ...target
}: StoredTarget): StoredTarget => ({ ...target, state: supersededFrom ?? target.state });

/**
 * The per-device targets of rollouts and the rollouts' counters: written by the code-releases area when a rollout
 * assigns devices and by its stage job, and by ingest when a targeted device reports (docs/code-releases.md).
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
  const progressQuery = (rolloutId: string, condition: string, values: Record<string, unknown>) => ({
    TableName: targetsTable,
    IndexName: 'progress',
    KeyConditionExpression: `rolloutId = :r AND ${condition}`,
    ExpressionAttributeValues: { ':r': rolloutId, ...values },
  });

  const store = {
    put: async (target: StoredTarget): Promise<void> => {
      await db.send(new PutCommand({ TableName: targetsTable, Item: target }));
    },

    /**
     * A new rollout's targets, 25 to a BatchWriteItem with several in flight (no condition: no device points at the
     * rollout yet, so nothing else writes them).
     */
    putAll: (items: readonly StoredTarget[]): Promise<void> =>
      batchWriteAll(
        db,
        targetsTable,
        items.map((Item) => ({ PutRequest: { Item } })),
        { concurrency: TARGET_WRITE_LANES },
      ),

    /** Targets of devices a new rollout could not assign after all (by batches, as they were written). */
    removeAll: (rolloutId: string, deviceIds: readonly string[]): Promise<void> =>
      batchWriteAll(
        db,
        targetsTable,
        deviceIds.map((deviceId) => ({ DeleteRequest: { Key: { rolloutId, deviceId } } })),
        { concurrency: TARGET_WRITE_LANES },
      ),

    get: async (rolloutId: string, deviceId: string): Promise<StoredTarget | undefined> =>
      (await db.send(new GetCommand({ TableName: targetsTable, Key: { rolloutId, deviceId }, ConsistentRead: true })))
        .Item as StoredTarget | undefined,

    /** A rollout's devices by id. */
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

    /** A rollout's devices whose progress key starts with the prefix (a stage, a stage and a state), by that key. */
    progressPage: (rolloutId: string, prefix: string, limit: number, startKey?: Key) =>
      queryPage<StoredTarget>(db, progressQuery(rolloutId, 'begins_with(progress, :p)', { ':p': prefix }), {
        limit,
        startKey,
      }),

    /** Every device of the rollout whose progress key lies between the two (a stage's state offered before a time). */
    progressBetween: (rolloutId: string, from: string, to: string): Promise<StoredTarget[]> =>
      readAll((startKey) =>
        queryPage<StoredTarget>(
          db,
          progressQuery(rolloutId, 'progress BETWEEN :from AND :to', { ':from': from, ':to': to }),
          { startKey },
        ),
      ),

    move: async (target: StoredTarget, to: MoveTo): Promise<StoredTarget | undefined> => {
      const offered = to.offered ?? target.offered;
      const since = (IN_FLIGHT_STATES as readonly string[]).includes(to.state) ? (offered ?? to.at) : to.at;
      const set = ['#state = :state', 'stateAt = :at', 'reportKey = :key', 'progress = :progress'];
      const values: Record<string, unknown> = {
        ':state': to.state,
        ':at': to.at,
        ':key': to.key,
        ':progress': progressOf(target.stage ?? 0, to.state, since),
        ':superseded': 'superseded',
      };
      if (to.offered !== undefined) {
        set.push('offered = if_not_exists(offered, :offered)');
        values[':offered'] = to.offered;
      }
      if (to.reason !== undefined) {
        set.push('reason = :reason');
        values[':reason'] = to.reason;
      }
      const conditions = [
        'attribute_exists(deviceId)',
        'attribute_not_exists(superseded)',
        '#state <> :superseded',
        '(attribute_not_exists(reportKey) OR reportKey < :key)',
      ];
      if (to.from) {
        conditions.push(`#state IN (${to.from.map((_, i) => `:from${i}`).join(', ')})`);
        to.from.forEach((state, i) => {
          values[`:from${i}`] = state;
        });
      }
      if (to.offeredBy !== undefined) {
        conditions.push('offered <= :offeredBy');
        values[':offeredBy'] = to.offeredBy;
      }
      return (await updateIf(db, {
        TableName: targetsTable,
        Key: { rolloutId: target.rolloutId, deviceId: target.deviceId },
        UpdateExpression: `SET ${set.join(', ')}${to.reason === undefined ? ' REMOVE reason' : ''}`,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_OLD',
      })) as StoredTarget | undefined;
    },

    /**
     * A later rollout took the device. A device on its way leaves this rollout's stage (`superseded`, the state it
     * left kept as `supersededFrom`); one that had finished keeps its state, marked superseded, so the rollout still
     * shows what became of it. The state read is a condition of the write, so a report landing in between makes it
     * read again. Taken by `by` already (a preparing rollout's step worked again, decision 114), it answers the target
     * as it was before, so the step counts the same change again (and its guarded count adds it once).
     * @returns the target before, or undefined when there was no live target
     */
    supersede: async (
      rolloutId: string,
      deviceId: string,
      at: number,
      by: string,
    ): Promise<StoredTarget | undefined> => {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const before = await store.get(rolloutId, deviceId);
        if (before?.supersededBy === by) return beforeSuperseded(before);
        if (!before || before.superseded !== undefined || before.state === 'superseded') return undefined;
        const leaves = (SUPERSEDED_STATES as readonly string[]).includes(before.state);
        const moved = await updateIf(db, {
          TableName: targetsTable,
          Key: { rolloutId, deviceId },
          UpdateExpression: `SET superseded = :at, supersededBy = :by${leaves ? ', #state = :superseded, progress = :progress, supersededFrom = :read' : ''}`,
          ConditionExpression: 'attribute_not_exists(superseded) AND #state = :read',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: {
            ':at': at,
            ':by': by,
            ':read': before.state,
            ...(leaves
              ? { ':superseded': 'superseded', ':progress': progressOf(before.stage ?? 0, 'superseded', at) }
              : {}),
          },
        });
        if (moved) return before;
      }
      throw new Error(`The target of ${deviceId} in rollout ${rolloutId} kept changing while it was superseded`);
    },

    /**
     * Records the version the device reports and whether it is the release's, unless a later report was recorded.
     * @returns the target before, or undefined when nothing was written
     */
    setRunning: async (
      rolloutId: string,
      deviceId: string,
      { version, at, running }: { version: string; at: number; running: boolean },
    ): Promise<StoredTarget | undefined> =>
      (await updateIf(db, {
        TableName: targetsTable,
        Key: { rolloutId, deviceId },
        UpdateExpression: 'SET reportedVersion = :version, reported = :at, running = :running',
        ConditionExpression:
          'attribute_exists(deviceId) AND attribute_not_exists(superseded) AND #state <> :superseded AND (attribute_not_exists(reported) OR reported <= :at)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':version': version,
          ':at': at,
          ':running': running,
          ':superseded': 'superseded',
        },
        ReturnValues: 'ALL_OLD',
      })) as StoredTarget | undefined,

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

    /**
     * What a step of a preparing rollout (`step`, decision 114) changes in the counters of a rollout it took devices
     * from, added once whatever number of times the step is worked: the step is recorded in the same write
     * (`takenSteps`). The stage counts are a second write, guarded the same way, and skipped for a rollout from before
     * stages (no stage counts). @returns false when the step was counted here already
     */
    addTakenCounts: async (
      rolloutId: string,
      step: string,
      counts: CountChange,
      stageCounts: ReadonlyMap<number, Partial<StageCounts>>,
    ): Promise<boolean> => {
      const entries = Object.entries(counts).filter(([, n]) => n);
      const added = await updateIf(db, {
        TableName: rolloutsTable,
        Key: { id: rolloutId },
        UpdateExpression: `ADD ${[...entries.map(([name]) => `#counts.#${name} :${name}`), 'takenSteps :steps'].join(', ')}`,
        ConditionExpression: 'attribute_exists(id) AND NOT contains(takenSteps, :step)',
        ExpressionAttributeNames: {
          ...(entries.length ? { '#counts': 'counts' } : {}),
          ...Object.fromEntries(entries.map(([name]) => [`#${name}`, name])),
        },
        ExpressionAttributeValues: {
          ...Object.fromEntries(entries.map(([name, n]) => [`:${name}`, n])),
          ':steps': new Set([step]),
          ':step': step,
        },
      });
      const changes = [...stageCounts].flatMap(([stage, change]) =>
        (Object.entries(change).filter(([, n]) => n) as [DeviceUpdateState, number][]).map(
          ([state, n]) => [stage, state, n] as const,
        ),
      );
      if (changes.length === 0) return added !== undefined;
      const stagesStep = `${step}#stages`;
      const stagesAdded = await updateIf(db, {
        TableName: rolloutsTable,
        Key: { id: rolloutId },
        UpdateExpression: `ADD ${[...changes.map(([stage, state]) => `#sc.#s${stage}.#${state} :s${stage}${state.replace(/_/g, '')}`), 'takenSteps :steps'].join(', ')}`,
        ConditionExpression: `attribute_exists(id) AND ${[...new Set(changes.map(([stage]) => stage))].map((stage) => `attribute_exists(#sc.#s${stage})`).join(' AND ')} AND NOT contains(takenSteps, :step)`,
        ExpressionAttributeNames: {
          '#sc': 'stageCounts',
          ...Object.fromEntries(changes.map(([stage]) => [`#s${stage}`, String(stage)])),
          ...Object.fromEntries(changes.map(([, state]) => [`#${state}`, state])),
        },
        ExpressionAttributeValues: {
          ...Object.fromEntries(changes.map(([stage, state, n]) => [`:s${stage}${state.replace(/_/g, '')}`, n])),
          ':steps': new Set([stagesStep]),
          ':step': stagesStep,
        },
      });
      return added !== undefined || stagesAdded !== undefined;
    },

    /**
     * Moves a stage's counts by atomic ADDs and answers the rollout as it is after them, so whoever moved a device
     * to a failure reads the stage's counts in the same write. @returns undefined for a rollout without stage counts
     */
    addStageCounts: async (
      rolloutId: string,
      stage: number,
      change: Partial<StageCounts>,
    ): Promise<StoredRollout | undefined> => {
      const entries = Object.entries(change).filter(([, n]) => n) as [DeviceUpdateState, number][];
      if (entries.length === 0) return undefined;
      return (await updateIf(db, {
        TableName: rolloutsTable,
        Key: { id: rolloutId },
        UpdateExpression: `ADD ${entries.map(([state]) => `#sc.#stage.#${state} :${state}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(id) AND attribute_exists(#sc.#stage)',
        ExpressionAttributeNames: {
          '#sc': 'stageCounts',
          '#stage': String(stage),
          ...Object.fromEntries(entries.map(([state]) => [`#${state}`, state])),
        },
        ExpressionAttributeValues: Object.fromEntries(entries.map(([state, n]) => [`:${state}`, n])),
        ReturnValues: 'ALL_NEW',
      })) as StoredRollout | undefined;
    },

    /**
     * Halts an active rollout, or a preparing one (its assignment steps stop; decision 114's addendum); it stays on the
     * stage job's index until its halt has been announced.
     * @returns the halted rollout, or undefined when it was neither active nor preparing
     */
    halt: async (
      rolloutId: string,
      halt: { halted: number; haltedBy: string; haltReason: string },
    ): Promise<StoredRollout | undefined> =>
      (await updateIf(db, {
        TableName: rolloutsTable,
        Key: { id: rolloutId },
        UpdateExpression: 'SET #status = :halted, halted = :at, haltedBy = :by, haltReason = :reason, live = :live',
        ConditionExpression: 'attribute_exists(id) AND #status IN (:active, :preparing)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':halted': 'halted',
          ':active': 'active',
          ':preparing': 'preparing',
          ':at': halt.halted,
          ':by': halt.haltedBy,
          ':reason': halt.haltReason,
          ':live': LIVE,
        },
        ReturnValues: 'ALL_NEW',
      })) as StoredRollout | undefined,
  } satisfies DeviceUpdateStore & Record<string, unknown>;
  return store;
};

export type RolloutTargets = ReturnType<typeof createRolloutTargets>;
