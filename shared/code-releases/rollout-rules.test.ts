import fc from 'fast-check';
import {
  automaticHaltReason,
  cumulativeSizes,
  DEFAULT_ABORT,
  emptyStageCounts,
  failureRateLowerBound,
  reportKey,
  type StageCounts,
  shouldHalt,
  stageVerdict,
  tallyOf,
} from './rollout-rules';

const counts = (change: Partial<StageCounts>): StageCounts => ({ ...emptyStageCounts(), ...change });

describe('stage sizes', () => {
  it('rounds each cumulative share up, with at least one device in the first stage', () => {
    const defaults = [1, 5, 25, 100].map((percent) => ({ percent, named: 0 }));
    expect(cumulativeSizes(1_000, defaults)).toEqual([10, 50, 250, 1_000]);
    expect(cumulativeSizes(50, defaults)).toEqual([1, 3, 13, 50]);
    expect(cumulativeSizes(3, defaults)).toEqual([1, 1, 1, 3]);
    expect(cumulativeSizes(1, defaults)).toEqual([1, 1, 1, 1]);
  });

  it('holds the devices a stage names on top of the stages before it', () => {
    expect(
      cumulativeSizes(100, [
        { percent: 1, named: 3 },
        { percent: 5, named: 0 },
        { percent: 10, named: 8 },
        { percent: 100, named: 0 },
      ]),
    ).toEqual([3, 5, 13, 100]);
  });
});

describe('the abort criteria (decision 079)', () => {
  const halts = (change: Partial<StageCounts>, devices = 100, abort = DEFAULT_ABORT) =>
    shouldHalt(tallyOf(counts(change)), abort, devices);

  it('halt when the failures make a rate at or above the threshold 90 % sure, once N finished (or the whole stage)', () => {
    // Before N (5) finished nothing halts, whatever failed.
    expect(halts({ failed: 4 })).toBe(false);
    // One failure among the first finished is not a failure rate: the old share rule halted 1 of 3.
    expect(halts({ failed: 1, succeeded: 4 })).toBe(false);
    expect(halts({ failed: 1, succeeded: 9 })).toBe(false);
    // Two within the first 8 finished do; two of 9 do not; three within 15 do, three of 16 do not.
    expect(halts({ failed: 2, succeeded: 6 })).toBe(true);
    expect(halts({ failed: 1, timed_out: 1, succeeded: 6 })).toBe(true);
    expect(halts({ failed: 2, succeeded: 7 })).toBe(false);
    expect(halts({ failed: 3, succeeded: 12 })).toBe(true);
    expect(halts({ failed: 3, succeeded: 13 })).toBe(false);
    // A large stage at 20 % is well over 10 %: halted; one at 8 % is under it: never.
    expect(halts({ failed: 40, succeeded: 160 }, 1_000)).toBe(true);
    expect(halts({ failed: 40, succeeded: 460 }, 1_000)).toBe(false);
    // Rejected is finished, not a failure; offered or installing is not finished.
    expect(halts({ rejected: 3, installing: 5 })).toBe(false);
    // A canary of one device: its one failure is the whole canary. Of three: one failure of the three.
    expect(halts({ failed: 1 }, 1)).toBe(true);
    expect(halts({ failed: 1, succeeded: 2 }, 3)).toBe(true);
    expect(halts({ failed: 1, succeeded: 3 }, 4)).toBe(false);
  });

  it('never halt under the threshold, halt on a stage that failed whole, and never un-halt on another failure', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2_000 }),
        fc.integer({ min: 0, max: 2_000 }),
        fc.integer({ min: 1, max: 99 }),
        fc.integer({ min: 1, max: 20 }),
        (finished, failuresSeed, threshold, minFinished) => {
          const failures = failuresSeed % (finished + 1);
          const abort = { ...DEFAULT_ABORT, failureThresholdPercent: threshold, minFinished };
          const halted = shouldHalt({ finished, failures }, abort, 10_000);
          // The bound is below the rate seen: a stage whose failures are under the threshold never halts.
          if (failures * 100 < threshold * finished) expect(halted).toBe(false);
          expect(failureRateLowerBound(failures, finished)).toBeLessThanOrEqual(failures / finished);
          // One more failure (in place of a success) never turns a halt into no halt.
          if (halted && failures < finished)
            expect(shouldHalt({ finished, failures: failures + 1 }, abort, 10_000)).toBe(true);
          // Enough finished and every one failed: halted, unless the threshold asks more than 90 % sure of the bound.
          if (
            finished >= minFinished &&
            failures === finished &&
            failureRateLowerBound(finished, finished) * 100 >= threshold
          )
            expect(halted).toBe(true);
        },
      ),
    );
  });

  it('judge after a resume only what finished since (its baseline)', () => {
    const seen = counts({ failed: 3, succeeded: 2 });
    expect(shouldHalt(tallyOf(seen, { finished: 5, failures: 3 }), DEFAULT_ABORT, 100)).toBe(false);
    expect(tallyOf(counts({ failed: 4, succeeded: 6 }), { finished: 5, failures: 3 })).toEqual({
      finished: 5,
      failures: 1,
    });
  });

  it('say what tripped the halt', () => {
    expect(automaticHaltReason('Canary', { finished: 8, failures: 2 }, DEFAULT_ABORT)).toBe(
      'Halted automatically: in stage Canary, 2 of 8 finished devices failed or timed out ' +
        '(25 %: its failure rate is at least the threshold, 10 %, with 90 % confidence)',
    );
  });
});

describe('the stage verdict', () => {
  const base = { abort: DEFAULT_ABORT, devices: 10, soakFrom: 0, soakSeconds: 3_600 };
  it('advances only after the soak, with enough finished and failures under the threshold', () => {
    const healthy = counts({ succeeded: 5 });
    expect(stageVerdict({ ...base, counts: healthy, now: 3_599_999 })).toEqual({ kind: 'wait', why: 'soaking' });
    expect(stageVerdict({ ...base, counts: healthy, now: 3_600_000 })).toEqual({ kind: 'advance' });
    expect(stageVerdict({ ...base, counts: counts({ succeeded: 4 }), now: 9e9 })).toEqual({
      kind: 'wait',
      why: 'evidence',
    });
    // One failure of six soaked: under the bar, so the stage goes on (the old share rule halted it); two halt it.
    expect(stageVerdict({ ...base, counts: counts({ succeeded: 5, failed: 1 }), now: 9e9 })).toEqual({
      kind: 'advance',
    });
    expect(stageVerdict({ ...base, counts: counts({ succeeded: 5, failed: 2 }), now: 9e9 }).kind).toBe('halt');
    // An empty stage has nothing to learn from: it passes at once.
    expect(stageVerdict({ ...base, devices: 0, counts: counts({}), now: 0 })).toEqual({ kind: 'advance' });
  });
});

describe('the order of reports (decision 076)', () => {
  it('ranks finished over on-the-way whatever the times, a timeout between, and the later time within a class', () => {
    expect(reportKey('succeeded', 10)).toBeGreaterThan(reportKey('installing', 99_999));
    expect(reportKey('failed', 10)).toBeGreaterThan(reportKey('timed_out', 99_999));
    expect(reportKey('timed_out', 10)).toBeGreaterThan(reportKey('downloading', 99_999));
    expect(reportKey('installing', 10)).toBeGreaterThan(reportKey('downloading', 10));
    expect(reportKey('downloading', 11)).toBeGreaterThan(reportKey('installing', 10));
    expect(reportKey('succeeded', 11)).toBeGreaterThan(reportKey('failed', 10));
    expect(reportKey('offered', 0)).toBeLessThan(reportKey('downloading', 0));
    expect(Number.isSafeInteger(reportKey('succeeded', Date.UTC(2280, 0, 1)))).toBe(true);
  });
});
