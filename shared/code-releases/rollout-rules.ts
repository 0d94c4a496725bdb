/**
 * Staged rollouts' rules, used by the API, the stage job, ingest (a device's report) and the web app alike
 * (docs/code-releases.md, "Stages"; decisions 075 and 076). No AWS, no React.
 */

/** Where one device of a rollout stands. */
export const DEVICE_UPDATE_STATES = [
  'pending',
  'offered',
  'downloading',
  'installing',
  'succeeded',
  'failed',
  'rejected',
  'timed_out',
  'superseded',
] as const;
export type DeviceUpdateState = (typeof DEVICE_UPDATE_STATES)[number];

/** What a device itself reports (POST /data-ingress/firmware/status and its MQTT topic). */
export const REPORTED_STATES = ['downloading', 'installing', 'succeeded', 'failed', 'rejected'] as const;
export type ReportedState = (typeof REPORTED_STATES)[number];

/** The device is done with this update, one way or the other. */
export const FINISHED_STATES = ['succeeded', 'failed', 'rejected', 'timed_out'] as const satisfies DeviceUpdateState[];
/** What counts against the abort threshold: the update did not work, or the device went silent. */
export const FAILURE_STATES = ['failed', 'timed_out'] as const satisfies DeviceUpdateState[];
/** Offered and not finished: the states the timeout applies to. */
export const IN_FLIGHT_STATES = ['offered', 'downloading', 'installing'] as const satisfies DeviceUpdateState[];
/** A device in one of these is offered the release when it asks (timed out: it may still be on its way). */
export const OFFERABLE_STATES = [
  'pending',
  'offered',
  'downloading',
  'installing',
  'timed_out',
] as const satisfies DeviceUpdateState[];

/** Each state as a person reads it (the rollout page, the device page's update history). */
export const UPDATE_STATE_TEXT: Record<DeviceUpdateState, string> = {
  pending: 'Pending',
  offered: 'Offered',
  downloading: 'Downloading',
  installing: 'Installing',
  succeeded: 'Succeeded',
  failed: 'Failed',
  rejected: 'Rejected',
  timed_out: 'Timed out',
  superseded: 'Superseded',
};

export const isIn = <T extends string>(states: readonly T[], state: string): state is T =>
  (states as readonly string[]).includes(state);

export type StageCounts = Record<DeviceUpdateState, number>;

export const emptyStageCounts = (): StageCounts =>
  Object.fromEntries(DEVICE_UPDATE_STATES.map((state) => [state, 0])) as StageCounts;

export const DAY_SECONDS = 24 * 3600;

/** A stage as a request names it: a cumulative share of the targeted devices, devices named for it, its soak. */
export interface StagePlan {
  name?: string;
  percent: number;
  deviceIds?: string[];
  soakSeconds: number;
}

/** Canary (the devices a person picks, or 1 %, at least one) → 5 % → 25 % → 100 %, each soaking a day. */
export const DEFAULT_STAGES: readonly Required<Omit<StagePlan, 'deviceIds'>>[] = [
  { name: 'Canary', percent: 1, soakSeconds: DAY_SECONDS },
  { name: '5 %', percent: 5, soakSeconds: DAY_SECONDS },
  { name: '25 %', percent: 25, soakSeconds: DAY_SECONDS },
  { name: 'Everyone', percent: 100, soakSeconds: DAY_SECONDS },
];

export interface AbortCriteria {
  /**
   * Halt when the stage's failed and timed-out devices make it {@link HALT_CONFIDENCE_PERCENT} % sure that at least
   * this share of its devices fail (decision 079): a share to find, not one failure among the first few finished.
   */
  failureThresholdPercent: number;
  /** …once at least this many of the stage's devices finished (or the whole stage, when it holds fewer). */
  minFinished: number;
  /** An offered device that has not finished this long after the offer is timed out (decision 076). */
  timeoutSeconds: number;
}

/** Six hours: a slow download on a cellular link with retries, well inside a day's soak (decision 076). */
export const DEFAULT_TIMEOUT_SECONDS = 6 * 3600;
/**
 * 10 % after 5: with the confidence below, over simulated 1,000-device fleets a bad release (30 % fail) halts with at
 * most 2 % of the fleet offered in about 92 % of them and a healthy one (2 %) reaches 100 % in about 95 % (decision 079,
 * `npm run bench`, section `rollouts`). Fewer than 5 and one failure among a stage's first 3 halts it again.
 */
export const DEFAULT_ABORT: AbortCriteria = {
  failureThresholdPercent: 10,
  minFinished: 5,
  timeoutSeconds: DEFAULT_TIMEOUT_SECONDS,
};

/** How sure a stage's failures must make us that its failure rate reaches the threshold before it halts. */
export const HALT_CONFIDENCE_PERCENT = 90;
/** The standard normal quantile of 0.90: the one-sided bound's z. */
const HALT_Z = 1.2815515655446004;

/**
 * The lower end of the Wilson score interval of `failures` out of `finished` at {@link HALT_CONFIDENCE_PERCENT} %,
 * one-sided: the lowest failure rate those figures leave 90 % likely. Wilson's interval, not the normal
 * approximation, because stages judge a handful of devices (the normal bound is below zero for 1 of 5).
 */
export const failureRateLowerBound = (failures: number, finished: number): number => {
  if (finished <= 0 || failures <= 0) return 0;
  const rate = Math.min(failures, finished) / finished;
  const z2 = HALT_Z * HALT_Z;
  const centre = rate + z2 / (2 * finished);
  const spread = HALT_Z * Math.sqrt((rate * (1 - rate)) / finished + z2 / (4 * finished * finished));
  return Math.max(0, (centre - spread) / (1 + z2 / finished));
};

/** A stage's name when the request gave none: its share. */
export const stageNameOf = (stage: StagePlan, index: number, count: number): string =>
  stage.name?.trim() || (index === 0 && count > 1 ? 'Canary' : `${stage.percent} %`);

/**
 * How many of `total` devices stages 0…k hold together: the stage's cumulative share rounded up, and never fewer than
 * the stages before it plus the devices named for it; at least one from the first stage on (a canary of 1 % of 50
 * devices is one device).
 */
export const cumulativeSizes = (total: number, stages: readonly { percent: number; named: number }[]): number[] => {
  let previous = 0;
  return stages.map((stage, index) => {
    const share = Math.ceil((total * stage.percent) / 100 - 1e-9);
    const size = Math.min(total, Math.max(previous + stage.named, share, index === 0 && total > 0 ? 1 : 0));
    previous = size;
    return size;
  });
};

/** The stage's own counts less what a resume set aside (decision 076: a resume judges what comes after it). */
export interface StageTally {
  finished: number;
  failures: number;
}

export const tallyOf = (counts: StageCounts, baseline?: StageTally): StageTally => {
  const finished = FINISHED_STATES.reduce((sum, state) => sum + (counts[state] ?? 0), 0);
  const failures = FAILURE_STATES.reduce((sum, state) => sum + (counts[state] ?? 0), 0);
  return {
    finished: Math.max(0, finished - (baseline?.finished ?? 0)),
    failures: Math.max(0, failures - (baseline?.failures ?? 0)),
  };
};

/** How many finished devices the criteria wait for in a stage of `devices`: N, or the whole stage when smaller. */
export const finishedNeeded = (abort: AbortCriteria, devices: number) =>
  Math.max(1, Math.min(abort.minFinished, devices));

/**
 * Whether the stage's failures show, with {@link HALT_CONFIDENCE_PERCENT} % confidence, a failure rate at or above the
 * threshold, once enough of its devices finished (decision 079). Checked at every failure, so it is a sequential test
 * of the stage's own reports: 2 failures halt a stage within its first 8 finished devices, 3 within 15, 1 only a stage
 * of at most 3 devices (the threshold 10 %).
 */
export const shouldHalt = (tally: StageTally, abort: AbortCriteria, devices: number): boolean =>
  tally.finished >= finishedNeeded(abort, devices) &&
  failureRateLowerBound(tally.failures, tally.finished) * 100 >= abort.failureThresholdPercent;

/** The words of an automatic halt, with what tripped it. */
export const automaticHaltReason = (stageName: string, tally: StageTally, abort: AbortCriteria): string =>
  `Halted automatically: in stage ${stageName}, ${tally.failures} of ${tally.finished} finished ` +
  `${tally.finished === 1 ? 'device' : 'devices'} failed or timed out ` +
  `(${Math.round((tally.failures * 100) / tally.finished)} %: its failure rate is at least the threshold, ` +
  `${abort.failureThresholdPercent} %, with ${HALT_CONFIDENCE_PERCENT} % confidence)`;

export type StageVerdict =
  | { kind: 'halt'; tally: StageTally }
  | { kind: 'advance' }
  | { kind: 'wait'; why: 'soaking' | 'evidence' };

/**
 * What the stage job does with the current stage: halt it when its failures reach the threshold; advance once its
 * soak has passed with enough devices finished and failures under the threshold (an empty stage advances at once);
 * otherwise wait. `soakFrom` is when the stage started, or when it was resumed (a resume soaks again).
 */
export const stageVerdict = ({
  counts,
  baseline,
  abort,
  devices,
  soakFrom,
  soakSeconds,
  now,
}: {
  counts: StageCounts;
  baseline?: StageTally;
  abort: AbortCriteria;
  devices: number;
  soakFrom: number;
  soakSeconds: number;
  now: number;
}): StageVerdict => {
  if (devices === 0) return { kind: 'advance' };
  const tally = tallyOf(counts, baseline);
  if (shouldHalt(tally, abort, devices)) return { kind: 'halt', tally };
  if (now < soakFrom + soakSeconds * 1000) return { kind: 'wait', why: 'soaking' };
  if (tally.finished < finishedNeeded(abort, devices)) return { kind: 'wait', why: 'evidence' };
  return { kind: 'advance' };
};

/**
 * The order of a device's reports (decision 076): a finished state outranks one on the way, whatever the times; a
 * timeout outranks any report on the way and yields to any finished one; within a class the later `at` wins, then
 * the later step. The stored key only grows, so the same reports in any order, or twice, end in the same state.
 */
const CLASS: Record<DeviceUpdateState, number> = {
  pending: 0,
  offered: 0,
  downloading: 0,
  installing: 0,
  superseded: 0,
  timed_out: 1,
  succeeded: 2,
  failed: 2,
  rejected: 2,
};
const STEP: Record<DeviceUpdateState, number> = {
  pending: 0,
  offered: 1,
  downloading: 2,
  installing: 3,
  timed_out: 4,
  failed: 5,
  rejected: 6,
  succeeded: 7,
  superseded: 0,
};

/** Times past the year 2286 (13 digits of milliseconds) are not expected; each part keeps to its digits. */
export const reportKey = (state: DeviceUpdateState, at: number): number =>
  CLASS[state] * 1e14 + Math.max(0, Math.min(at, 9_999_999_999_999)) * 10 + STEP[state];
