import { FAILURE_STATES, IN_FLIGHT_STATES, reportKey, stageVerdict } from '../../../shared/code-releases/rollout-rules';
import type { Rollout } from '../../../shared/contracts/code-releases';
import { ROLLOUT_FAILURES_LISTED, type RolloutFailure, type RolloutHalted } from '../../../shared/contracts/events';
import { AUTOMATIC, type DeviceUpdates } from '../../_shared/code-releases/device-updates';
import {
  presentRollout,
  progressPrefix,
  type StoredRollout,
  type StoredTarget,
  stateOf,
} from '../../_shared/code-releases/rollout-item';
import type { RolloutTargets } from '../../_shared/code-releases/rollout-targets';
import type { Log } from '../../_shared/logger';
import type { HaltNotices, Organizations, ReleaseStore, RolloutStore } from './ports';
import { nextStageOf, targetsIn } from './rollouts';

export interface RolloutStagesDeps {
  log: Log;
  rollouts: Pick<RolloutStore, 'live' | 'get' | 'advance' | 'complete' | 'markAnnounced'>;
  targets: Pick<RolloutTargets, 'progressBetween'>;
  updates: Pick<DeviceUpdates, 'move' | 'haltIfDue'>;
  releases: Pick<ReleaseStore, 'get'>;
  organizations: Organizations;
  notices: HaltNotices;
}

/** What one run did, for its log line and for tests. */
export interface StagesRun {
  rollouts: number;
  timedOut: number;
  advanced: { rolloutId: string; stage: number }[];
  completed: string[];
  halted: string[];
  announced: string[];
  failed: string[];
}

const FIRST = '0000000000000';
const pad = (time: number) => String(Math.max(0, time)).padStart(13, '0');

/**
 * The stage job (SCHEDULED_JOBS RolloutStagesJob, every 5 minutes; `now` is the schedule's time). For each rollout on
 * the `live` index: devices offered longer ago than the timeout and not finished become `timed_out` (decision 076);
 * then the current stage is halted when its failures reach the abort criteria, or advanced once it has soaked with
 * enough devices finished under the threshold (the last stage completes); then a halt not yet announced is announced.
 * Every write is conditional (a stage advances only from the stage read, a device times out only if it is still on
 * its way and was offered before the cut-off), so two runs at once do each thing once. A rollout that fails is logged
 * and left for the next run.
 */
export const createRolloutStages = ({
  rollouts,
  targets,
  updates,
  releases,
  organizations,
  notices,
  log,
}: RolloutStagesDeps) => {
  const timeOut = async (item: StoredRollout, rollout: Rollout, now: number): Promise<number> => {
    const cutoff = now - rollout.abort.timeoutSeconds * 1000;
    let count = 0;
    for (let stage = 0; stage <= rollout.currentStage; stage += 1) {
      for (const state of IN_FLIGHT_STATES) {
        const prefix = progressPrefix(stage, state);
        for (const target of await targets.progressBetween(item.id, `${prefix}${FIRST}`, `${prefix}${pad(cutoff)}`)) {
          const moved = await updates.move(target, {
            state: 'timed_out',
            at: now,
            key: reportKey('timed_out', now),
            from: IN_FLIGHT_STATES,
            offeredBy: cutoff,
          });
          if (moved) count += 1;
        }
      }
    }
    return count;
  };

  /** Halts, advances or completes the current stage, as its verdict says. */
  const judge = async (item: StoredRollout, now: number, run: StagesRun) => {
    const rollout = presentRollout(item);
    const stage = rollout.stages[rollout.currentStage]!;
    const verdict = stageVerdict({
      counts: stage.counts,
      ...(item.baseline?.stage === rollout.currentStage ? { baseline: item.baseline } : {}),
      abort: rollout.abort,
      devices: stage.devices,
      soakFrom: item.soakFrom ?? stage.started ?? rollout.created,
      soakSeconds: stage.soakSeconds,
      now,
    });
    if (verdict.kind === 'halt') {
      if (await updates.haltIfDue(item)) run.halted.push(item.id);
      return;
    }
    if (verdict.kind !== 'advance' || rollout.completed !== undefined) return;
    if (rollout.currentStage >= rollout.stages.length - 1) {
      if (await rollouts.complete(item.id, { stage: rollout.currentStage, completed: now }))
        run.completed.push(item.id);
      return;
    }
    const advanced = await rollouts.advance(item.id, {
      from: rollout.currentStage,
      to: nextStageOf(rollout, rollout.currentStage),
      at: now,
    });
    if (advanced) run.advanced.push({ rolloutId: item.id, stage: advanced.currentStage ?? 0 });
  };

  const failureOf = (target: StoredTarget): RolloutFailure => ({
    deviceId: target.deviceId,
    state: stateOf(target) === 'timed_out' ? 'timed_out' : 'failed',
    ...(target.reason ? { reason: target.reason } : {}),
  });

  /**
   * The halt's notifications: one to the release's staff (who made and uploaded the release, who started the rollout,
   * who halted it) with every failure, and one per organization holding devices that were offered the release, to
   * its managers, with its own devices' failures only. Event ids are fixed by the halt, so a run that stops after
   * publishing and publishes again makes no second notification.
   */
  const announce = async (item: StoredRollout, halted: number) => {
    const rollout = presentRollout(item);
    const release = await releases.get(rollout.releaseId);
    const staff = [
      release?.createdBy,
      release?.artifact?.uploadedBy,
      rollout.createdBy,
      rollout.haltedBy === AUTOMATIC ? undefined : rollout.haltedBy,
    ].filter((id): id is string => !!id);
    const lastStage = rollout.stages.findLastIndex((stage) => stage.started !== undefined);
    const failed = (await targetsIn(targets, item.id, lastStage, FAILURE_STATES)).filter((t) => !t.superseded);
    const offered = (
      await targetsIn(targets, item.id, lastStage, [...IN_FLIGHT_STATES, 'succeeded', 'rejected', ...FAILURE_STATES])
    ).map((target) => target.deviceId);
    const byDevice = await organizations.ofDevices(offered);
    const common = {
      kind: 'rollout.halted' as const,
      rolloutId: rollout.id,
      releaseId: rollout.releaseId,
      productLine: rollout.productLine,
      version: rollout.version,
      stageName: rollout.stages[rollout.currentStage]!.name,
      reason: rollout.haltReason ?? 'Halted',
      automatic: rollout.haltedBy === AUTOMATIC,
      actorId: rollout.haltedBy && rollout.haltedBy !== AUTOMATIC ? rollout.haltedBy : rollout.createdBy,
      at: halted,
    };
    const listed = (failures: StoredTarget[]) => ({
      failures: failures.slice(0, ROLLOUT_FAILURES_LISTED).map(failureOf),
      failureCount: failures.length,
    });
    const events: RolloutHalted[] = [
      {
        ...common,
        eventId: `rollout-halted#${rollout.id}#${halted}#staff`,
        audience: { kind: 'staff', userIds: [...new Set(staff)] },
        ...listed(failed),
      },
    ];
    const organizationIds = [...new Set([...byDevice.values()].flat())].sort();
    for (const organizationId of organizationIds) {
      const theirs = failed.filter((target) => byDevice.get(target.deviceId)?.includes(organizationId));
      events.push({
        ...common,
        eventId: `rollout-halted#${rollout.id}#${halted}#organization#${organizationId}`,
        audience: { kind: 'organization', organizationId },
        ...listed(theirs),
      });
    }
    await notices.publish(events);
  };

  const step = async (listed: StoredRollout, now: number, run: StagesRun) => {
    let item = listed;
    if (item.status === 'active') {
      const timedOut = await timeOut(item, presentRollout(item), now);
      run.timedOut += timedOut;
      item = (await rollouts.get(item.id)) ?? item;
      if (item.status === 'active') {
        await judge(item, now, run);
        item = (await rollouts.get(item.id)) ?? item;
      }
    }
    if (item.halted === undefined) return;
    if (item.haltNotified !== item.halted) {
      await announce(item, item.halted);
      run.announced.push(item.id);
    }
    // Recorded only once published: a run that stops in between announces again, under the same event ids.
    if (item.haltNotified !== item.halted || item.status !== 'active')
      await rollouts.markAnnounced(item.id, item.halted);
  };

  return {
    run: async (now: number): Promise<StagesRun> => {
      const live = await rollouts.live();
      const run: StagesRun = {
        rollouts: live.length,
        timedOut: 0,
        advanced: [],
        completed: [],
        halted: [],
        announced: [],
        failed: [],
      };
      for (const item of live) {
        try {
          await step(item, now, run);
        } catch (error) {
          run.failed.push(item.id);
          log('error', 'Rollout stage step failed', {
            rolloutId: item.id,
            error: error instanceof Error ? error.message : String(error),
          });
        }
      }
      return run;
    },
  };
};

export type RolloutStages = ReturnType<typeof createRolloutStages>;
