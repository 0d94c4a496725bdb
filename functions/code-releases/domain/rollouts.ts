import type { Caller } from '../../../shared/auth/verify-token';
import { RELEASE_MESSAGES } from '../../../shared/code-releases/messages';
import { rolloutGate } from '../../../shared/code-releases/rollout-gate';
import {
  DEFAULT_ABORT,
  DEFAULT_STAGES,
  DEVICE_UPDATE_STATES,
  type DeviceUpdateState,
  type StagePlan,
  stageNameOf,
  tallyOf,
} from '../../../shared/code-releases/rollout-rules';
import {
  type codeReleases,
  ROLLOUT_INLINE_DEVICES,
  ROLLOUT_MAX_DEVICES,
  type Rollout,
  type RolloutDevice,
  type RolloutTarget,
} from '../../../shared/contracts/code-releases';
import type { ParsedRequest } from '../../../shared/contracts/define-route';
import { MESSAGES } from '../../../shared/messages';
import {
  LIVE,
  presentRollout,
  presentTarget,
  progressPrefix,
  type StoredRollout,
  type StoredTarget,
} from '../../_shared/code-releases/rollout-item';
import type { RolloutTargets } from '../../_shared/code-releases/rollout-targets';
import { BadRequest, Conflict, NotFound, ServiceUnavailable } from '../../_shared/errors';
import { inLanes } from '../../_shared/in-lanes';
import type { Log } from '../../_shared/logger';
import { pageAcross } from '../../_shared/paging';
import type { QueueSender } from '../../_shared/queue/queue-sender';
import { ASSIGN_CONCURRENCY, createAssignment, newTally, targetOf } from './assignment';
import type { Fleet, People, ReleaseStore, RolloutStore, TestRunStore } from './ports';
import type { PrepareMessage } from './prepare-message';
import type { StoredRelease } from './records';
import { stageMembership } from './stage-membership';

type Body<R extends keyof typeof codeReleases.routes> = ParsedRequest<(typeof codeReleases.routes)[R]>['body'];

export interface RolloutsDeps {
  log: Log;
  releases: Pick<ReleaseStore, 'get' | 'markRolledOut' | 'previousPublished'>;
  testRuns: Pick<TestRunStore, 'results'>;
  rollouts: RolloutStore;
  targets: Pick<
    RolloutTargets,
    | 'put'
    | 'putAll'
    | 'removeAll'
    | 'page'
    | 'progressPage'
    | 'progressBetween'
    | 'supersede'
    | 'addCounts'
    | 'addStageCounts'
    | 'addTakenCounts'
    | 'halt'
  >;
  fleet: Pick<Fleet, 'nameOf' | 'devicesOf' | 'standing' | 'assign'>;
  /** The rollouts queue: a rollout too large to assign in its request is assigned there, a step a message. */
  work: Pick<QueueSender<PrepareMessage>, 'send'>;
  /**
   * The most devices a request assigns itself (ROLLOUT_INLINE_DEVICES); a browser test sets 0 to hold a small rollout
   * in `preparing` while it looks at it.
   */
  inlineDevices?: number;
  people: People;
  now: () => number;
  newId: () => string;
}

/** The lowest and highest `since` of a progress key: every device of a stage in a state lies between. */
const FIRST = '0000000000000';
const LAST = '9999999999999';

/** Every device of the rollout's stages (up to `lastStage`) in one of the states, read through the progress index. */
export const targetsIn = async (
  targets: Pick<RolloutTargets, 'progressBetween'>,
  rolloutId: string,
  lastStage: number,
  states: readonly DeviceUpdateState[],
): Promise<StoredTarget[]> => {
  const found: StoredTarget[] = [];
  for (let stage = 0; stage <= lastStage; stage += 1) {
    for (const state of states) {
      const prefix = progressPrefix(stage, state);
      found.push(...(await targets.progressBetween(rolloutId, `${prefix}${FIRST}`, `${prefix}${LAST}`)));
    }
  }
  return found;
};

/**
 * The stage to start after `from`: the next one, and past any that holds no device (nothing to learn from it),
 * never past the last.
 */
export const nextStageOf = (rollout: Rollout, from: number): number => {
  let next = from + 1;
  while (next < rollout.stages.length - 1 && rollout.stages[next]!.devices === 0) next += 1;
  return next;
};

/**
 * Rollouts (docs/code-releases.md): a published release whose latest test result is a Pass, assigned to devices of
 * its product line in stages (a canary first, then growing shares), each device's stage chosen once and written on
 * its target. Each device's record points at the rollout (`firmwareTarget`, with its stage), a target record keeps
 * its update state, and the rollout's counters say how many of each stage are where: read from one item, never
 * counted. The stage job (rollout-stages.ts) advances, times out and halts by itself; these are what a person does.
 */
export const createRollouts = ({
  releases,
  testRuns,
  rollouts,
  targets,
  fleet,
  people,
  work,
  inlineDevices = ROLLOUT_INLINE_DEVICES,
  now,
  newId,
  log,
}: RolloutsDeps) => {
  const emailOf = async (caller: Caller) => caller.email ?? (await people.emailOf(caller.sub));
  /** The devices a target names, and what to call it. */
  const resolve = async (target: RolloutTarget): Promise<{ deviceIds: string[]; label: string }> => {
    if (target.kind === 'devices') {
      const deviceIds = [...new Set(target.deviceIds)];
      return { deviceIds, label: deviceIds.length === 1 ? deviceIds[0]! : `${deviceIds.length} devices` };
    }
    const id = target.kind === 'campaign' ? target.campaignId : target.organizationId;
    const name = await fleet.nameOf(target.kind, id);
    if (name === undefined) throw new BadRequest(RELEASE_MESSAGES.rolloutTargetMissing(target.kind, id));
    return { deviceIds: [...new Set(await fleet.devicesOf(target.kind, id))], label: name };
  };

  const find = async (id: string): Promise<StoredRollout> => {
    const rollout = await rollouts.get(id);
    if (!rollout) throw new NotFound(RELEASE_MESSAGES.rolloutNotFound(id));
    return rollout;
  };

  const assignment = createAssignment({ fleet, targets });

  /**
   * Starts a rollout of a release to devices: its stages' shares chosen now, the first stage started at once, each
   * device pointed at it; the devices of another product line, retired or unknown are counted as skipped.
   */
  const start = async (
    caller: Caller,
    release: StoredRelease,
    input: {
      target: RolloutTarget;
      note?: string;
      stages: readonly StagePlan[];
      abort: Rollout['abort'];
      id?: string;
      rollbackOf?: string;
    },
  ): Promise<StoredRollout> => {
    const { deviceIds, label } = await resolve(input.target);
    if (deviceIds.length === 0) throw new BadRequest(RELEASE_MESSAGES.rolloutNoDevices(release.productLine, label));
    if (deviceIds.length > ROLLOUT_MAX_DEVICES) {
      throw new BadRequest(RELEASE_MESSAGES.rolloutTooMany(deviceIds.length, ROLLOUT_MAX_DEVICES));
    }
    const inTarget = new Set(deviceIds);
    input.stages.forEach((stage, index) => {
      const outside = (stage.deviceIds ?? []).find((id) => !inTarget.has(id));
      if (outside) {
        throw new BadRequest(
          RELEASE_MESSAGES.rolloutStageDeviceOutside(outside, stageNameOf(stage, index, input.stages.length)),
        );
      }
    });
    if (!release.artifact)
      throw new Conflict(RELEASE_MESSAGES.releaseNotPublished(release.productLine, release.version));
    // The stages are shares of the devices the rollout reaches: a device it will skip (another product line, retired,
    // unknown) takes no stage's place, or a canary of one could be a device that is never assigned.
    const standing = await fleet.standing(deviceIds, release.productLine);
    const skipped: Rollout['skipped'] = { otherProductLine: 0, retired: 0, unknown: 0 };
    const reached: string[] = [];
    const runsAlready = new Set<string>();
    for (const deviceId of deviceIds) {
      const found = standing.get(deviceId) ?? { refused: 'unknown' };
      if ('refused' in found) {
        skipped[found.refused] += 1;
        continue;
      }
      reached.push(deviceId);
      if (found.firmwareVersion === release.version) runsAlready.add(deviceId);
    }
    if (reached.length === 0) throw new BadRequest(RELEASE_MESSAGES.rolloutNoDevices(release.productLine, label));
    // Too many devices to point at it in the request: a queue job does that, in steps (decision 114).
    const preparing = reached.length > inlineDevices;
    const created = now();
    const id = input.id ?? newId();
    const membership = stageMembership(id, reached, input.stages, runsAlready);
    const planned = input.stages.map((_, index) => [...membership.values()].filter((s) => s === index).length);
    const rollout: StoredRollout = {
      id,
      releaseId: release.id,
      productLine: release.productLine,
      version: release.version,
      target: input.target,
      targetLabel: label,
      status: preparing ? 'preparing' : 'active',
      stages: input.stages.map((stage, index) => ({
        name: stageNameOf(stage, index, input.stages.length),
        percent: stage.percent,
        ...(stage.deviceIds?.length ? { deviceIds: [...stage.deviceIds] } : {}),
        soakSeconds: stage.soakSeconds,
        // Planned from the target; set to the devices assigned once they are (a preparing rollout's steps take out
        // the devices they could not assign).
        devices: planned[index]!,
        ...(index === 0 && !preparing ? { started: created } : {}),
      })),
      currentStage: 0,
      abort: input.abort,
      stageCounts: Object.fromEntries(
        input.stages.map((_, index) => [
          String(index),
          Object.fromEntries(DEVICE_UPDATE_STATES.map((state) => [state, 0])),
        ]),
      ) as StoredRollout['stageCounts'],
      ...(preparing ? { preparing: { assigned: 0, of: reached.length } } : { soakFrom: created, live: LIVE }),
      counts: { targeted: 0, adopted: 0, superseded: 0 },
      skipped,
      artifact: {
        key: release.artifact.key,
        fileName: release.artifact.fileName,
        size: release.artifact.size,
        sha256: release.artifact.sha256,
      },
      ...(input.note ? { note: input.note } : {}),
      ...(input.rollbackOf ? { rollbackOf: input.rollbackOf } : {}),
      created,
      createdBy: caller.sub,
      ...(await emailOf(caller).then((email) => (email ? { createdByEmail: email } : {}))),
    };
    // From its first rollout on, the release is what devices verify against: the store refuses to change it.
    await releases.markRolledOut(release.id, created);
    if (!(await rollouts.create(rollout))) throw new ServiceUnavailable(MESSAGES.changeUndone);
    // Every target first, by batches: a device then never points at the rollout without its target.
    const firstTargets = reached.map((deviceId) => {
      const found = standing.get(deviceId) as { firmwareVersion?: string };
      return targetOf(rollout, deviceId, membership.get(deviceId)!, found.firmwareVersion);
    });
    if (preparing) {
      try {
        await targets.putAll(firstTargets);
        await work.send([{ kind: 'prepare', rolloutId: rollout.id }]);
      } catch (error) {
        log('error', 'Rollout preparation could not start', {
          rolloutId: rollout.id,
          error: error instanceof Error ? error.message : String(error),
        });
        // Nothing points at it yet: the rollout and its targets go, and the person starts it again.
        await targets.removeAll(rollout.id, reached);
        await rollouts.remove(rollout.id);
        throw new ServiceUnavailable(MESSAGES.changeUndone);
      }
      return rollout;
    }
    const tally = newTally(input.stages.length, rollout.skipped);
    // The first failure stops the lanes from taking more devices, and the ones under way finish before the rollout
    // is set straight: what it then lists and counts is what points at it.
    let failure: { error: unknown } | undefined;
    try {
      await targets.putAll(firstTargets);
    } catch (error) {
      failure = { error };
    }
    if (!failure) {
      await inLanes(firstTargets, ASSIGN_CONCURRENCY, async (target) => {
        if (failure) return;
        try {
          await assignment.assignOne(rollout, target.deviceId, target, tally);
        } catch (error) {
          failure ??= { error };
        }
      });
    }
    if (failure) {
      log('error', 'Rollout assignment failed', {
        rolloutId: rollout.id,
        pointed: tally.pointed.size,
        of: firstTargets.length,
        error: failure.error instanceof Error ? failure.error.message : String(failure.error),
      });
      // The devices assigned point at a halted rollout, so none is offered a release half-assigned.
      await targets.halt(rollout.id, {
        halted: now(),
        haltedBy: caller.sub,
        haltReason: RELEASE_MESSAGES.rolloutAssignmentFailed,
      });
      // The targets of devices never pointed at it go (decision 098): they are not in this rollout, and a new
      // rollout takes them. Its stages are the devices it has, so a resume goes on with those.
      const unreached = firstTargets.map(({ deviceId }) => deviceId).filter((deviceId) => !tally.pointed.has(deviceId));
      await targets.removeAll(rollout.id, unreached);
      await targets.addCounts(rollout.id, tally.counts);
      await rollouts.setAssigned(rollout.id, {
        skipped: tally.skipped,
        stageDevices: tally.stageDevices,
        stageCounts: tally.stageCounts,
      });
      await assignment.countTaken(tally);
      throw new ServiceUnavailable(RELEASE_MESSAGES.rolloutAssignmentFailed);
    }
    await assignment.countTaken(tally);
    if (tally.refused.length > 0) await targets.removeAll(rollout.id, tally.refused);
    if (!tally.counts.targeted) {
      // Nothing was assigned, so nothing points at it: the rollout never happened.
      await rollouts.remove(rollout.id);
      throw new BadRequest(RELEASE_MESSAGES.rolloutNoDevices(release.productLine, label));
    }
    await targets.addCounts(rollout.id, tally.counts);
    await rollouts.setAssigned(rollout.id, {
      skipped: tally.skipped,
      stageDevices: tally.stageDevices,
      stageCounts: tally.stageCounts,
    });
    return (await rollouts.get(rollout.id)) ?? rollout;
  };

  /**
   * A rollout halted before it was active goes on assigning its devices from the step recorded last (decision 114's
   * addendum); it offers nothing until every device is assigned, as before its halt.
   */
  const resumePreparing = async (caller: Caller, rolloutId: string, halted: number): Promise<Rollout> => {
    const at = now();
    const resumed = await rollouts.resumePreparing(rolloutId, { halted, resumed: at, resumedBy: caller.sub });
    if (!resumed) throw new Conflict(RELEASE_MESSAGES.rolloutChanged);
    try {
      await work.send([{ kind: 'prepare', rolloutId }]);
    } catch (error) {
      log('error', 'Rollout preparation could not resume', {
        rolloutId,
        error: error instanceof Error ? error.message : String(error),
      });
      // Without its step nothing would move it on: halted again, the person can resume it once more.
      await rollouts.unresumePreparing(rolloutId, at);
      throw new ServiceUnavailable(MESSAGES.changeUndone);
    }
    log('info', 'Rollout resumed while preparing', { rolloutId, by: caller.sub });
    return presentRollout(resumed);
  };

  return {
    /**
     * Starts a rollout when the gate is open (else 409 with its reason), in the stages asked for or the default ones
     * (canary, 5 %, 25 %, 100 %, a day each; halting by `DEFAULT_ABORT`, decision 079).
     */
    create: async (caller: Caller, releaseId: string, input: Body<'createRollout'>): Promise<Rollout> => {
      const release = await releases.get(releaseId);
      if (!release) throw new NotFound(RELEASE_MESSAGES.releaseNotFound(releaseId));
      const gate = rolloutGate(release, await testRuns.results(releaseId));
      if (!gate.open) throw new Conflict(gate.reason);
      const started = await start(caller, release, {
        target: input.target,
        ...(input.note ? { note: input.note } : {}),
        stages: input.stages ?? DEFAULT_STAGES,
        abort: { ...DEFAULT_ABORT, ...input.abort },
      });
      return presentRollout(started);
    },

    get: async (rolloutId: string): Promise<Rollout> => presentRollout(await find(rolloutId)),

    list: async (releaseId: string, page: { limit: number; cursor?: string }) => {
      if (!(await releases.get(releaseId))) throw new NotFound(RELEASE_MESSAGES.releaseNotFound(releaseId));
      const found = await pageAcross([(startKey, limit) => rollouts.page(releaseId, limit, startKey)], page);
      return { items: found.items.map(presentRollout), nextCursor: found.nextCursor };
    },

    /** A rollout's devices: all of them by id, or one stage's, one state's (across stages), or both, by progress. */
    devices: async (
      rolloutId: string,
      { stage, state, ...page }: { limit: number; cursor?: string; stage?: number; state?: DeviceUpdateState },
    ): Promise<{ items: RolloutDevice[]; nextCursor?: string }> => {
      const rollout = presentRollout(await find(rolloutId));
      const prefixes =
        stage !== undefined
          ? [progressPrefix(stage, state)]
          : state !== undefined
            ? rollout.stages.map((_, index) => progressPrefix(index, state))
            : undefined;
      const found = await pageAcross(
        prefixes
          ? prefixes.map((prefix) => (startKey, limit) => targets.progressPage(rolloutId, prefix, limit, startKey))
          : [(startKey, limit) => targets.page(rolloutId, limit, startKey)],
        page,
      );
      return { items: found.items.map(presentTarget), nextCursor: found.nextCursor };
    },

    /** Halting is the safe direction: any staff member may stop a rollout that looks wrong. */
    halt: async (caller: Caller, rolloutId: string, reason: string): Promise<Rollout> => {
      const halted = await targets.halt(rolloutId, { halted: now(), haltedBy: caller.sub, haltReason: reason });
      if (halted) return presentRollout(halted);
      const found = await find(rolloutId);
      throw new Conflict(
        found.status === 'halted' ? RELEASE_MESSAGES.rolloutHalted : RELEASE_MESSAGES.rolloutRolledBack,
      );
    },

    /** "Advance now": the next stage starts without waiting for the soak (the stage job's conditions are skipped). */
    advance: async (caller: Caller, rolloutId: string, fromStage?: number): Promise<Rollout> => {
      const found = presentRollout(await find(rolloutId));
      if (found.status !== 'active') throw new Conflict(RELEASE_MESSAGES.rolloutNotActive(found.status));
      if (fromStage !== undefined && fromStage !== found.currentStage) {
        throw new Conflict(RELEASE_MESSAGES.rolloutAdvancedAlready(found.stages[found.currentStage]!.name));
      }
      if (found.currentStage >= found.stages.length - 1) throw new Conflict(RELEASE_MESSAGES.rolloutLastStage);
      const advanced = await rollouts.advance(rolloutId, {
        from: found.currentStage,
        to: nextStageOf(found, found.currentStage),
        at: now(),
      });
      if (!advanced)
        throw new Conflict(RELEASE_MESSAGES.rolloutAdvancedAlready(found.stages[found.currentStage]!.name));
      log('info', 'Rollout advanced by hand', { rolloutId, by: caller.sub, stage: advanced.currentStage });
      return presentRollout(advanced);
    },

    /**
     * Offers start again. What the current stage had finished and failed is set aside (decision 076): the criteria
     * judge what comes after the resume, and the stage soaks again from now.
     */
    resume: async (caller: Caller, rolloutId: string): Promise<Rollout> => {
      const item = await find(rolloutId);
      const found = presentRollout(item);
      if (found.status !== 'halted' || found.halted === undefined) {
        throw new Conflict(RELEASE_MESSAGES.rolloutNotHalted(found.status));
      }
      if (item.preparing !== undefined) return resumePreparing(caller, rolloutId, found.halted);
      const stage = found.stages[found.currentStage]!;
      const resumed = await rollouts.resume(rolloutId, {
        halted: found.halted,
        resumed: now(),
        resumedBy: caller.sub,
        baseline: { stage: found.currentStage, ...tallyOf(stage.counts) },
      });
      if (!resumed) throw new Conflict(RELEASE_MESSAGES.rolloutChanged);
      return presentRollout(resumed);
    },

    /**
     * Roll back: the rollout is halted and marked rolled back, and the product line's previous published release is
     * offered, as a rollout of its own (one stage, no soak), to the devices that installed this one. The test gate
     * does not apply: a release that ran on these devices before is the way back, not a new build.
     */
    rollback: async (caller: Caller, rolloutId: string, reason: string): Promise<Rollout> => {
      const item = await find(rolloutId);
      if (item.status === 'rolled-back') throw new Conflict(RELEASE_MESSAGES.rolloutRolledBack);
      if (item.status === 'preparing') throw new Conflict(RELEASE_MESSAGES.rolloutPreparing);
      const release = await releases.get(item.releaseId);
      if (!release) throw new NotFound(RELEASE_MESSAGES.releaseNotFound(item.releaseId));
      const previous = await releases.previousPublished(release.productLine, release.versionKey);
      if (!previous) throw new Conflict(RELEASE_MESSAGES.rolloutNoPrevious(release.productLine, release.version));
      const rollout = presentRollout(item);
      const installed = (await targetsIn(targets, rolloutId, rollout.stages.length - 1, ['succeeded']))
        .filter((target) => target.superseded === undefined)
        .map((target) => target.deviceId);
      if (installed.length === 0) throw new Conflict(RELEASE_MESSAGES.rolloutNothingInstalled);
      const at = now();
      await targets.halt(rolloutId, { halted: at, haltedBy: caller.sub, haltReason: `Rolled back: ${reason}` });
      const rollbackId = newId();
      const marked = await rollouts.markRolledBack(rolloutId, {
        rolloutId: rollbackId,
        releaseId: previous.id,
        version: previous.version,
        devices: installed.length,
        at,
        by: caller.sub,
        reason,
      });
      if (!marked) throw new Conflict(RELEASE_MESSAGES.rolloutRolledBack);
      try {
        await start(caller, previous, {
          id: rollbackId,
          rollbackOf: rolloutId,
          target: { kind: 'devices', deviceIds: installed },
          note: `Rollback of ${release.productLine} ${release.version}: ${reason}`.slice(0, 500),
          stages: [{ name: 'Rollback', percent: 100, soakSeconds: 0 }],
          abort: item.abort ?? DEFAULT_ABORT,
        });
      } catch (error) {
        await rollouts.unmarkRolledBack(rolloutId, rollbackId);
        throw error;
      }
      return presentRollout(await find(rolloutId));
    },
  };
};

export type Rollouts = ReturnType<typeof createRollouts>;
