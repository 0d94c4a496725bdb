import { medianGap } from './batch-interval';

describe('a device’s usual interval', () => {
  it('is the median gap between its batches: one long silence or a burst moves it not at all', () => {
    const minute = 60_000;
    const times = [0, 1, 2, 3, 4, 5, 60, 61, 61, 61.01].map((m) => m * minute);
    expect(medianGap(times)).toBe(minute);
    expect(medianGap([0, 5, 10, 15, 20].map((m) => m * minute))).toBe(5 * minute);
  });

  it('is unknown with fewer than three gaps', () => {
    expect(medianGap([0, 60_000, 120_000])).toBeUndefined();
    expect(medianGap([])).toBeUndefined();
  });
});
