import { RELEASE_MESSAGES } from '../../../shared/code-releases/messages';
import { AUTOMATIC } from '../../_shared/code-releases/device-updates';
import { presentRollout, type StoredRollout, type StoredTarget } from '../../_shared/code-releases/rollout-item';
import type { RolloutTargets } from '../../_shared/code-releases/rollout-targets';
import { inLanes } from '../../_shared/in-lanes';
import type { Log } from '../../_shared/logger';
import { MAX_RECEIVES } from '../../_shared/queue/max-receives';
import type { QueueSender } from '../../_shared/queue/queue-sender';
import { ASSIGN_CONCURRENCY, createAssignment, newTally } from './assignment';
import type { Fleet, RolloutStore } from './ports';
import type { PrepareMessage } from './prepare-message';

/**
 * Devices one step points at the rollout: about 20 round trips of 25 device writes in the cloud, a few seconds on the
 * local stack's DynamoDB, well inside the worker's time.
 */
export const PREPARE_STEP_DEVICES = 500;

/** How many of each stage's devices were refused after all, as negative changes of the stages' sizes. */
const refusedByStage = (stages: number, targets: readonly StoredTarget[], refused: readonly string[]): number[] => {
  const out = new Set(refused);
  const change = Array.from({ length: stages }, () => 0);
  for (const target of targets) if (out.has(target.deviceId)) change[target.stage ?? 0]! -= 1;
  return change;
};

export interface RolloutPrepareDeps {
  log: Log;
  rollouts: Pick<RolloutStore, 'get' | 'commitStep' | 'clearRefused' | 'activate'>;
  targets: Pick<
    RolloutTargets,
    'page' | 'put' | 'removeAll' | 'supersede' | 'addCounts' | 'addStageCounts' | 'addTakenCounts' | 'halt'
  >;
  fleet: Pick<Fleet, 'assign'>;
  work: Pick<QueueSender<PrepareMessage>, 'send'>;
  now: () => number;
}

/** What one delivery did, for the worker's log line and for tests. */
export type PrepareRun =
  | { rolloutId: string; done: 'not preparing' | 'recorded already' }
  | { rolloutId: string; assigned: number; refused: number; next: 'step' | 'active' };

/**
 * Assigns the devices of a preparing rollout (decision 114), a step of PREPARE_STEP_DEVICES per message, in the order
 * of their ids: each device is pointed at the rollout as its request would have (`createAssignment`), what the step
 * did is recorded once on the rollout from the step it read, and the next step is a new message. A step worked again
 * (a failure, a second delivery) finds its devices pointing at the rollout already and counts them as its own; the
 * counters of rollouts it took devices from are guarded by the step's key. The last step makes the rollout active with
 * its first stage started. Nothing is offered before: the firmware offer answers active rollouts only.
 */
export const createRolloutPrepare = ({ rollouts, targets, fleet, work, now, log }: RolloutPrepareDeps) => {
  const assignment = createAssignment({ fleet, targets });

  /** The targets of devices a recorded step could not assign: removed, then forgotten. */
  const removeRefused = async (item: Pick<StoredRollout, 'id' | 'refusedPending'>) => {
    if (!item.refusedPending?.length) return;
    await targets.removeAll(item.id, item.refusedPending);
    await rollouts.clearRefused(item.id);
  };

  /**
   * The queue's last try of a step failed too: the rollout is halted, so its staff hear of it (the stage job announces
   * it) and a person's resume sends the step again; the message itself goes to the dead-letter queue for the team.
   */
  const haltStalled = async (rolloutId: string, tries: number) => {
    try {
      const item = await rollouts.get(rolloutId);
      if (item?.status !== 'preparing') return;
      await targets.halt(rolloutId, {
        halted: now(),
        haltedBy: AUTOMATIC,
        haltReason: RELEASE_MESSAGES.rolloutAssignmentStalled(tries),
      });
    } catch (error) {
      // The step's own error is the one the queue reports; this one only says the halt did not happen.
      log('error', 'Stalled rollout not halted', {
        rolloutId,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  };

  const step = async (rolloutId: string): Promise<PrepareRun> => {
    const item = await rollouts.get(rolloutId);
    if (item?.status !== 'preparing') return { rolloutId, done: 'not preparing' };
    await removeRefused(item);
    const from = item.prepareCursor;
    const page = await targets.page(
      rolloutId,
      PREPARE_STEP_DEVICES,
      from === undefined ? undefined : { rolloutId, deviceId: from },
    );
    const tally = newTally(item.stages.length, { otherProductLine: 0, retired: 0, unknown: 0 });
    const last = page.items.at(-1);
    if (last) {
      // A failure fails the step, and the queue gives it again: what it did is found pointing at the rollout then.
      await inLanes(page.items, ASSIGN_CONCURRENCY, (target) =>
        assignment.assignOne(item, target.deviceId, target, tally),
      );
      await assignment.countTaken(tally, `${rolloutId}#${from ?? ''}`);
      const recorded = await rollouts.commitStep(rolloutId, {
        ...(from === undefined ? {} : { from }),
        to: last.deviceId,
        // Gone through, the refused and the ones a later rollout took too: the progress reaches `of`.
        assigned: page.items.length,
        counts: tally.counts,
        skipped: tally.skipped,
        // The stages hold their planned sizes from the start: only a device refused after all leaves its stage.
        stageDevices: refusedByStage(item.stages.length, page.items, tally.refused),
        stageCounts: tally.stageCounts,
        refused: tally.refused,
      });
      if (!recorded) return { rolloutId, done: 'recorded already' };
      await removeRefused({ id: rolloutId, refusedPending: tally.refused });
    }
    const counted = { rolloutId, assigned: tally.pointed.size, refused: tally.refused.length };
    if (last && page.lastKey) {
      await work.send([{ kind: 'prepare', rolloutId }]);
      return { ...counted, next: 'step' };
    }
    const at = now();
    const active = await rollouts.activate(rolloutId, at);
    if (!active) return { rolloutId, done: 'recorded already' };
    const rollout = presentRollout(active);
    if (rollout.counts.targeted === rollout.counts.superseded) {
      // Nothing of its own to offer: halted, so the stage job announces it to the release's staff.
      await targets.halt(rolloutId, {
        halted: at,
        haltedBy: AUTOMATIC,
        haltReason: RELEASE_MESSAGES.rolloutNothingAssigned,
      });
    }
    log('info', 'Rollout prepared', {
      rolloutId,
      targeted: rollout.counts.targeted,
      skipped: rollout.skipped,
    });
    return { ...counted, next: 'active' };
  };

  return {
    /**
     * Works the rollout's next step. `tries` is how many times the queue has handed this message out; on the last
     * (`MAX_RECEIVES.rollouts`) a failure halts the rollout before it is thrown back.
     */
    run: async (rolloutId: string, tries = 1): Promise<PrepareRun> => {
      try {
        return await step(rolloutId);
      } catch (error) {
        if (tries >= MAX_RECEIVES.rollouts) await haltStalled(rolloutId, tries);
        throw error;
      }
    },
  };
};

export type RolloutPrepare = ReturnType<typeof createRolloutPrepare>;
