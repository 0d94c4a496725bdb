import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomUUID } from 'node:crypto';
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { getDocumentClient, getS3Client, getSqsClient } from '../../functions/_shared/clients';
import { batchWriteAll } from '../../functions/_shared/dynamodb';
import { readEnv } from '../../functions/_shared/env';
import { inLanes } from '../../functions/_shared/in-lanes';
import { CODE_RELEASES_ENV, createCodeReleasesDeps, createRolloutStagesDeps } from '../../functions/code-releases/deps';
import { createDataIngressDeps, readDataIngressEnv } from '../../functions/data-ingress/deps';
import type { RunningStack } from '../../infra/local/stack';
import type { Caller } from '../../shared/auth/verify-token';
import {
  cumulativeSizes,
  DEFAULT_ABORT,
  DEFAULT_STAGES,
  emptyStageCounts,
  shouldHalt,
  tallyOf,
} from '../../shared/code-releases/rollout-rules';
import { parseSemVer, versionSortKey } from '../../shared/code-releases/semver';
import { AWS_PRICES } from './aws-prices';

/**
 * Staged rollouts (issue 40): a simulated fleet of 1,000 devices polling for firmware and reporting what became of
 * the update, once with a healthy release (2 % of devices fail) and once with a bad one (30 %), through the real use
 * cases on the local stack's stores (the offer, the report, the rollout, the stage job), on a fixed clock: the days a
 * rollout takes are replayed in seconds. It prints where each rollout ended and how much of the fleet was offered the
 * release, how soon a halt stops offers, the same abort rule over many fleets (it is a matter of chance which devices
 * fail first), and what a rollout costs per device from the requests counted.
 */

const FLEET = Number(process.env.BENCH_ROLLOUT_DEVICES ?? 1_000);
/** How often a device asks for its firmware. */
const POLL_HOURS = Number(process.env.BENCH_ROLLOUT_POLL_HOURS ?? 6);
const MONTE_CARLO_FLEETS = Number(process.env.BENCH_ROLLOUT_FLEETS ?? 10_000);
const HOUR = 3_600_000;
const MINUTE = 60_000;
/** Long enough for four stages of a day's soak and the hours between polls. */
const MAX_HOURS = 8 * 24;
/** The stage job runs every 5 minutes in the cloud; the simulation runs it hourly and the cost scales it. */
const JOB_RUNS_PER_HOUR = 12;
/** The HTTPS routes' Lambda memory (infra/services/service-function.ts). */
const LAMBDA_GB = 1;
/** A fixed clock: Monday 5 January 2026, 08:00 UTC, away from any day's or month's edge. */
const T0 = Date.UTC(2026, 0, 5, 8);
const BENCH_CALLER = { sub: 'bench-admin', groups: ['Administrators'] } as unknown as Caller;

/** A number in [0, 1) from a text: which devices fail is fixed by the scenario, not drawn anew each run. */
const unitOf = (text: string) => createHash('sha256').update(text).digest().readUInt32BE(0) / 2 ** 32;

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

// Polls run side by side: each call is counted in the tally of the work it belongs to (set around that work).
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

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

/** A published release with a passing test run, written as the code-releases area leaves one. */
const seedRelease = async (db: DynamoDBDocumentClient, tables: Record<string, string>, version: string) => {
  const id = `sd1-${version}`;
  const artifact = {
    key: `releases/${id}/artifact-${randomUUID()}`,
    fileName: `${id}.bin`,
    size: 2 * 1024 * 1024,
    sha256: createHash('sha256').update(id).digest('hex'),
    uploaded: T0 - HOUR,
    uploadedBy: 'bench',
  };
  await db.send(
    new PutCommand({
      TableName: tables.codeReleases,
      Item: {
        id,
        productLine: 'sd1',
        version,
        versionKey: versionSortKey(parseSemVer(version)!),
        notes: 'Bench',
        status: 'published',
        artifact,
        created: T0 - HOUR,
        createdBy: 'bench',
        updated: T0 - HOUR,
        published: T0 - HOUR,
      },
    }),
  );
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
        artifactSha256: artifact.sha256,
      },
    }),
  );
  return id;
};

const seedFleet = async (db: DynamoDBDocumentClient, devicesTable: string, prefix: string): Promise<string[]> => {
  const devices = Array.from({ length: FLEET }, (_, i) => ({
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

interface Outcome {
  label: string;
  failing: number;
  failRate: number;
  stoppedIn: string;
  halted: boolean;
  completed: boolean;
  offered: number;
  hours: number;
  reason?: string;
  /** The first poll after the halt: how long after the halting report it was answered, and with what. */
  firstPollAfterHalt?: { ms: number; update: boolean };
  offersAfterHalt: number;
  pollsAfterHalt: number;
}

/**
 * One rollout of a release to a fresh fleet, with the default stages and criteria: every device polls every
 * POLL_HOURS; one offered downloads, installs and reports within the quarter hour (succeeded, or failed when it is one
 * of the scenario's failing devices); the stage job runs every hour. It stops when the rollout completes, or one poll
 * round after it halted (to count the offers made after the halt).
 */
const simulate = async (
  stack: RunningStack,
  db: DynamoDBDocumentClient,
  count: ReturnType<typeof countByCategory>,
  {
    label,
    failRate,
    version,
    abort,
  }: {
    label: string;
    failRate: number;
    version: string;
    abort?: { failureThresholdPercent: number; minFinished: number };
  },
): Promise<Outcome> => {
  const { tables } = stack.info;
  let clock = T0;
  const now = () => clock;
  const releasesEnv = readEnv(CODE_RELEASES_ENV);
  const codeReleases = createCodeReleasesDeps(releasesEnv, { now });
  const { stages } = createRolloutStagesDeps(releasesEnv, { now });
  const ingress = createDataIngressDeps(readDataIngressEnv(), { now });
  const prefix = `${version.replace(/\./g, '')}-${randomUUID().slice(0, 6)}`.toLowerCase();
  const fleet = await seedFleet(db, tables.devices!, prefix);
  const releaseId = await seedRelease(db, tables as Record<string, string>, version);
  const failing = new Set(fleet.filter((id) => unitOf(`${label}:${id}`) < failRate));
  const rollout = await count.as('create', () =>
    codeReleases.rollouts.create(BENCH_CALLER, releaseId, {
      target: { kind: 'devices', deviceIds: fleet },
      ...(abort ? { abort } : {}),
    }),
  );
  const statusOf = async () =>
    (
      await db.send(
        new GetCommand({ TableName: tables.releaseRollouts, Key: { id: rollout.id }, ConsistentRead: true }),
      )
    ).Item as { status: string; completed?: number; haltReason?: string; currentStage?: number };
  const offered = new Set<string>();
  const outcome: Outcome = {
    label,
    failing: failing.size,
    failRate,
    stoppedIn: '',
    halted: false,
    completed: false,
    offered: 0,
    hours: 0,
    offersAfterHalt: 0,
    pollsAfterHalt: 0,
  };
  let haltedAtHour: number | undefined;
  for (let hour = 0; hour <= MAX_HOURS; hour += 1) {
    if (hour % POLL_HOURS === 0) {
      clock = T0 + hour * HOUR;
      const answered: string[] = [];
      await inLanes(fleet, 16, async (deviceId) => {
        const { update } = await count.as('poll', () => ingress.firmwareOffer(deviceId));
        if (haltedAtHour !== undefined) {
          outcome.pollsAfterHalt += 1;
          if (update) outcome.offersAfterHalt += 1;
        }
        if (update) {
          offered.add(deviceId);
          answered.push(deviceId);
        }
      });
      if (haltedAtHour !== undefined) break;
      // The devices that got the offer report within the quarter hour, on their own clocks.
      clock = T0 + hour * HOUR + 15 * MINUTE;
      const report = (deviceId: string, state: 'downloading' | 'installing' | 'succeeded' | 'failed', minute: number) =>
        count.as('report', () =>
          ingress.firmwareStatus.report(deviceId, {
            rolloutId: rollout.id,
            releaseId,
            state,
            at: T0 + hour * HOUR + minute * MINUTE,
            ...(state === 'failed' ? { reason: 'bench: image failed its boot check' } : {}),
          }),
        );
      for (const [index, deviceId] of answered.entries()) {
        await report(deviceId, 'downloading', 1);
        await report(deviceId, 'installing', 5);
        const fails = failing.has(deviceId);
        await report(deviceId, fails ? 'failed' : 'succeeded', 10);
        if (fails && haltedAtHour === undefined && (await statusOf()).status === 'halted') {
          haltedAtHour = hour;
          // The very next poll, of a device still on its way if there is one: a halt must stop offers at once.
          const next = answered[index + 1] ?? deviceId;
          const started = performance.now();
          const { update } = await ingress.firmwareOffer(next);
          outcome.firstPollAfterHalt = { ms: performance.now() - started, update: update !== null };
        }
      }
    }
    clock = T0 + hour * HOUR + 30 * MINUTE;
    await count.as('job', () => stages.run(clock));
    const state = await statusOf();
    if (state.completed !== undefined) {
      outcome.completed = true;
      outcome.hours = hour;
      break;
    }
    if (state.status !== 'active' && haltedAtHour === undefined) haltedAtHour = hour;
  }
  const final = await codeReleases.rollouts.get(rollout.id);
  outcome.halted = final.status !== 'active';
  outcome.reason = final.haltReason;
  outcome.offered = offered.size;
  outcome.stoppedIn = final.stages[final.currentStage]!.name;
  if (!outcome.completed) outcome.hours = haltedAtHour ?? MAX_HOURS;
  return outcome;
};

/** A small seeded generator (mulberry32): the Monte Carlo's fleets are the same on every run. */
const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};

/**
 * The abort rule alone (shared/code-releases/rollout-rules.ts, the same function the stores' path calls) over many
 * fleets: devices finish in a random order, each fails with the scenario's chance, and the stage halts the moment its
 * criteria hold. Which devices fail first is chance; this says how often each outcome comes.
 */
const monteCarlo = (failRate: number, abort = DEFAULT_ABORT, fleets = MONTE_CARLO_FLEETS) => {
  const random = seeded(40);
  const cumulative = cumulativeSizes(
    FLEET,
    DEFAULT_STAGES.map((stage) => ({ percent: stage.percent, named: 0 })),
  );
  const sizes = cumulative.map((size, i) => size - (cumulative[i - 1] ?? 0));
  let reached = 0;
  let haltedSmall = 0;
  for (let fleet = 0; fleet < fleets; fleet += 1) {
    let offered = 0;
    let halted = false;
    for (const size of sizes) {
      offered += size;
      const counts = emptyStageCounts();
      for (let device = 0; device < size && !halted; device += 1) {
        if (random() < failRate) counts.failed += 1;
        else counts.succeeded += 1;
        halted = shouldHalt(tallyOf(counts), abort, size);
      }
      if (halted) break;
    }
    if (!halted) reached += 1;
    else if (offered <= FLEET * 0.02) haltedSmall += 1;
  }
  return { reached: reached / fleets, haltedWithin2Percent: haltedSmall / fleets };
};

const percent = (share: number, digits = 1) => `${(share * 100).toFixed(digits)} %`;
const money = (value: number) => (value >= 0.01 ? `$${value.toFixed(4)}` : `$${value.toFixed(6)}`);

export const benchRollouts = async (stack: RunningStack, db: DynamoDBDocumentClient) => {
  // The S3 client signs download URLs only (no request); it is made before counting starts.
  getS3Client();
  const count = countByCategory();
  const outcomes = [
    await simulate(stack, db, count, { label: 'healthy release', failRate: 0.02, version: '40.0.1' }),
    await simulate(stack, db, count, { label: 'bad release', failRate: 0.3, version: '40.0.2' }),
  ];
  // The cost of a rollout that goes all the way: the healthy release again, with criteria that let a 2 % failure
  // rate through far more often (the table below says how often), counted on its own.
  const full = countByCategory();
  const throughOut = await simulate(stack, db, full, {
    label: 'healthy release, 20 % after 10',
    failRate: 0.02,
    version: '40.0.3',
    abort: { failureThresholdPercent: 20, minFinished: 10 },
  });
  outcomes.push(throughOut);
  console.log(
    `\nStaged rollouts: ${FLEET.toLocaleString('en')} devices each polling every ${POLL_HOURS} h, the default stages ` +
      '(canary 1 %, 5 %, 25 %, 100 %, a day each) and criteria (10 % of finished, after 3), clock fixed\n',
  );
  console.table(
    outcomes.map((o) => ({
      release: o.label,
      failing: `${o.failing} (${percent(o.failRate, 0)})`,
      outcome: o.completed ? 'reached 100 %' : `halted in ${o.stoppedIn}`,
      'offered the release': `${o.offered} (${percent(o.offered / FLEET)})`,
      'simulated hours': o.hours,
      'offers after the halt': o.halted ? `${o.offersAfterHalt} of ${o.pollsAfterHalt} polls` : '',
    })),
  );
  const [healthy, bad] = outcomes as [Outcome, Outcome];
  console.log(
    `  Goal, bad release halted in its canary or first stage with ≤ 2 % of the fleet offered: ` +
      `${bad.halted && bad.offered <= FLEET * 0.02 ? '✓' : '✗'} (${bad.offered} devices; ${bad.reason ?? 'not halted'})`,
  );
  console.log(
    `  Goal, healthy release reaches 100 %: ${healthy.completed ? '✓' : `✗ (halted in ${healthy.stoppedIn}: ${healthy.reason})`}`,
  );
  for (const o of outcomes.filter((outcome) => outcome.firstPollAfterHalt)) {
    console.log(
      `  Time for a halt to stop offers (goal: the next poll), ${o.label}: the next poll, ${o.firstPollAfterHalt!.ms.toFixed(1)} ms ` +
        `after the halting report, answered ${o.firstPollAfterHalt!.update ? 'an offer ✗' : 'no update ✓'}; ` +
        `offers after the halt: ${o.offersAfterHalt} of the next round's ${o.pollsAfterHalt} polls`,
    );
  }

  const healthyOdds = monteCarlo(0.02);
  const badOdds = monteCarlo(0.3);
  console.log(
    `\n  Which devices fail first is chance. The same abort rule over ${MONTE_CARLO_FLEETS.toLocaleString('en')} fleets ` +
      '(shared/code-releases/rollout-rules.ts, no store):',
  );
  console.table(
    [
      DEFAULT_ABORT,
      { ...DEFAULT_ABORT, failureThresholdPercent: 20, minFinished: 10 },
      { ...DEFAULT_ABORT, failureThresholdPercent: 25, minFinished: 5 },
    ].map((abort, i) => {
      const [h, b] = i === 0 ? [healthyOdds, badOdds] : [monteCarlo(0.02, abort), monteCarlo(0.3, abort)];
      return {
        criteria: `${abort.failureThresholdPercent} % after ${abort.minFinished}${i === 0 ? ' (default)' : ''}`,
        'healthy (2 %) reaches 100 %': percent(h.reached),
        'bad (30 %) halts with ≤ 2 % offered': percent(b.haltedWithin2Percent),
      };
    }),
  );

  // Per device of a rollout: what its requests cost in the cloud (HTTPS for polls and reports).
  const { tallies } = full;
  const P = AWS_PRICES;
  const jobScale = JOB_RUNS_PER_HOUR;
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
  const devicesRolledOut = FLEET;
  const rows = [
    { what: `start (assign ${FLEET.toLocaleString('en')} devices)`, tally: tallies.create, scale: 1, api: true },
    { what: `polls (every ${POLL_HOURS} h, whether or not a rollout runs)`, tally: tallies.poll, scale: 1, api: true },
    { what: 'reports (3 a device offered)', tally: tallies.report, scale: 1, api: true },
    { what: `stage job (every 5 min: run hourly here, ×${jobScale})`, tally: tallies.job, scale: jobScale, api: false },
  ];
  console.log(
    `\n  Cost per device of a rollout (${AWS_PRICES.region} prices as of ${AWS_PRICES.asOf}; the "${throughOut.label}" ` +
      `rollout, which ${throughOut.completed ? `reached 100 % in ${throughOut.hours} simulated hours` : `halted in ${throughOut.stoppedIn}`}; ` +
      "HTTPS, 1 GB Lambda, this machine's durations):",
  );
  console.table(
    rows.map(({ what, tally, scale, api }) => ({
      what,
      requests: tally.ms.length * scale,
      'DynamoDB RRU, WRU': `${Math.round(tally.readUnits * scale)}, ${Math.round(tally.writeUnits * scale)}`,
      'median ms': median(tally.ms).toFixed(1),
      'per device': money(costOf(tally, scale, api) / devicesRolledOut),
    })),
  );
  console.log(
    `  A poll reads ${(tallies.poll.readUnits / Math.max(tallies.poll.ms.length, 1)).toFixed(1)} read units on average: ` +
      "the device, the rollout (consistently, so a halt counts at once; a rollout item holding the target's device ids " +
      'is several kB, and read units go by the whole item) and its target.',
  );
  const own = costOf(tallies.create) + costOf(tallies.report) + costOf(tallies.job, jobScale, false);
  console.log(
    `  A rollout's own work: ${money(own / devicesRolledOut)} per device; with the polls made meanwhile: ` +
      `${money((own + costOf(tallies.poll)) / devicesRolledOut)} per device.`,
  );
};
