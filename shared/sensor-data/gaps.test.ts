import fc from 'fast-check';
import { GAP_FACTOR, gapThreshold, medianSpacing } from './gaps';

const MINUTE = 60_000;

describe('medianSpacing', () => {
  it('is the middle step, or the mean of the two middle ones', () => {
    expect(medianSpacing([0, 10, 20, 50])).toBe(10);
    expect(medianSpacing([0, 10, 30, 60, 100])).toBe(25);
    expect(medianSpacing([5])).toBeUndefined();
    expect(medianSpacing([])).toBeUndefined();
  });
});

describe('gapThreshold', () => {
  it('joins a device reporting every 10 minutes, and breaks at a 6-hour silence', () => {
    const times = Array.from({ length: 144 }, (_, i) => i * 10 * MINUTE).filter(
      (t) => t < 60 * 10 * MINUTE || t >= 96 * 10 * MINUTE,
    );
    const threshold = gapThreshold(times)!;
    expect(threshold).toBe(30 * MINUTE);
    const breaks = times.slice(1).filter((t, i) => t - times[i]! > threshold);
    expect(breaks).toEqual([96 * 10 * MINUTE]);
  });

  it('has nothing to join for a single value', () => {
    expect(gapThreshold([1_000])).toBeNull();
  });

  it('never breaks a line more often than at one step in two (the median step is always joined)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 10_000_000 }), { minLength: 1, maxLength: 300 }), (steps) => {
        const times = steps.reduce<number[]>((all, step) => [...all, (all.at(-1) ?? 0) + step], [0]);
        const threshold = gapThreshold(times)!;
        const broken = steps.filter((step) => step > threshold).length;
        expect(broken).toBeLessThanOrEqual(Math.floor(steps.length / 2));
        expect(threshold).toBeGreaterThanOrEqual(Math.min(...steps) * GAP_FACTOR);
      }),
    );
  });
});
