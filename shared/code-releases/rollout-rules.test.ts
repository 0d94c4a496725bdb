import {
  cumulativeSizes,
  DEFAULT_ABORT,
  emptyStageCounts,
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

describe('the abort criteria', () => {
  it('halt when failed and timed out reach the threshold of the finished, once N finished (or the whole stage)', () => {
    expect(shouldHalt(tallyOf(counts({ failed: 1, succeeded: 1 })), DEFAULT_ABORT, 100)).toBe(false);
    expect(shouldHalt(tallyOf(counts({ failed: 1, succeeded: 2 })), DEFAULT_ABORT, 100)).toBe(true);
    expect(shouldHalt(tallyOf(counts({ timed_out: 1, succeeded: 9 })), DEFAULT_ABORT, 100)).toBe(true);
    expect(shouldHalt(tallyOf(counts({ failed: 1, succeeded: 10 })), DEFAULT_ABORT, 100)).toBe(false);
    // Rejected is finished, not a failure; offered or installing is not finished.
    expect(shouldHalt(tallyOf(counts({ rejected: 3, installing: 5 })), DEFAULT_ABORT, 100)).toBe(false);
    // A canary of one device: its one failure is the whole canary.
    expect(shouldHalt(tallyOf(counts({ failed: 1 })), DEFAULT_ABORT, 1)).toBe(true);
  });

  it('judge after a resume only what finished since (its baseline)', () => {
    const seen = counts({ failed: 3, succeeded: 2 });
    expect(shouldHalt(tallyOf(seen, { finished: 5, failures: 3 }), DEFAULT_ABORT, 100)).toBe(false);
    expect(tallyOf(counts({ failed: 4, succeeded: 6 }), { finished: 5, failures: 3 })).toEqual({
      finished: 5,
      failures: 1,
    });
  });
});

describe('the stage verdict', () => {
  const base = { abort: DEFAULT_ABORT, devices: 10, soakFrom: 0, soakSeconds: 3_600 };
  it('advances only after the soak, with enough finished and failures under the threshold', () => {
    const healthy = counts({ succeeded: 5 });
    expect(stageVerdict({ ...base, counts: healthy, now: 3_599_999 })).toEqual({ kind: 'wait', why: 'soaking' });
    expect(stageVerdict({ ...base, counts: healthy, now: 3_600_000 })).toEqual({ kind: 'advance' });
    expect(stageVerdict({ ...base, counts: counts({ succeeded: 2 }), now: 9e9 })).toEqual({
      kind: 'wait',
      why: 'evidence',
    });
    expect(stageVerdict({ ...base, counts: counts({ succeeded: 5, failed: 1 }), now: 9e9 }).kind).toBe('halt');
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
