import { type DeviceUpdateState, isIn, type StageCounts } from '../../../shared/code-releases/rollout-rules';
import type { Rollout } from '../../../shared/contracts/code-releases';
import type { FirmwareTarget } from '../../../shared/contracts/devices';
import { wasRunning } from '../../_shared/code-releases/adoption';
import type { CountChange } from '../../_shared/code-releases/device-updates';
import { progressOf, type StoredRollout, type StoredTarget, stateOf } from '../../_shared/code-releases/rollout-item';
import type { RolloutTargets } from '../../_shared/code-releases/rollout-targets';
import { inLanes } from '../../_shared/in-lanes';
import type { Fleet } from './ports';

/**
 * Device writes in flight when a rollout assigns its devices (each device's is its own conditional UpdateItem, which
 * no batch call takes): well under the SDK's 50 sockets, and far from the devices table's on-demand throughput.
 */
export const ASSIGN_CONCURRENCY = 25;

/** The states a device leaves its stage from when a later rollout takes it: it had not finished. */
const SUPERSEDED_FROM = ['pending', 'offered', 'downloading', 'installing'] as const;

/** What assigning devices changed, beside the rollout's own counters. */
export interface Tally {
  skipped: Rollout['skipped'];
  counts: CountChange;
  stageDevices: number[];
  stageCounts: Partial<Record<DeviceUpdateState, number>>[];
  /** Devices refused after all (changed since they were read): their targets go. */
  refused: string[];
  /** Devices that point at the rollout (their assignment was written), whatever came after it. */
  pointed: Set<string>;
  /** What the devices taken from earlier rollouts change in those rollouts' counters, added once per rollout. */
  taken: Map<string, { counts: CountChange; stageCounts: Map<number, Partial<StageCounts>> }>;
}

export const newTally = (stages: number, skipped: Rollout['skipped']): Tally => ({
  skipped: { ...skipped },
  counts: {},
  stageDevices: Array.from({ length: stages }, () => 0),
  stageCounts: Array.from({ length: stages }, () => ({})),
  refused: [],
  pointed: new Set(),
  taken: new Map(),
});

/** A device's target when the rollout starts: a device that runs the release already has nothing to install. */
export const targetOf = (rollout: StoredRollout, deviceId: string, stage: number, firmwareVersion?: string) => {
  const runs = firmwareVersion === rollout.version;
  const state: DeviceUpdateState = runs ? 'succeeded' : 'pending';
  return {
    rolloutId: rollout.id,
    deviceId,
    releaseId: rollout.releaseId,
    version: rollout.version,
    stage,
    state,
    assigned: rollout.created,
    progress: progressOf(stage, state, rollout.created),
    running: runs,
    ...(runs ? { stateAt: rollout.created } : {}),
    ...(firmwareVersion ? { reportedVersion: firmwareVersion } : {}),
  } satisfies StoredTarget;
};

/** Counts a device as one of the rollout's, in `state`, in its stage. */
const countAs = (tally: Tally, stage: number, state: DeviceUpdateState) => {
  tally.counts.targeted = (tally.counts.targeted ?? 0) + 1;
  if (state === 'succeeded') tally.counts.adopted = (tally.counts.adopted ?? 0) + 1;
  tally.stageDevices[stage] = (tally.stageDevices[stage] ?? 0) + 1;
  const counts = tally.stageCounts[stage] ?? {};
  counts[state] = (counts[state] ?? 0) + 1;
  tally.stageCounts[stage] = counts;
};

/**
 * Pointing devices at a rollout whose targets are written: in its request (decision 098) or by the steps of a
 * preparing one (decision 114). Both count what they did in a {@link Tally} and add it to the counters at the end.
 */
export const createAssignment = ({
  fleet,
  targets,
}: {
  fleet: Pick<Fleet, 'assign'>;
  targets: Pick<RolloutTargets, 'put' | 'supersede' | 'addCounts' | 'addStageCounts' | 'addTakenCounts'>;
}) => {
  /**
   * A rollout started after this one points at the device (it started while this one prepared): the device stays
   * that rollout's, as it would had this one assigned it first and been superseded then. This one's target says so,
   * and counts the device as its own, superseded. A target that rollout superseded already (this one pointed at the
   * device in a step that failed before it was recorded) was counted there as leaving its state: it is counted here
   * as the step would have, in that state.
   */
  const takenFirst = async (
    rollout: StoredRollout,
    target: StoredTarget,
    takenBy: { rolloutId: string; assigned: number },
    tally: Tally,
  ) => {
    const stage = target.stage!;
    if (target.supersededBy === takenBy.rolloutId) {
      countAs(tally, stage, stateOf({ state: target.supersededFrom ?? target.state }));
      return;
    }
    const before = await targets.supersede(rollout.id, target.deviceId, takenBy.assigned, takenBy.rolloutId);
    if (before === undefined) return;
    // As a supersede counts: a device on its way leaves its stage, one that runs the release keeps its state.
    const state = stateOf(before);
    const leaves = isIn(SUPERSEDED_FROM, state);
    countAs(tally, stage, leaves ? 'superseded' : state);
    if (state === 'succeeded') tally.counts.adopted = (tally.counts.adopted ?? 0) - 1;
    tally.counts.superseded = (tally.counts.superseded ?? 0) + 1;
  };

  return {
    /**
     * Points one device at the rollout (its target is written already, from the version read before) and marks its
     * target in the rollout it takes the device from; counts what that changes. A device that points at the rollout
     * already (a step worked again) is counted as one it pointed: the step's counts were not recorded.
     */
    assignOne: async (rollout: StoredRollout, deviceId: string, target: StoredTarget, tally: Tally) => {
      const firmwareTarget: FirmwareTarget = {
        releaseId: rollout.releaseId,
        rolloutId: rollout.id,
        version: rollout.version,
        assigned: rollout.created,
        stage: target.stage!,
      };
      const assigned = await fleet.assign(deviceId, rollout.productLine, firmwareTarget);
      if ('refused' in assigned) {
        tally.skipped[assigned.refused] += 1;
        tally.refused.push(deviceId);
        return;
      }
      if ('takenBy' in assigned) {
        await takenFirst(rollout, target, assigned.takenBy, tally);
        return;
      }
      tally.pointed.add(deviceId);
      let { state } = target;
      // The version changed between the read and the write (a report in between): the target follows the write's.
      if (assigned.firmwareVersion !== target.reportedVersion) {
        const corrected = targetOf(rollout, deviceId, target.stage!, assigned.firmwareVersion);
        await targets.put(corrected);
        state = corrected.state;
      }
      countAs(tally, target.stage!, state);
      const previous = assigned.previousRolloutId;
      if (!previous || previous === rollout.id) return;
      const before = await targets.supersede(previous, deviceId, rollout.created, rollout.id);
      if (before === undefined) return;
      const taken = tally.taken.get(previous) ?? {
        counts: {} as CountChange,
        stageCounts: new Map<number, Partial<StageCounts>>(),
      };
      tally.taken.set(previous, taken);
      taken.counts.superseded = (taken.counts.superseded ?? 0) + 1;
      if (wasRunning(before)) taken.counts.adopted = (taken.counts.adopted ?? 0) - 1;
      const from = stateOf(before);
      if (before.stage !== undefined && isIn(SUPERSEDED_FROM, from)) {
        const change = taken.stageCounts.get(before.stage) ?? {};
        change[from] = (change[from] ?? 0) - 1;
        change.superseded = (change.superseded ?? 0) + 1;
        taken.stageCounts.set(before.stage, change);
      }
    },

    /**
     * The counters of the rollouts devices were taken from: one ADD per rollout and stage, not one per device. With a
     * `step` (a preparing rollout's), each is added once however often the step is worked.
     */
    countTaken: async (tally: Tally, step?: string) => {
      await inLanes([...tally.taken], ASSIGN_CONCURRENCY, async ([rolloutId, { counts, stageCounts }]) => {
        if (step !== undefined) {
          await targets.addTakenCounts(rolloutId, step, counts, stageCounts);
          return;
        }
        await targets.addCounts(rolloutId, counts);
        for (const [stage, change] of stageCounts) await targets.addStageCounts(rolloutId, stage, change);
      });
    },
  };
};

export type Assignment = ReturnType<typeof createAssignment>;
