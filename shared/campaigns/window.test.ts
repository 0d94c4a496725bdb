import { campaignStatus, MAX_CAMPAIGN_MS, windowProblem } from './campaign-rules';
import { clipToWindows, isInWindow, mergeWindows } from './window';

describe('mergeWindows', () => {
  it('sorts and joins overlapping and touching windows, keeps gaps', () => {
    expect(
      mergeWindows([
        { startsAt: 50, endsAt: 60 },
        { startsAt: 0, endsAt: 10 },
        { startsAt: 5, endsAt: 20 },
        { startsAt: 21, endsAt: 30 },
        { startsAt: 40, endsAt: 45 },
      ]),
    ).toEqual([
      { startsAt: 0, endsAt: 30 },
      { startsAt: 40, endsAt: 45 },
      { startsAt: 50, endsAt: 60 },
    ]);
  });

  it('a window inside another disappears; an inverted one is dropped; input is not changed', () => {
    const input = [
      { startsAt: 0, endsAt: 100 },
      { startsAt: 10, endsAt: 20 },
      { startsAt: 9, endsAt: 1 },
    ];
    expect(mergeWindows(input)).toEqual([{ startsAt: 0, endsAt: 100 }]);
    expect(input[0]).toEqual({ startsAt: 0, endsAt: 100 });
  });

  it('no windows, no union', () => {
    expect(mergeWindows([])).toEqual([]);
  });
});

describe('isInWindow', () => {
  const windows = [
    { startsAt: 10, endsAt: 20 },
    { startsAt: 30, endsAt: 40 },
  ];
  it.each([
    [9, false],
    [10, true],
    [20, true],
    [21, false],
    [35, true],
    [41, false],
  ])('%d → %s (both ends included)', (time, expected) => {
    expect(isInWindow(time, windows)).toBe(expected);
  });

  it('null is unlimited; no windows let nothing through', () => {
    expect(isInWindow(-5, null)).toBe(true);
    expect(isInWindow(15, [])).toBe(false);
  });
});

describe('clipToWindows', () => {
  const windows = [
    { startsAt: 30, endsAt: 40 },
    { startsAt: 10, endsAt: 20 },
  ];

  it('keeps the parts of the range inside the windows, in time order', () => {
    expect(clipToWindows({ from: 15, to: 35 }, windows)).toEqual([
      { from: 15, to: 20 },
      { from: 30, to: 35 },
    ]);
  });

  it('a range covering everything is cut to the windows', () => {
    expect(clipToWindows({ from: 0, to: 100 }, windows)).toEqual([
      { from: 10, to: 20 },
      { from: 30, to: 40 },
    ]);
  });

  it('a range between windows, or before and after them, yields nothing', () => {
    expect(clipToWindows({ from: 21, to: 29 }, windows)).toEqual([]);
    expect(clipToWindows({ from: 0, to: 9 }, windows)).toEqual([]);
    expect(clipToWindows({ from: 41, to: 99 }, windows)).toEqual([]);
  });

  it('a range touching a window end keeps that one millisecond', () => {
    expect(clipToWindows({ from: 20, to: 25 }, windows)).toEqual([{ from: 20, to: 20 }]);
  });

  it('unlimited passes the range; an inverted range is empty', () => {
    expect(clipToWindows({ from: 1, to: 2 }, null)).toEqual([{ from: 1, to: 2 }]);
    expect(clipToWindows({ from: 5, to: 1 }, null)).toEqual([]);
    expect(clipToWindows({ from: 0, to: 100 }, [])).toEqual([]);
  });

  it('overlapping windows do not return a part twice', () => {
    expect(
      clipToWindows({ from: 0, to: 100 }, [
        { startsAt: 10, endsAt: 30 },
        { startsAt: 20, endsAt: 40 },
      ]),
    ).toEqual([{ from: 10, to: 40 }]);
  });
});

describe('campaign rules', () => {
  it('status: planned before the start, running through the end (inclusive), ended after', () => {
    const w = { startsAt: 100, endsAt: 200 };
    expect(campaignStatus(w, 99)).toBe('planned');
    expect(campaignStatus(w, 100)).toBe('running');
    expect(campaignStatus(w, 200)).toBe('running');
    expect(campaignStatus(w, 201)).toBe('ended');
  });

  it('a window must end after it starts and last at most the maximum', () => {
    expect(windowProblem({ startsAt: 10, endsAt: 10 })).toBe('The campaign must end after it starts');
    expect(windowProblem({ startsAt: 10, endsAt: 5 })).toBe('The campaign must end after it starts');
    expect(windowProblem({ startsAt: 0, endsAt: MAX_CAMPAIGN_MS })).toBeUndefined();
    expect(windowProblem({ startsAt: 0, endsAt: MAX_CAMPAIGN_MS + 1 })).toBe('A campaign lasts at most 1827 days');
  });
});
