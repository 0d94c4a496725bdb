import {
  automaticHaltReason,
  type DeviceUpdateState,
  FAILURE_STATES,
  isIn,
  type StageCounts,
  shouldHalt,
  tallyOf,
} from '../../../shared/code-releases/rollout-rules';
import type { Log } from '../logger';
import { presentRollout, type StoredRollout, type StoredTarget, stateOf } from './rollout-item';

export interface CountChange {
  targeted?: number;
  adopted?: number;
  superseded?: number;
}

/** Where a device moves, and what must hold for it to move. */
export interface MoveTo {
  state: DeviceUpdateState;
  /** When it got there: the device's time for a report, the platform's for an offer or a timeout. */
  at: number;
  /** Its order key (`reportKey`, decision 076): the move applies only over a lower one. */
  key: number;
  reason?: string;
  /** When it was first offered the release (kept once set). */
  offered?: number;
  /** Only from these states. */
  from?: readonly DeviceUpdateState[];
  /** Only when it was offered at or before this time (a timeout). */
  offeredBy?: number;
}

/** What moving a device needs of the rollout records (functions/_shared/code-releases/rollout-targets.ts). */
export interface DeviceUpdateStore {
  /** @returns the target before the move, or undefined when its condition did not hold (nothing written) */
  move(target: StoredTarget, to: MoveTo): Promise<StoredTarget | undefined>;
  /** @returns the rollout after the ADDs, or undefined for a rollout without counts per stage */
  addStageCounts(rolloutId: string, stage: number, change: Partial<StageCounts>): Promise<StoredRollout | undefined>;
  /** @returns the halted rollout, or undefined when it was not active */
  halt(
    rolloutId: string,
    halt: { halted: number; haltedBy: string; haltReason: string },
  ): Promise<StoredRollout | undefined>;
}

/** Who halted a rollout whose abort criteria did. */
export const AUTOMATIC = 'automatic';

/**
 * Whether the rollout's current stage has reached its abort criteria: its failures (less what a resume set aside)
 * against its finished devices. @returns the halt's reason, or undefined
 */
export const abortReasonOf = (item: StoredRollout): string | undefined => {
  if (item.status !== 'active') return undefined;
  const rollout = presentRollout(item);
  const stage = rollout.stages[rollout.currentStage];
  if (!stage) return undefined;
  const baseline = item.baseline?.stage === rollout.currentStage ? item.baseline : undefined;
  const tally = tallyOf(stage.counts, baseline);
  return shouldHalt(tally, rollout.abort, stage.devices)
    ? automaticHaltReason(stage.name, tally, rollout.abort)
    : undefined;
};

/**
 * A device's update moving from one state to another (docs/code-releases.md, "Per-device state"), wherever the move
 * comes from: its offer, its report, its version in readings, its timeout. The target's conditional write decides
 * whether it moves (a report seen before, or older than the one recorded, does not); only a move that happened
 * changes its stage's counts, by atomic ADDs whose answer is the rollout itself, so a move into a failure checks the
 * abort criteria with no read of its own and halts the rollout at that very failure.
 */
export const createDeviceUpdates = ({ store, now, log }: { store: DeviceUpdateStore; now: () => number; log: Log }) => {
  const haltIfDue = async (rollout: StoredRollout): Promise<StoredRollout | undefined> => {
    const reason = abortReasonOf(rollout);
    if (!reason) return undefined;
    const halted = await store.halt(rollout.id, { halted: now(), haltedBy: AUTOMATIC, haltReason: reason });
    if (halted) log('warn', 'Rollout halted by its abort criteria', { rolloutId: rollout.id, reason });
    return halted;
  };

  return {
    haltIfDue,
    /** @returns the target before the move, or undefined when it did not move */
    move: async (target: StoredTarget, to: MoveTo): Promise<StoredTarget | undefined> => {
      const before = await store.move(target, to);
      if (!before) return undefined;
      const from = stateOf(before);
      // A rollout from before stages has no counts per stage; a later report of the same state moves no count.
      if (from === to.state || before.stage === undefined) return before;
      const rollout = await store.addStageCounts(target.rolloutId, before.stage, { [from]: -1, [to.state]: 1 });
      if (rollout && isIn(FAILURE_STATES, to.state) && before.stage === (rollout.currentStage ?? 0)) {
        await haltIfDue(rollout);
      }
      return before;
    },
  };
};

export type DeviceUpdates = ReturnType<typeof createDeviceUpdates>;
