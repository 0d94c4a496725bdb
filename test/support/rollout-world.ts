import { createDeviceUpdates, type MoveTo } from '../../functions/_shared/code-releases/device-updates';
import {
  LIVE,
  progressOf,
  type StoredRollout,
  type StoredTarget,
  stateOf,
} from '../../functions/_shared/code-releases/rollout-item';
import type { RolloutTargets } from '../../functions/_shared/code-releases/rollout-targets';
import type { AssignRefusal, Fleet, ReleaseStore, RolloutStore } from '../../functions/code-releases/domain/ports';
import type { PrepareMessage } from '../../functions/code-releases/domain/prepare-message';
import type { StoredRelease } from '../../functions/code-releases/domain/records';
import { createRolloutStages } from '../../functions/code-releases/domain/rollout-stages';
import type { Caller } from '../../shared/auth/verify-token';
import type { StageCounts } from '../../shared/code-releases/rollout-rules';
import type { FirmwareTarget } from '../../shared/contracts/devices';
import type { RolloutHalted } from '../../shared/contracts/events';
import { silentLog } from './log';

export interface FakeDevice {
  productLine: string;
  state?: string;
  firmwareVersion?: string;
  firmwareTarget?: FirmwareTarget;
  /** The rollouts that targeted it, oldest first (the devices table's `firmwareHistory`, by rollout). */
  firmwareHistory?: string[];
  organizations?: string[];
}

const IN_FLIGHT = ['pending', 'offered', 'downloading', 'installing'];

/** An administrator as the use cases receive one from a verified token. */
export const staffAdmin = { sub: 'admin-1', email: 'admin@example.com', groups: ['Administrators'] } as Caller;

/** A published sd1 release with a verified artifact: what a rollout may offer. */
export const publishedRelease = (version: string, versionKey: string): StoredRelease => ({
  id: `sd1-${version}`,
  productLine: 'sd1',
  version,
  versionKey,
  notes: '',
  status: 'published',
  created: 1,
  createdBy: 'maker-1',
  updated: 1,
  artifact: {
    key: `releases/sd1-${version}/a`,
    fileName: 'fw.bin',
    size: 10,
    sha256: 'ab'.repeat(32),
    uploaded: 1,
    uploadedBy: 'maker-1',
  },
});

/**
 * In-memory stand-ins for the rollout stores, for unit tests of the use cases: each write keeps the condition the
 * real store's carries (a move only over a lower key, an advance only from the stage read, a halt only while active),
 * so a use case that relies on a condition is tested against it. Integration tests hold the real stores to the same.
 */
export const rolloutWorld = ({
  devices = {} as Record<string, FakeDevice>,
  releases = [] as StoredRelease[],
  failOn,
  now = () => 1_000,
}: {
  devices?: Record<string, FakeDevice>;
  releases?: StoredRelease[];
  failOn?: string;
  now?: () => number;
} = {}) => {
  const rollouts = new Map<string, StoredRollout>();
  const targets = new Map<string, StoredTarget>();
  const counts: { rolloutId: string; change: Record<string, number | undefined> }[] = [];
  const published: RolloutHalted[] = [];
  const rolledOut: string[] = [];
  const keyOf = (rolloutId: string, deviceId: string) => `${rolloutId}/${deviceId}`;
  const clone = <T>(value: T): T => structuredClone(value);
  /** Devices whose assignment throws (a throttled write) until taken out of it. */
  const failing = new Set<string>();
  /** What the rollouts queue was sent, in order. */
  const queued: PrepareMessage[] = [];

  const halt: RolloutTargets['halt'] = async (id, { halted, haltedBy, haltReason }) => {
    const found = rollouts.get(id);
    if (found?.status !== 'active' && found?.status !== 'preparing') return undefined;
    const next = { ...found, status: 'halted' as const, halted, haltedBy, haltReason, live: LIVE };
    rollouts.set(id, next);
    return clone(next);
  };

  const addStageCounts: RolloutTargets['addStageCounts'] = async (rolloutId, stage, change) => {
    const found = rollouts.get(rolloutId);
    const stageCounts = found?.stageCounts?.[String(stage)];
    if (!found || !stageCounts) return undefined;
    for (const [state, n] of Object.entries(change)) {
      stageCounts[state as keyof StageCounts] = (stageCounts[state as keyof StageCounts] ?? 0) + (n ?? 0);
    }
    return clone(found);
  };

  const move = async (target: StoredTarget, to: MoveTo): Promise<StoredTarget | undefined> => {
    const key = keyOf(target.rolloutId, target.deviceId);
    const found = targets.get(key);
    if (!found || found.superseded !== undefined || found.state === 'superseded') return undefined;
    if (found.reportKey !== undefined && found.reportKey >= to.key) return undefined;
    if (to.from && !to.from.includes(stateOf(found))) return undefined;
    if (to.offeredBy !== undefined && !(found.offered !== undefined && found.offered <= to.offeredBy)) return undefined;
    const offered = found.offered ?? to.offered;
    const { reason: _reason, ...rest } = found;
    targets.set(key, {
      ...rest,
      state: to.state,
      stateAt: to.at,
      reportKey: to.key,
      progress: progressOf(found.stage ?? 0, to.state, IN_FLIGHT.includes(to.state) ? (offered ?? to.at) : to.at),
      ...(offered !== undefined ? { offered } : {}),
      ...(to.reason !== undefined ? { reason: to.reason } : {}),
    });
    return clone(found);
  };

  const targetStore: Pick<
    RolloutTargets,
    | 'put'
    | 'putAll'
    | 'removeAll'
    | 'get'
    | 'page'
    | 'progressPage'
    | 'progressBetween'
    | 'supersede'
    | 'setRunning'
    | 'addCounts'
    | 'addStageCounts'
    | 'addTakenCounts'
    | 'halt'
    | 'move'
  > = {
    put: async (target) => {
      targets.set(keyOf(target.rolloutId, target.deviceId), clone(target));
    },
    putAll: async (items) => {
      for (const target of items) targets.set(keyOf(target.rolloutId, target.deviceId), clone(target));
    },
    removeAll: async (rolloutId, deviceIds) => {
      for (const deviceId of deviceIds) targets.delete(keyOf(rolloutId, deviceId));
    },
    get: async (rolloutId, deviceId) => clone(targets.get(keyOf(rolloutId, deviceId))),
    page: async (rolloutId, limit, startKey) => {
      const after = startKey ? String(startKey.deviceId) : undefined;
      const all = [...targets.values()]
        .filter((t) => t.rolloutId === rolloutId && (after === undefined || t.deviceId > after))
        .sort((a, b) => (a.deviceId < b.deviceId ? -1 : 1));
      const items = all.slice(0, limit).map(clone);
      // As DynamoDB does: a page cut at its limit says where the next starts, even when nothing is left.
      return items.length === limit ? { items, lastKey: { rolloutId, deviceId: items.at(-1)!.deviceId } } : { items };
    },
    progressPage: async (rolloutId, prefix) => ({
      items: [...targets.values()]
        .filter((t) => t.rolloutId === rolloutId && t.progress?.startsWith(prefix))
        .sort((a, b) => (a.progress! < b.progress! ? -1 : 1))
        .map(clone),
    }),
    progressBetween: async (rolloutId, from, to) =>
      [...targets.values()]
        .filter((t) => t.rolloutId === rolloutId && t.progress && t.progress >= from && t.progress <= to)
        .map(clone),
    supersede: async (rolloutId, deviceId, at, by) => {
      const found = targets.get(keyOf(rolloutId, deviceId));
      if (found?.supersededBy === by) {
        const { superseded: _at, supersededBy: _by, supersededFrom, ...before } = found;
        return clone({ ...before, state: supersededFrom ?? before.state });
      }
      if (!found || found.superseded !== undefined || found.state === 'superseded') return undefined;
      const leaves = IN_FLIGHT.includes(found.state);
      targets.set(keyOf(rolloutId, deviceId), {
        ...found,
        superseded: at,
        supersededBy: by,
        ...(leaves
          ? {
              state: 'superseded' as const,
              supersededFrom: found.state,
              progress: progressOf(found.stage ?? 0, 'superseded', at),
            }
          : {}),
      });
      return clone(found);
    },
    setRunning: async (rolloutId, deviceId, { version, at, running }) => {
      const found = targets.get(keyOf(rolloutId, deviceId));
      if (!found || found.superseded !== undefined || (found.reported !== undefined && found.reported > at)) {
        return undefined;
      }
      targets.set(keyOf(rolloutId, deviceId), { ...found, reportedVersion: version, reported: at, running });
      return clone(found);
    },
    addCounts: async (rolloutId, change) => {
      counts.push({ rolloutId, change: { ...change } });
      const found = rollouts.get(rolloutId);
      if (!found) return;
      for (const [name, n] of Object.entries(change)) {
        found.counts[name as keyof typeof found.counts] += n ?? 0;
      }
    },
    addStageCounts,
    addTakenCounts: async (rolloutId, step, change, stageCounts) => {
      const found = rollouts.get(rolloutId);
      if (!found || found.takenSteps?.has(step)) return false;
      found.takenSteps = new Set([...(found.takenSteps ?? []), step]);
      counts.push({ rolloutId, change: { ...change } });
      for (const [name, n] of Object.entries(change)) {
        found.counts[name as keyof typeof found.counts] += n ?? 0;
      }
      for (const [stage, stageChange] of stageCounts) await addStageCounts(rolloutId, stage, stageChange);
      return true;
    },
    halt,
    move,
  };

  const rolloutStore: RolloutStore = {
    create: async (rollout) => {
      if (rollouts.has(rollout.id)) return false;
      rollouts.set(rollout.id, clone(rollout));
      return true;
    },
    remove: async (id) => rollouts.delete(id),
    get: async (id) => clone(rollouts.get(id)),
    page: async () => ({ items: [...rollouts.values()].map(clone) }),
    live: async () => [...rollouts.values()].filter((r) => r.live === LIVE).map(clone),
    setAssigned: async (id, { skipped, stageDevices, stageCounts }) => {
      const found = rollouts.get(id)!;
      found.skipped = skipped;
      stageDevices.forEach((n, stage) => {
        found.stages[stage]!.devices = n;
      });
      stageCounts.forEach((change, stage) => {
        const into = found.stageCounts![String(stage)]!;
        for (const [state, n] of Object.entries(change)) into[state as keyof StageCounts] += n ?? 0;
      });
    },
    commitStep: async (id, step) => {
      const found = rollouts.get(id);
      if (found?.status !== 'preparing' || found.prepareCursor !== step.from) return false;
      found.prepareCursor = step.to;
      if (step.refused.length > 0) found.refusedPending = [...step.refused];
      found.preparing!.assigned += step.assigned;
      for (const [name, n] of Object.entries(step.counts)) found.counts[name as keyof typeof found.counts] += n ?? 0;
      for (const [reason, n] of Object.entries(step.skipped)) {
        found.skipped[reason as keyof typeof found.skipped] += n ?? 0;
      }
      step.stageDevices.forEach((n, stage) => {
        found.stages[stage]!.devices += n;
      });
      step.stageCounts.forEach((change, stage) => {
        const into = found.stageCounts![String(stage)]!;
        for (const [state, n] of Object.entries(change)) into[state as keyof StageCounts] += n ?? 0;
      });
      return true;
    },
    clearRefused: async (id) => {
      const found = rollouts.get(id);
      if (found) delete found.refusedPending;
    },
    activate: async (id, at) => {
      const found = rollouts.get(id);
      if (found?.status !== 'preparing' || found.refusedPending) return undefined;
      Object.assign(found, { status: 'active', live: LIVE, soakFrom: at });
      found.stages[0]!.started = at;
      delete found.preparing;
      delete found.prepareCursor;
      return clone(found);
    },
    advance: async (id, { from, to, at }) => {
      const found = rollouts.get(id);
      if (found?.status !== 'active' || (found.currentStage ?? 0) !== from) return undefined;
      for (let stage = from + 1; stage <= to; stage += 1) found.stages[stage]!.started = at;
      found.currentStage = to;
      found.soakFrom = at;
      delete found.baseline;
      return clone(found);
    },
    complete: async (id, { stage, completed }) => {
      const found = rollouts.get(id);
      if (found?.status !== 'active' || (found.currentStage ?? 0) !== stage || found.completed !== undefined) {
        return false;
      }
      found.completed = completed;
      delete found.live;
      return true;
    },
    resume: async (id, { halted, resumed, resumedBy, baseline }) => {
      const found = rollouts.get(id);
      if (found?.status !== 'halted' || found.halted !== halted) return undefined;
      Object.assign(found, { status: 'active', resumed, resumedBy, baseline, soakFrom: resumed, live: LIVE });
      return clone(found);
    },
    resumePreparing: async (id, { halted, resumed, resumedBy }) => {
      const found = rollouts.get(id);
      if (found?.status !== 'halted' || found.halted !== halted || !found.preparing) return undefined;
      Object.assign(found, { status: 'preparing', resumed, resumedBy });
      return clone(found);
    },
    unresumePreparing: async (id, resumed) => {
      const found = rollouts.get(id);
      if (found?.status === 'preparing' && found.resumed === resumed) found.status = 'halted';
    },
    markRolledBack: async (id, rollback) => {
      const found = rollouts.get(id);
      if (!found || found.status === 'rolled-back') return false;
      Object.assign(found, { status: 'rolled-back', rollback });
      return true;
    },
    unmarkRolledBack: async (id, rolloutId) => {
      const found = rollouts.get(id);
      if (found?.rollback?.rolloutId !== rolloutId) return;
      found.status = 'halted';
      delete found.rollback;
    },
    markAnnounced: async (id, halted) => {
      const found = rollouts.get(id);
      if (!found) return;
      found.haltNotified = halted;
      if (found.status !== 'active') delete found.live;
    },
  };

  const releaseStore: Pick<ReleaseStore, 'get' | 'markRolledOut' | 'previousPublished'> = {
    get: async (id) => clone(releases.find((release) => release.id === id)),
    markRolledOut: async (id) => {
      rolledOut.push(id);
    },
    previousPublished: async (productLine, versionKey) =>
      clone(
        releases
          .filter((r) => r.productLine === productLine && r.versionKey < versionKey && r.status === 'published')
          .sort((a, b) => (a.versionKey < b.versionKey ? 1 : -1))[0],
      ),
  };

  const refusalOf = (id: string, productLine: string): AssignRefusal | undefined => {
    const device = devices[id];
    if (!device) return 'unknown';
    if (device.state === 'retired') return 'retired';
    return device.productLine === productLine ? undefined : 'otherProductLine';
  };
  const fleet: Pick<Fleet, 'nameOf' | 'devicesOf' | 'standing' | 'assign'> = {
    nameOf: async () => 'Northside',
    devicesOf: async () => Object.keys(devices),
    standing: async (ids, productLine) =>
      new Map(
        ids.map((id) => {
          const refused = refusalOf(id, productLine);
          const firmwareVersion = devices[id]?.firmwareVersion;
          return [id, refused ? { refused } : firmwareVersion ? { firmwareVersion } : {}];
        }),
      ),
    assign: async (id, productLine, target) => {
      if (id === failOn || failing.has(id)) throw new Error('throttled');
      const device = devices[id];
      if (device?.firmwareTarget?.rolloutId === target.rolloutId) {
        const history = device.firmwareHistory ?? [];
        const previous = history[history.lastIndexOf(target.rolloutId) - 1];
        return {
          already: true,
          ...(device.firmwareVersion ? { firmwareVersion: device.firmwareVersion } : {}),
          ...(previous ? { previousRolloutId: previous } : {}),
        };
      }
      const refused = refusalOf(id, productLine);
      if (refused) return { refused };
      const current = device!.firmwareTarget;
      if (current && current.assigned > target.assigned) {
        return { takenBy: { rolloutId: current.rolloutId, assigned: current.assigned } };
      }
      const before = { ...device! };
      device!.firmwareTarget = target;
      device!.firmwareHistory = [...(device!.firmwareHistory ?? []), target.rolloutId];
      return {
        ...(before.firmwareVersion ? { firmwareVersion: before.firmwareVersion } : {}),
        ...(before.firmwareTarget ? { previousRolloutId: before.firmwareTarget.rolloutId } : {}),
      };
    },
  };

  const updates = createDeviceUpdates({ store: targetStore, now, log: silentLog });
  return {
    rollouts,
    targets,
    failing,
    queued,
    work: {
      send: async (messages: readonly PrepareMessage[]) => {
        queued.push(...messages);
      },
    },
    counts,
    published,
    rolledOut,
    devices,
    rolloutStore,
    targetStore,
    releaseStore,
    fleet,
    updates,
    organizations: {
      ofDevices: async (ids: readonly string[]) => new Map(ids.map((id) => [id, devices[id]?.organizations ?? []])),
    },
    notices: {
      publish: async (events: readonly RolloutHalted[]) => {
        published.push(...events);
      },
    },
    target: (rolloutId: string, deviceId: string) => targets.get(keyOf(rolloutId, deviceId)),
  };
};

/** The stage job over a world's stores, as the scheduled job builds it. */
export const rolloutStagesOf = (world: ReturnType<typeof rolloutWorld>) =>
  createRolloutStages({
    log: silentLog,
    rollouts: world.rolloutStore,
    targets: world.targetStore,
    updates: world.updates,
    releases: world.releaseStore,
    organizations: world.organizations,
    notices: world.notices,
  });
