import type { Caller } from '../../../shared/auth/verify-token';
import { RELEASE_MESSAGES } from '../../../shared/code-releases/messages';
import { rolloutGate } from '../../../shared/code-releases/rollout-gate';
import {
  type codeReleases,
  ROLLOUT_MAX_DEVICES,
  type Rollout,
  type RolloutDevice,
  type RolloutTarget,
} from '../../../shared/contracts/code-releases';
import type { ParsedRequest } from '../../../shared/contracts/define-route';
import type { FirmwareTarget } from '../../../shared/contracts/devices';
import { MESSAGES } from '../../../shared/messages';
import type { CountChange } from '../../_shared/code-releases/adoption';
import type { RolloutTargets, StoredTarget } from '../../_shared/code-releases/rollout-targets';
import { BadRequest, Conflict, NotFound, ServiceUnavailable } from '../../_shared/errors';
import type { Log } from '../../_shared/logger';
import { pageAcross } from '../../_shared/paging';
import type { Fleet, People, ReleaseStore, RolloutStore, TestRunStore } from './ports';

type Body<R extends keyof typeof codeReleases.routes> = ParsedRequest<(typeof codeReleases.routes)[R]>['body'];

export interface RolloutsDeps {
  log: Log;
  releases: Pick<ReleaseStore, 'get'>;
  testRuns: Pick<TestRunStore, 'results'>;
  rollouts: RolloutStore;
  targets: Pick<RolloutTargets, 'put' | 'page' | 'supersede' | 'addCounts'>;
  fleet: Pick<Fleet, 'nameOf' | 'devicesOf' | 'assign'>;
  people: People;
  now: () => number;
  newId: () => string;
}

/** Devices assigned at once: enough to finish 1,000 well inside API Gateway's 29 s, few enough not to throttle. */
const ASSIGN_CONCURRENCY = 10;

const presentTarget = ({ releaseId: _r, version: _v, ...device }: StoredTarget): RolloutDevice => device;

/**
 * Rollouts (docs/code-releases.md): a published release whose latest test result is a Pass, assigned to devices of
 * its product line. Each device's record points at the rollout (`firmwareTarget`), a target record keeps its update
 * state, and the rollout's counters say how many run the release: adoption is read from one item, never counted.
 */
export const createRollouts = ({
  releases,
  testRuns,
  rollouts,
  targets,
  fleet,
  people,
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

  /** Assigns one device; what it changes in counts (this rollout's and the one it takes the device from). */
  const assignOne = async (rollout: Rollout, deviceId: string, skipped: Rollout['skipped'], counts: CountChange) => {
    const firmwareTarget: FirmwareTarget = {
      releaseId: rollout.releaseId,
      rolloutId: rollout.id,
      version: rollout.version,
      assigned: rollout.created,
    };
    const assigned = await fleet.assign(deviceId, rollout.productLine, firmwareTarget);
    if ('refused' in assigned) {
      skipped[assigned.refused] += 1;
      return;
    }
    const runs = assigned.firmwareVersion === rollout.version;
    await targets.put({
      rolloutId: rollout.id,
      deviceId,
      releaseId: rollout.releaseId,
      version: rollout.version,
      state: runs ? 'updated' : 'pending',
      assigned: rollout.created,
      ...(assigned.firmwareVersion ? { reportedVersion: assigned.firmwareVersion } : {}),
    });
    counts.targeted = (counts.targeted ?? 0) + 1;
    if (runs) counts.adopted = (counts.adopted ?? 0) + 1;
    const previous = assigned.previousTarget;
    if (previous && previous.rolloutId !== rollout.id) {
      const before = await targets.supersede(previous.rolloutId, deviceId, rollout.created);
      if (before !== undefined) {
        await targets.addCounts(previous.rolloutId, { superseded: 1, adopted: before === 'updated' ? -1 : 0 });
      }
    }
  };

  return {
    /**
     * Starts a rollout when the gate is open (else 409 with its reason), assigning the target's devices of the
     * release's product line; the others are counted as skipped, by why.
     */
    create: async (caller: Caller, releaseId: string, input: Body<'createRollout'>): Promise<Rollout> => {
      const release = await releases.get(releaseId);
      if (!release) throw new NotFound(RELEASE_MESSAGES.releaseNotFound(releaseId));
      const gate = rolloutGate(release, await testRuns.results(releaseId));
      if (!gate.open) throw new Conflict(gate.reason);
      const { deviceIds, label } = await resolve(input.target);
      if (deviceIds.length === 0) throw new BadRequest(RELEASE_MESSAGES.rolloutNoDevices(release.productLine, label));
      if (deviceIds.length > ROLLOUT_MAX_DEVICES) {
        throw new BadRequest(RELEASE_MESSAGES.rolloutTooMany(deviceIds.length, ROLLOUT_MAX_DEVICES));
      }
      const created = now();
      const rollout: Rollout = {
        id: newId(),
        releaseId,
        productLine: release.productLine,
        version: release.version,
        target: input.target,
        targetLabel: label,
        status: 'active',
        // One stage of every device today; staged rollouts (not built yet) add more.
        stages: [{ name: 'All targeted devices', percent: 100, started: created }],
        counts: { targeted: 0, adopted: 0, superseded: 0 },
        skipped: { otherProductLine: 0, retired: 0, unknown: 0 },
        ...(input.note ? { note: input.note } : {}),
        created,
        createdBy: caller.sub,
        ...(await emailOf(caller).then((email) => (email ? { createdByEmail: email } : {}))),
      };
      if (!(await rollouts.create(rollout))) throw new ServiceUnavailable(MESSAGES.changeUndone);
      const skipped = { ...rollout.skipped };
      const counts: CountChange = {};
      try {
        for (let start = 0; start < deviceIds.length; start += ASSIGN_CONCURRENCY) {
          await Promise.all(
            deviceIds.slice(start, start + ASSIGN_CONCURRENCY).map((id) => assignOne(rollout, id, skipped, counts)),
          );
        }
      } catch (error) {
        log('error', 'Rollout assignment failed', {
          rolloutId: rollout.id,
          error: error instanceof Error ? error.message : String(error),
        });
        // The devices assigned point at a halted rollout, so none is offered a release half-assigned.
        await rollouts.halt(rollout.id, {
          halted: now(),
          haltedBy: caller.sub,
          haltReason: RELEASE_MESSAGES.rolloutAssignmentFailed,
        });
        await targets.addCounts(rollout.id, counts);
        throw new ServiceUnavailable(RELEASE_MESSAGES.rolloutAssignmentFailed);
      }
      if (!counts.targeted) {
        // Nothing was assigned, so nothing points at it: the rollout never happened.
        await rollouts.remove(rollout.id);
        throw new BadRequest(RELEASE_MESSAGES.rolloutNoDevices(release.productLine, label));
      }
      await targets.addCounts(rollout.id, counts);
      await rollouts.setSkipped(rollout.id, skipped);
      return (await rollouts.get(rollout.id)) ?? rollout;
    },

    list: async (releaseId: string, page: { limit: number; cursor?: string }) => {
      if (!(await releases.get(releaseId))) throw new NotFound(RELEASE_MESSAGES.releaseNotFound(releaseId));
      return pageAcross([(startKey, limit) => rollouts.page(releaseId, limit, startKey)], page);
    },

    devices: async (rolloutId: string, page: { limit: number; cursor?: string }) => {
      if (!(await rollouts.get(rolloutId))) throw new NotFound(RELEASE_MESSAGES.rolloutNotFound(rolloutId));
      const found = await pageAcross([(startKey, limit) => targets.page(rolloutId, limit, startKey)], page);
      return { items: found.items.map(presentTarget), nextCursor: found.nextCursor };
    },

    /** Halting is the safe direction: any staff member may stop a rollout that looks wrong. */
    halt: async (caller: Caller, rolloutId: string, reason: string): Promise<Rollout> => {
      const halted = await rollouts.halt(rolloutId, { halted: now(), haltedBy: caller.sub, haltReason: reason });
      if (halted) return halted;
      if (!(await rollouts.get(rolloutId))) throw new NotFound(RELEASE_MESSAGES.rolloutNotFound(rolloutId));
      throw new Conflict(RELEASE_MESSAGES.rolloutHalted);
    },
  };
};

export type Rollouts = ReturnType<typeof createRollouts>;
