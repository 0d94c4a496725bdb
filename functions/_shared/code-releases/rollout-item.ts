import {
  DEFAULT_ABORT,
  type DeviceUpdateState,
  emptyStageCounts,
  type StageCounts,
  type StageTally,
} from '../../../shared/code-releases/rollout-rules';
import type { Rollout, RolloutDevice, RolloutStage } from '../../../shared/contracts/code-releases';

/** A stage as stored: its counts live beside it in `stageCounts`, where atomic ADDs reach them. */
export type StoredStage = Omit<RolloutStage, 'counts'>;

/**
 * A rollout as the rollouts table holds it (docs/code-releases.md, "Stages"): the contract's record with each stage's
 * counts in one map keyed by the stage's index (`stageCounts.{i}.{state}`, moved by ADD), and the stage job's marks.
 */
export type StoredRollout = Omit<Rollout, 'stages' | 'currentStage' | 'abort'> & {
  stages: StoredStage[];
  currentStage?: number;
  abort?: Rollout['abort'];
  stageCounts?: Record<string, StageCounts>;
  /** Present while the stage job has work on it (index `live`): active, or halted and not yet announced. */
  live?: string;
  /** What the current stage had finished and failed when it was resumed: the criteria judge what comes after. */
  baseline?: StageTally & { stage: number };
  /** When the current stage's soak counts from: its start, or its resume. */
  soakFrom?: number;
  /** The halt whose notifications were sent (its `halted` time). */
  haltNotified?: number;
  /** While preparing: the last device (by id) whose assignment step was recorded (decision 114). */
  prepareCursor?: string;
  /** While preparing: devices a recorded step could not assign, whose targets are still to be removed. */
  refusedPending?: string[];
  /** Steps of later rollouts whose devices taken from this one are counted here already (decision 114). */
  takenSteps?: Set<string>;
};

/** The value of `live` (the index's partition key) while the stage job watches a rollout. */
export const LIVE = 'live';

/**
 * The contract's rollout from a stored one. A rollout from before staged rollouts (one stage of 100 %, no counts per
 * stage) reads as that one stage, started when it was created, its counts from its adoption counters.
 */
export const presentRollout = (item: StoredRollout): Rollout => {
  const {
    stageCounts,
    live: _live,
    baseline: _baseline,
    soakFrom: _soakFrom,
    haltNotified: _notified,
    prepareCursor: _cursor,
    refusedPending: _refused,
    takenSteps: _taken,
    ...rollout
  } = item as StoredRollout & { versionKey?: string };
  const legacy = stageCounts === undefined;
  const legacyCounts = (): StageCounts => ({
    ...emptyStageCounts(),
    pending: Math.max(0, item.counts.targeted - item.counts.adopted - item.counts.superseded),
    succeeded: item.counts.adopted,
    superseded: item.counts.superseded,
  });
  return {
    ...rollout,
    currentStage: item.currentStage ?? 0,
    abort: item.abort ?? DEFAULT_ABORT,
    stages: item.stages.map((stage, index) => ({
      ...stage,
      soakSeconds: stage.soakSeconds ?? 0,
      devices: stage.devices ?? item.counts.targeted,
      counts: legacy ? legacyCounts() : { ...emptyStageCounts(), ...(stageCounts[String(index)] ?? {}) },
    })),
  };
};

/** A rollout's device as stored: key (rolloutId, deviceId), with its release and the keys the index and order need. */
export type StoredTarget = RolloutDevice & {
  releaseId: string;
  version: string;
  /**
   * Index `progress`: `{stage}#{state}#{since}` (docs/code-releases.md, "Per-device state"), so a stage's devices in a
   * state are one Query.
   */
  progress?: string;
  /** The order key of the last report or move (decision 076): a report applies only when its key is higher. */
  reportKey?: number;
  /** Whether the device reports running the release's version (adoption). */
  running?: boolean;
  supersededBy?: string;
  /** The state a device on its way had when a later rollout took it (its state is `superseded` since). */
  supersededFrom?: DeviceUpdateState;
};

/** A target from before staged rollouts had `updated` for a device that ran the release. */
export const stateOf = (target: { state: string }): DeviceUpdateState =>
  target.state === 'updated' ? 'succeeded' : (target.state as DeviceUpdateState);

/** The index's sort key: a stage's devices by state, and within a state by when (offered, for those on the way). */
export const progressOf = (stage: number, state: DeviceUpdateState, since: number): string =>
  `${String(stage).padStart(2, '0')}#${state}#${String(Math.max(0, since)).padStart(13, '0')}`;

/** The key prefix of a stage's devices, or of those in one state. */
export const progressPrefix = (stage: number, state?: DeviceUpdateState): string =>
  `${String(stage).padStart(2, '0')}#${state ? `${state}#` : ''}`;

export const presentTarget = ({
  releaseId: _r,
  version: _v,
  progress: _p,
  reportKey: _k,
  running: _running,
  supersededBy: _by,
  supersededFrom: _from,
  ...device
}: StoredTarget): RolloutDevice => ({ ...device, stage: device.stage ?? 0, state: stateOf(device) });
