import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomUUID } from 'node:crypto';
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { getDocumentClient, getS3Client, getSqsClient } from '../../functions/_shared/clients';
import { batchWriteAll } from '../../functions/_shared/dynamodb';
import { readEnv } from '../../functions/_shared/env';
import { CODE_RELEASES_ENV, createCodeReleasesDeps, createRolloutStagesDeps } from '../../functions/code-releases/deps';
import type { StoredRelease } from '../../functions/code-releases/domain/records';
import { createRollouts } from '../../functions/code-releases/domain/rollouts';
import { createDataIngressDeps, readDataIngressEnv } from '../../functions/data-ingress/deps';
import { createFirmwareOffer } from '../../functions/data-ingress/domain/firmware-offer';
import { createFirmwareStatus } from '../../functions/data-ingress/domain/firmware-status';
import type { RunningStack } from '../../infra/local/stack';
import type { Caller } from '../../shared/auth/verify-token';
import {
  cumulativeSizes,
  DEFAULT_ABORT,
  DEFAULT_STAGES,
  HALT_CONFIDENCE_PERCENT,
  type StageTally,
  shouldHalt,
} from '../../shared/code-releases/rollout-rules';
import { parseSemVer, versionSortKey } from '../../shared/code-releases/semver';
import { ROLLOUT_INLINE_DEVICES } from '../../shared/contracts/code-releases';
import { silentLog } from '../support/log';
import { rolloutStagesOf, rolloutWorld } from '../support/rollout-world';
import { AWS_PRICES } from './aws-prices';
import { seeded } from './seeded';

/**
 * Staged rollouts (issue 40, decision 079): a simulated fleet of 1,000 devices polling for firmware and reporting what
 * became of the update, with a healthy release (2 % of devices fail) and a bad one (30 %), on a simulated clock (the
 * days a rollout takes pass in a loop of simulated minutes; nothing waits). Three parts, each saying where it runs:
 *
 * 1. The abort rule alone (shared/code-releases/rollout-rules.ts) over many seeded fleets, in process: how often the
 *    bad release halts with at most 2 % of the fleet offered and the healthy one reaches 100 % (the issue's goals),
 *    beside the issue's literal rule (10 % of finished after 3) that decision 077 measured.
 * 2. Seeded fleets of 1,000 through the real use cases (the rollout's start, the firmware offer, the device's report,
 *    the stage job every 5 minutes) on in-process stores (test/support/rollout-world.ts, the unit tests' stand-ins,
 *    which keep the real stores' conditions): the same goals from the code itself, not from a model of it.
 * 3. The local stack's stores (dynalite): a smaller fleet through the same use cases, for what needs real stores: how
 *    soon a halt stops offers, and the read and write units, requests and durations a rollout costs per device.
 *    Before it (3a), how long a person's request to start a rollout of 200, 1,000 and 5,000 devices takes, through
 *    the local gateway (decisions 098 and 114), and until the larger one, answered preparing, is active.
 *
 * The fleet model, the same in all three: each device polls every POLL_HOURS at its own minute of the cycle (real
 * fleets spread their polls; see the last column of part 1 for every device polling at once); an offered device
 * reports downloading a minute later and succeeded or failed 10 to 30 minutes after the offer; a failing device is
 * drawn with the scenario's chance from a seeded generator.
 */

const FLEET = Number(process.env.BENCH_ROLLOUT_DEVICES ?? 1_000);
/** How often a device asks for its firmware. */
const POLL_HOURS = Number(process.env.BENCH_ROLLOUT_POLL_HOURS ?? 6);
const MONTE_CARLO_FLEETS = Number(process.env.BENCH_ROLLOUT_FLEETS ?? 10_000);
/** Fleets per release through the use cases on in-process stores. */
const SIMULATED_FLEETS = Number(process.env.BENCH_ROLLOUT_SIMULATED_FLEETS ?? 20);
/** The fleet on the local stack's stores: enough for the costs per device, small enough for a loaded machine. */
const STACK_FLEET = Number(process.env.BENCH_ROLLOUT_STACK_DEVICES ?? 200);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const POLL_MINUTES = POLL_HOURS * 60;
/** Long enough for four stages of a day's soak and the hours between polls. */
const MAX_MINUTES = 8 * 24 * 60;
/** The stage job runs every 5 minutes in the cloud; on the stack the bench runs it hourly and the cost scales it. */
const JOB_MINUTES_CLOUD = 5;
const JOB_MINUTES_STACK = 60;
/** The HTTPS routes' Lambda memory (infra/services/service-function.ts). */
const LAMBDA_GB = 1;
/** A fixed clock: Monday 5 January 2026, 08:00 UTC, away from any day's or month's edge. */
const T0 = Date.UTC(2026, 0, 5, 8);
const BENCH_CALLER = { sub: 'bench-admin', groups: ['Administrators'] } as unknown as Caller;
const HEALTHY = 0.02;
const BAD = 0.3;
/** The issue's goal: a bad release halts with at most this share of the fleet offered. */
const OFFERED_AT_HALT_GOAL = 0.02;

interface SimDevice {
  /** The minute of the poll cycle it asks at. */
  phase: number;
  /** Minutes from its offer to its final report. */
  install: number;
  fails: boolean;
}

const deviceOf = (random: () => number, failRate: number, synchronised = false): SimDevice => ({
  phase: synchronised ? 0 : Math.floor(random() * POLL_MINUTES),
  install: 10 + Math.floor(random() * 21),
  fails: random() < failRate,
});

const percent = (share: number, digits = 1) => `${(share * 100).toFixed(digits)} %`;
const money = (value: number) => (value >= 0.01 ? `$${value.toFixed(4)}` : `$${value.toFixed(6)}`);
const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

// ---- 1. The rule alone over many fleets ------------------------------------------------------------------------

type HaltRule = (tally: StageTally, stageDevices: number) => boolean;

/** The issue's words taken literally, checked at every finished device (decision 077): the rule 079 replaced. */
const issueShareRule: HaltRule = (tally, devices) =>
  tally.finished >= Math.max(1, Math.min(3, devices)) && tally.failures * 100 >= 10 * tally.finished;
const defaultRule: HaltRule = (tally, devices) => shouldHalt(tally, DEFAULT_ABORT, devices);

const defaultStageSizes = (fleet: number) => {
  const cumulative = cumulativeSizes(
    fleet,
    DEFAULT_STAGES.map((stage) => ({ percent: stage.percent, named: 0 })),
  );
  return cumulative.map((size, i) => size - (cumulative[i - 1] ?? 0));
};

/**
 * The rule over `fleets` seeded fleets: each stage's devices are offered at their first poll after the stage starts
 * and finish in the order of their reports; the rule is checked at every one (as the write path does), and a halt
 * counts the devices offered until then. A stage that passes advances after its soak, when all its devices finished.
 */
const monteCarlo = (failRate: number, rule: HaltRule, { synchronised = false, fleets = MONTE_CARLO_FLEETS } = {}) => {
  const random = seeded(40);
  const sizes = defaultStageSizes(FLEET);
  let reached = 0;
  let haltedWithinGoal = 0;
  let haltedInCanary = 0;
  const offeredAtHalt: number[] = [];
  for (let fleet = 0; fleet < fleets; fleet += 1) {
    let before = 0;
    let halted: { stage: number; offered: number } | undefined;
    for (const [stage, size] of sizes.entries()) {
      const devices = Array.from({ length: size }, () => deviceOf(random, failRate, synchronised));
      const finishing = [...devices].sort((a, b) => a.phase + a.install - (b.phase + b.install));
      const tally = { finished: 0, failures: 0 };
      for (const device of finishing) {
        tally.finished += 1;
        if (device.fails) tally.failures += 1;
        if (rule(tally, size)) {
          const at = device.phase + device.install;
          halted = { stage, offered: before + devices.filter((d) => d.phase <= at).length };
          break;
        }
      }
      if (halted) break;
      before += size;
    }
    if (!halted) reached += 1;
    else {
      offeredAtHalt.push(halted.offered);
      if (halted.offered <= FLEET * OFFERED_AT_HALT_GOAL) haltedWithinGoal += 1;
      if (halted.stage === 0) haltedInCanary += 1;
    }
  }
  return {
    reached: reached / fleets,
    haltedWithinGoal: haltedWithinGoal / fleets,
    haltedInCanary: haltedInCanary / fleets,
    medianOfferedAtHalt: median(offeredAtHalt),
  };
};

const printRule = () => {
  const started = performance.now();
  const rows = [
    { name: `${HALT_CONFIDENCE_PERCENT} % sure of ≥ 10 %, after 5 (default, decision 079)`, rule: defaultRule },
    { name: '≥ 10 % of finished, after 3 (the issue literally, decision 077)', rule: issueShareRule },
  ].map(({ name, rule }) => {
    const healthy = monteCarlo(HEALTHY, rule);
    const bad = monteCarlo(BAD, rule);
    const badTogether = monteCarlo(BAD, rule, { synchronised: true });
    const healthyTogether = monteCarlo(HEALTHY, rule, { synchronised: true });
    return {
      'abort rule': name,
      'healthy (2 %) reaches 100 %': percent(healthy.reached),
      'bad (30 %) halts, ≤ 2 % offered': percent(bad.haltedWithinGoal),
      'bad halts in the canary': percent(bad.haltedInCanary),
      'bad: median offered at halt': bad.medianOfferedAtHalt,
      'every device polling at once: healthy, bad ≤ 2 %': `${percent(healthyTogether.reached)}, ${percent(badTogether.haltedWithinGoal)}`,
    };
  });
  console.log(
    `\nStaged rollouts (issue 40), 1. the abort rule alone over ${MONTE_CARLO_FLEETS.toLocaleString('en')} seeded fleets of ` +
      `${FLEET.toLocaleString('en')} devices (in process, no store; stages ${defaultStageSizes(FLEET).join(', ')} devices; ` +
      `polls every ${POLL_HOURS} h at each device's own minute, reports 10 to 30 min after the offer; ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s)\n`,
  );
  console.table(rows);
};

type Category = 'create' | 'poll' | 'report' | 'job';
interface Tally {
  calls: number;
  readUnits: number;
  writeUnits: number;
  sqsRequests: number;
  ms: number[];
}
const emptyTally = (): Tally => ({ calls: 0, readUnits: 0, writeUnits: 0, sqsRequests: 0, ms: [] });
const WRITES = /Put|Update|Delete|BatchWrite|TransactWrite/;

// Each call is counted in the tally of the work it belongs to (set around that work).
const counting = new AsyncLocalStorage<Tally>();
let counterInstalled = false;

/** Counts capacity units and requests on the clients the use cases share, into the tally the work runs under. */
const installCounter = () => {
  if (counterInstalled) return;
  counterInstalled = true;
  getDocumentClient().middlewareStack.add(
    (next, context) => async (args) => {
      const tally = counting.getStore();
      if (!tally) return next(args);
      (args.input as Record<string, unknown>).ReturnConsumedCapacity ??= 'TOTAL';
      const result = await next(args);
      const consumed = [
        (result.output as { ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[] })
          .ConsumedCapacity ?? [],
      ].flat();
      const units = consumed.reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
      tally.calls += 1;
      if (WRITES.test(context.commandName ?? '')) tally.writeUnits += units;
      else tally.readUnits += units;
      return result;
    },
    { step: 'initialize', name: 'benchRolloutsCounter' },
  );
  getSqsClient().middlewareStack.add(
    (next) => async (args) => {
      const tally = counting.getStore();
      if (tally) tally.sqsRequests += 1;
      return next(args);
    },
    { step: 'initialize', name: 'benchRolloutsCounter' },
  );
};

/** One simulation's tallies, by what it was doing. */
const countByCategory = () => {
  installCounter();
  const tallies: Record<Category, Tally> = {
    create: emptyTally(),
    poll: emptyTally(),
    report: emptyTally(),
    job: emptyTally(),
  };
  return {
    tallies,
    /** One invocation's work, counted and timed under its category. */
    as: async <T>(category: Category, task: () => Promise<T>): Promise<T> => {
      const started = performance.now();
      try {
        return await counting.run(tallies[category], task);
      } finally {
        tallies[category].ms.push(performance.now() - started);
      }
    },
  };
};

/** A published release with a passing test run, written as the code-releases area leaves one. */
const seedRelease = async (db: DynamoDBDocumentClient, tables: Record<string, string>, version: string) => {
  const release = benchRelease(`sd1-${version}`, version);
  const { id, artifact } = release;
  await db.send(new PutCommand({ TableName: tables.codeReleases, Item: release }));
  await db.send(
    new PutCommand({
      TableName: tables.releaseTestRuns,
      Item: {
        releaseId: id,
        id: `${String(T0 - HOUR).padStart(13, '0')}-bench`,
        status: 'Pass',
        name: 'Bench',
        log: '',
        ranBy: 'bench',
        started: T0 - HOUR,
        finished: T0 - HOUR,
        artifactSha256: artifact!.sha256,
      },
    }),
  );
  return id;
};

const seedFleet = async (
  db: DynamoDBDocumentClient,
  devicesTable: string,
  prefix: string,
  size: number,
): Promise<string[]> => {
  const devices = Array.from({ length: size }, (_, i) => ({
    id: `dev-${prefix}-${String(i).padStart(4, '0')}`,
    serial: `${prefix}-${i}`.toUpperCase(),
    name: `Bench ${i}`,
    productLine: 'sd1',
    model: 'SD1',
    firmwareVersion: '1.0.0',
    locationPrivacy: 'exact',
    dataVisibility: 'private',
    state: 'active',
    created: T0 - HOUR,
    updated: T0 - HOUR,
    claimCodeHash: '0'.repeat(64),
    registeredBy: 'bench',
  }));
  await batchWriteAll(
    db,
    devicesTable,
    devices.map((Item) => ({ PutRequest: { Item } })),
    { concurrency: 8 },
  );
  return devices.map((device) => device.id);
};

// ---- 2 and 3. A fleet through the use cases ----------------------------------------------------------------------

type FinalState = 'succeeded' | 'failed';

/** What the simulation does to a rollout: the use cases, on whichever stores. */
interface RolloutPorts {
  start: (deviceIds: readonly string[]) => Promise<{ id: string; releaseId: string }>;
  /** The device's poll. @returns whether it was offered the release */
  offer: (deviceId: string) => Promise<boolean>;
  report: (deviceId: string, state: 'downloading' | FinalState, at: number) => Promise<void>;
  job: (at: number) => Promise<void>;
  /** Read outside the counted work. */
  state: () => Promise<{ status: string; completed: boolean; stageName: string; reason?: string }>;
}

interface Outcome {
  completed: boolean;
  halted: boolean;
  stoppedIn: string;
  reason?: string;
  offered: number;
  offeredAtHalt?: number;
  minutes: number;
  /** The poll right after the halting report, of a device still on its way: how long it took, and its answer. */
  pollAfterHalt?: { ms: number; offered: boolean };
  pollsAfterHalt: number;
  offersAfterHalt: number;
}

/**
 * One rollout with the default stages and criteria over `devices`, minute by simulated minute: each device polls at
 * its minute of the cycle; one offered reports downloading a minute later and its outcome `install` minutes after the
 * offer; the stage job runs every `jobMinutes`. Ends when the rollout completes, or a full poll cycle after it halted
 * (every device has polled once since, to count offers after the halt).
 */
const simulate = async (
  ports: RolloutPorts,
  setClock: (at: number) => void,
  ids: readonly string[],
  devices: readonly SimDevice[],
  jobMinutes: number,
): Promise<Outcome> => {
  setClock(T0);
  await ports.start(ids);
  const byPhase = new Map<number, number[]>();
  for (const [i, device] of devices.entries()) byPhase.set(device.phase, [...(byPhase.get(device.phase) ?? []), i]);
  const due = new Map<number, { device: number; state: 'downloading' | FinalState }[]>();
  const schedule = (minute: number, device: number, state: 'downloading' | FinalState) => {
    due.set(minute, [...(due.get(minute) ?? []), { device, state }]);
  };
  const offered = new Set<number>();
  const finished = new Set<number>();
  const outcome: Outcome = {
    completed: false,
    halted: false,
    stoppedIn: '',
    offered: 0,
    minutes: 0,
    pollsAfterHalt: 0,
    offersAfterHalt: 0,
  };
  let haltedAt: number | undefined;
  const noteHalt = async (minute: number) => {
    if (haltedAt !== undefined || (await ports.state()).status === 'active') return;
    haltedAt = minute;
    outcome.offeredAtHalt = offered.size;
    // The very next poll, of a device offered and still on its way (else of any device): a halt stops offers at once.
    const onItsWay = [...offered].find((i) => !finished.has(i)) ?? 0;
    const started = performance.now();
    const again = await ports.offer(ids[onItsWay]!);
    outcome.pollAfterHalt = { ms: performance.now() - started, offered: again };
  };
  for (let minute = 0; minute <= MAX_MINUTES; minute += 1) {
    setClock(T0 + minute * MINUTE);
    for (const i of byPhase.get(minute % POLL_MINUTES) ?? []) {
      const got = await ports.offer(ids[i]!);
      if (haltedAt !== undefined) {
        outcome.pollsAfterHalt += 1;
        if (got) outcome.offersAfterHalt += 1;
      }
      if (got && !offered.has(i)) {
        offered.add(i);
        schedule(minute + 1, i, 'downloading');
        schedule(minute + devices[i]!.install, i, devices[i]!.fails ? 'failed' : 'succeeded');
      }
    }
    for (const { device, state } of due.get(minute) ?? []) {
      await ports.report(ids[device]!, state, T0 + minute * MINUTE);
      if (state !== 'downloading') finished.add(device);
      if (state === 'failed') await noteHalt(minute);
    }
    due.delete(minute);
    if (minute % jobMinutes === 0) {
      await ports.job(T0 + minute * MINUTE);
      const { completed } = await ports.state();
      if (completed) {
        outcome.completed = true;
        outcome.minutes = minute;
        break;
      }
      await noteHalt(minute);
    }
    if (haltedAt !== undefined && minute >= haltedAt + POLL_MINUTES) break;
  }
  const final = await ports.state();
  outcome.halted = final.status !== 'active' && !outcome.completed;
  outcome.stoppedIn = final.stageName;
  outcome.reason = final.reason;
  outcome.offered = offered.size;
  if (!outcome.completed) outcome.minutes = haltedAt ?? MAX_MINUTES;
  return outcome;
};

const benchRelease = (id: string, version: string): StoredRelease => ({
  id,
  productLine: 'sd1',
  version,
  versionKey: versionSortKey(parseSemVer(version)!),
  notes: 'Bench',
  status: 'published',
  created: T0 - HOUR,
  createdBy: 'bench',
  updated: T0 - HOUR,
  published: T0 - HOUR,
  artifact: {
    key: `releases/${id}/artifact`,
    fileName: `${id}.bin`,
    size: 2 * 1024 * 1024,
    sha256: createHash('sha256').update(id).digest('hex'),
    uploaded: T0 - HOUR,
    uploadedBy: 'bench',
  },
});

/** The use cases on the unit tests' in-process stores (test/support/rollout-world.ts), on a clock the loop sets. */
const inProcessPorts = (ids: readonly string[]) => {
  let clock = T0;
  const now = () => clock;
  const release = benchRelease('sd1-40.0.1', '40.0.1');
  const world = rolloutWorld({
    devices: Object.fromEntries(ids.map((id) => [id, { productLine: 'sd1', firmwareVersion: '40.0.0' }])),
    releases: [release],
    now,
  });
  const rollouts = createRollouts({
    log: silentLog,
    releases: world.releaseStore,
    testRuns: { results: async () => [{ id: 'bench', status: 'Pass', finished: T0 - HOUR }] },
    rollouts: world.rolloutStore,
    targets: world.targetStore,
    fleet: world.fleet,
    people: { emailOf: async () => undefined },
    work: world.work,
    now,
    newId: () => 'bench-rollout',
  });
  const stages = rolloutStagesOf(world);
  const records = {
    device: async (deviceId: string) => {
      const device = world.devices[deviceId];
      return device && { ...device, state: device.state ?? 'active' };
    },
    rollout: async (rolloutId: string) => {
      const found = world.rollouts.get(rolloutId);
      return found && { status: found.status, currentStage: found.currentStage ?? 0, artifact: found.artifact };
    },
    artifact: async () => undefined,
    target: world.targetStore.get,
  };
  const offer = createFirmwareOffer({ records, updates: world.updates, downloadUrl: async (key) => key, now });
  const status = createFirmwareStatus({
    records,
    updates: world.updates,
    adoption: world.targetStore,
    devices: {
      reportFirmware: async (deviceId, version) => {
        world.devices[deviceId]!.firmwareVersion = version;
        return true;
      },
    },
    now,
  });
  const ports: RolloutPorts = {
    start: async (deviceIds) =>
      rollouts.create(BENCH_CALLER, release.id, { target: { kind: 'devices', deviceIds: [...deviceIds] } }),
    offer: async (deviceId) => (await offer(deviceId)).update !== null,
    report: async (deviceId, state, at) => {
      await status.report(deviceId, { rolloutId: 'bench-rollout', releaseId: release.id, state, at });
    },
    job: async (at) => {
      await stages.run(at);
    },
    state: async () => {
      const found = await rollouts.get('bench-rollout');
      return {
        status: found.status,
        completed: found.completed !== undefined,
        stageName: found.stages[found.currentStage]!.name,
        ...(found.haltReason ? { reason: found.haltReason } : {}),
      };
    },
  };
  return { ports, setClock: (at: number) => (clock = at) };
};

const printInProcess = async () => {
  const started = performance.now();
  const ids = Array.from({ length: FLEET }, (_, i) => `sim-${String(i).padStart(4, '0')}`);
  const runs = async (failRate: number) => {
    const outcomes: Outcome[] = [];
    for (let fleet = 0; fleet < SIMULATED_FLEETS; fleet += 1) {
      const random = seeded(4_000 + fleet);
      const devices = ids.map(() => deviceOf(random, failRate));
      const { ports, setClock } = inProcessPorts(ids);
      outcomes.push(await simulate(ports, setClock, ids, devices, JOB_MINUTES_CLOUD));
    }
    return outcomes;
  };
  const healthy = await runs(HEALTHY);
  const bad = await runs(BAD);
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `\n  2. ${SIMULATED_FLEETS} seeded fleets of ${FLEET.toLocaleString('en')} per release through the real use cases ` +
      '(start, offer, report, the stage job every 5 min) on in-process stores (test/support/rollout-world.ts), ' +
      `default stages and criteria, simulated clock (${seconds.toFixed(1)} s):\n`,
  );
  const withinGoal = (o: Outcome) => o.halted && (o.offeredAtHalt ?? o.offered) <= FLEET * OFFERED_AT_HALT_GOAL;
  console.table([
    {
      release: 'healthy (2 % fail)',
      'reached 100 %': `${healthy.filter((o) => o.completed).length} of ${healthy.length}`,
      'halted (where)': healthy
        .filter((o) => o.halted)
        .map((o) => o.stoppedIn)
        .join(', '),
      'simulated hours to 100 % (median)': (
        median(healthy.filter((o) => o.completed).map((o) => o.minutes)) / 60
      ).toFixed(1),
    },
    {
      release: 'bad (30 % fail)',
      'halted, ≤ 2 % offered': `${bad.filter(withinGoal).length} of ${bad.length}`,
      'halted (where)': Object.entries(
        bad.reduce<Record<string, number>>((acc, o) => {
          const key = o.halted ? o.stoppedIn : 'not halted';
          acc[key] = (acc[key] ?? 0) + 1;
          return acc;
        }, {}),
      )
        .map(([where, n]) => `${where} ×${n}`)
        .join(', '),
      'offered at the halt (median, most)': `${median(bad.map((o) => o.offeredAtHalt ?? o.offered))}, ${Math.max(...bad.map((o) => o.offeredAtHalt ?? o.offered))}`,
      'offers after the halt': `${bad.reduce((n, o) => n + o.offersAfterHalt, 0)} of ${bad.reduce((n, o) => n + o.pollsAfterHalt, 0)} polls`,
    },
  ]);
  const first = bad.find((o) => o.halted);
  if (first?.reason) console.log(`  e.g. "${first.reason}"`);
};

// ---- 3. On the local stack's stores -------------------------------------------------------------------------------

/** The use cases on the local stack's stores (dynalite), each call counted under its kind of work. */
const stackPorts = async (
  stack: RunningStack,
  db: DynamoDBDocumentClient,
  count: ReturnType<typeof countByCategory>,
  version: string,
) => {
  const { tables } = stack.info;
  let clock = T0;
  const now = () => clock;
  const releasesEnv = readEnv(CODE_RELEASES_ENV);
  const codeReleases = createCodeReleasesDeps(releasesEnv, { now });
  const { stages } = createRolloutStagesDeps(releasesEnv, { now });
  const ingress = createDataIngressDeps(readDataIngressEnv(), { now });
  const prefix = `${version.replace(/\./g, '')}-${randomUUID().slice(0, 6)}`.toLowerCase();
  const ids = await seedFleet(db, tables.devices!, prefix, STACK_FLEET);
  const releaseId = await seedRelease(db, tables as Record<string, string>, version);
  let rolloutId = '';
  const ports: RolloutPorts = {
    start: async (deviceIds) => {
      const rollout = await count.as('create', () =>
        codeReleases.rollouts.create(BENCH_CALLER, releaseId, {
          target: { kind: 'devices', deviceIds: [...deviceIds] },
        }),
      );
      rolloutId = rollout.id;
      return rollout;
    },
    offer: async (deviceId) => (await count.as('poll', () => ingress.firmwareOffer(deviceId))).update !== null,
    report: async (deviceId, state, at) => {
      await count.as('report', () =>
        ingress.firmwareStatus.report(deviceId, {
          rolloutId,
          releaseId,
          state,
          at,
          ...(state === 'failed' ? { reason: 'bench: image failed its boot check' } : {}),
        }),
      );
    },
    job: async (at) => {
      await count.as('job', () => stages.run(at));
    },
    state: async () => {
      const item = (
        await db.send(
          new GetCommand({ TableName: tables.releaseRollouts, Key: { id: rolloutId }, ConsistentRead: true }),
        )
      ).Item as {
        status: string;
        completed?: number;
        haltReason?: string;
        currentStage?: number;
        stages: { name: string }[];
      };
      return {
        status: item.status,
        completed: item.completed !== undefined,
        stageName: item.stages[item.currentStage ?? 0]!.name,
        ...(item.haltReason ? { reason: item.haltReason } : {}),
      };
    },
  };
  return { ports, ids, setClock: (at: number) => (clock = at) };
};

export const benchRollouts = async (stack: RunningStack, db: DynamoDBDocumentClient) => {
  // The S3 client signs download URLs only (no request); it is made before counting starts.
  getS3Client();
  const started = performance.now();
  const full = countByCategory();
  const run = async (count: ReturnType<typeof countByCategory>, version: string, failRate: number, seed: number) => {
    const { ports, ids, setClock } = await stackPorts(stack, db, count, version);
    const random = seeded(seed);
    return simulate(
      ports,
      setClock,
      ids,
      ids.map(() => deviceOf(random, failRate)),
      JOB_MINUTES_STACK,
    );
  };
  const healthy = await run(full, '40.0.1', HEALTHY, 1);
  const bad = await run(countByCategory(), '40.0.2', BAD, 2);
  console.log(
    `\n  3. On the local stack's stores (dynalite): ${STACK_FLEET} devices per release through the same use cases, ` +
      `default stages (${defaultStageSizes(STACK_FLEET).join(', ')} devices) and criteria, simulated clock, the stage ` +
      `job hourly (${((performance.now() - started) / 1000).toFixed(1)} s). For the halt and the costs: the goals are ` +
      "parts 1 and 2's (a canary of 2 cannot tell 2 % from 30 %), and the rollout's id, so who is in which stage, is " +
      'new each run:\n',
  );
  console.table(
    [
      { release: 'healthy (2 % fail)', o: healthy },
      { release: 'bad (30 % fail)', o: bad },
    ].map(({ release, o }) => ({
      release,
      outcome: o.completed ? `reached 100 % in ${(o.minutes / 60).toFixed(0)} simulated h` : `halted in ${o.stoppedIn}`,
      'offered (at the halt)': `${o.offered}${o.offeredAtHalt !== undefined ? ` (${o.offeredAtHalt})` : ''} of ${STACK_FLEET}`,
      'offers after the halt': o.halted ? `${o.offersAfterHalt} of the next cycle's ${o.pollsAfterHalt} polls` : '',
    })),
  );
  for (const o of [healthy, bad].filter((outcome) => outcome.pollAfterHalt)) {
    console.log(
      `  Time for a halt to stop offers (goal: the next poll): the poll right after the halting report (of a device ` +
        `still on its way when there is one) answered ${o.pollAfterHalt!.offered ? 'an offer ✗' : 'no update ✓'} in ${o.pollAfterHalt!.ms.toFixed(1)} ms; ` +
        `every poll after it too (${o.offersAfterHalt} offers of ${o.pollsAfterHalt}). ${o.reason ?? ''}`,
    );
  }

  // Per device of a rollout: what its requests cost in the cloud (HTTPS for polls and reports).
  const { tallies } = full;
  const P = AWS_PRICES;
  const jobScale = JOB_MINUTES_STACK / JOB_MINUTES_CLOUD;
  const costOf = (tally: Tally, scale = 1, throughApi = true) => {
    const invocations = tally.ms.length * scale;
    return (
      ((tally.readUnits * scale) / 1e6) * P.dynamodb.perMillionReadRequestUnits +
      ((tally.writeUnits * scale) / 1e6) * P.dynamodb.perMillionWriteRequestUnits +
      ((tally.sqsRequests * scale) / 1e6) * P.sqs.perMillionStandardRequests +
      (invocations / 1e6) * P.lambda.perMillionRequests +
      invocations * Math.ceil(median(tally.ms)) * (LAMBDA_GB / 1000) * P.lambda.perGbSecondArm +
      (throughApi ? (invocations / 1e6) * P.apiGateway.perMillionRestRequests : 0)
    );
  };
  const rows = [
    { what: `start (assign ${STACK_FLEET} devices)`, tally: tallies.create, scale: 1, api: true },
    { what: `polls (every ${POLL_HOURS} h, whether or not a rollout runs)`, tally: tallies.poll, scale: 1, api: true },
    { what: 'reports (2 a device offered)', tally: tallies.report, scale: 1, api: true },
    { what: `stage job (every 5 min: run hourly here, ×${jobScale})`, tally: tallies.job, scale: jobScale, api: false },
  ];
  console.log(
    `\n  Cost per device of a rollout (${AWS_PRICES.region} prices as of ${AWS_PRICES.asOf}; the healthy release's ` +
      `rollout above, which ${healthy.completed ? `reached 100 % in ${(healthy.minutes / 60).toFixed(0)} simulated hours` : `halted in ${healthy.stoppedIn}`}; ` +
      "HTTPS, 1 GB Lambda, this machine's durations; the stage job's share is per rollout, so it shrinks with a larger fleet):",
  );
  console.table(
    rows.map(({ what, tally, scale, api }) => ({
      what,
      requests: tally.ms.length * scale,
      'DynamoDB RRU, WRU': `${Math.round(tally.readUnits * scale)}, ${Math.round(tally.writeUnits * scale)}`,
      'median ms': median(tally.ms).toFixed(1),
      'per device': money(costOf(tally, scale, api) / STACK_FLEET),
    })),
  );
  const own = costOf(tallies.create) + costOf(tallies.report) + costOf(tallies.job, jobScale, false);
  console.log(
    `  A rollout's own work: ${money(own / STACK_FLEET)} per device; with the polls made meanwhile: ` +
      `${money((own + costOf(tallies.poll)) / STACK_FLEET)} per device.`,
  );
};

/** Fleets whose rollout's start the bench times through the gateway, and how many starts of each. */
const START_FLEETS = (process.env.BENCH_ROLLOUT_START_DEVICES ?? '200,1000,5000').split(',').map(Number);
const START_RUNS = Number(process.env.BENCH_ROLLOUT_START_RUNS ?? 3);

/**
 * 3a. Starting a rollout on the local stack, through the gateway as a person starts one: `POST
 * /code-releases/releases/{id}/rollouts` to every device of a new fleet, timed until it answers (up to
 * ROLLOUT_INLINE_DEVICES, every device assigned its stage by then, decision 098) and, for a larger fleet answered
 * `preparing`, until the rollouts queue's worker has made it active (decision 114). A few starts of each size, since
 * the machine's load moves single runs; a small start first, uncounted, so the first counted one pays no cold code.
 */
export const benchRolloutStart = async (stack: RunningStack, db: DynamoDBDocumentClient, adminToken: string) => {
  const { tables, endpoints } = stack.info;
  const headers = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
  let starts = 0;
  const start = async (size: number) => {
    starts += 1;
    // A new version each start: a data directory kept between runs holds the earlier ones.
    const version = `40.${100 + starts}.${Math.floor(Math.random() * 1e6)}`;
    const ids = await seedFleet(db, tables.devices!, `start${starts}-${randomUUID().slice(0, 6)}`, size);
    const releaseId = await seedRelease(db, tables as Record<string, string>, version);
    const started = performance.now();
    const response = await fetch(`${endpoints.gateway}/code-releases/releases/${releaseId}/rollouts`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ target: { kind: 'devices', deviceIds: ids } }),
    });
    const text = await response.text();
    const ms = performance.now() - started;
    if (response.status !== 201) throw new Error(`Starting a rollout answered ${response.status}: ${text}`);
    let rollout = JSON.parse(text) as { id: string; status: string; counts: { targeted: number } };
    while (rollout.status === 'preparing') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      rollout = (await (
        await fetch(`${endpoints.gateway}/code-releases/rollouts/${rollout.id}`, { headers })
      ).json()) as typeof rollout;
    }
    const activeMs = performance.now() - started;
    if (rollout.counts.targeted !== size)
      throw new Error(`A rollout of ${size} devices targeted ${rollout.counts.targeted}`);
    return { ms, activeMs };
  };
  await start(20);
  const rows = [];
  for (const size of START_FLEETS) {
    const runs: { ms: number; activeMs: number }[] = [];
    for (let run = 0; run < START_RUNS; run += 1) runs.push(await start(size));
    const requests = runs.map((run) => run.ms);
    const active = median(runs.map((run) => run.activeMs));
    rows.push({
      devices: size,
      answered: size > ROLLOUT_INLINE_DEVICES ? 'preparing' : 'active',
      'request (median)': `${(median(requests) / 1000).toFixed(2)} s`,
      'fastest, slowest': `${(Math.min(...requests) / 1000).toFixed(2)} s, ${(Math.max(...requests) / 1000).toFixed(2)} s`,
      'until active (median)': `${(active / 1000).toFixed(2)} s`,
      'ms per device until active': (active / size).toFixed(1),
    });
  }
  console.log(
    `\n  3a. Starting a rollout on the local stack (dynalite), through the gateway: POST ` +
      `/code-releases/releases/{id}/rollouts to every device of a new fleet, default stages, ${START_RUNS} starts ` +
      `of each size (API Gateway's limit is 29 s); above ${ROLLOUT_INLINE_DEVICES.toLocaleString('en')} devices it ` +
      "answers preparing and the rollouts queue's worker assigns them (decision 114):\n",
  );
  console.table(rows);
};

/** Parts 1 and 2: no stack (run before it starts). */
export const printRolloutRules = async () => {
  printRule();
  await printInProcess();
};
