import fc from 'fast-check';
import { ROLLUP_GRACE_MS, rollupNotBefore } from './rollup-coalescing';

const HOUR = 3_600_000;
// 2026-11-28 14:20:00 UTC: an hour that is under way.
const NOW = Date.UTC(2026, 10, 28, 14, 20);
const THIS_HOUR = Date.UTC(2026, 10, 28, 14);

describe('when a roll-up may run (rollupNotBefore)', () => {
  it('without coalescing, at once', () => {
    expect(rollupNotBefore([THIS_HOUR], NOW, 'none')).toBeUndefined();
  });

  it('hourly: the hour under way waits for its end and the grace minute; an hour long over, not at all', () => {
    expect(rollupNotBefore([THIS_HOUR], NOW, 'hour')).toBe(THIS_HOUR + HOUR + ROLLUP_GRACE_MS);
    expect(rollupNotBefore([THIS_HOUR - 3 * HOUR], NOW, 'hour')).toBeUndefined();
    // A batch of 13:59 arriving at 14:00:30 still belongs to 13:00's recompute, which has not run yet.
    expect(rollupNotBefore([THIS_HOUR - HOUR], THIS_HOUR + 30_000, 'hour')).toBe(THIS_HOUR + ROLLUP_GRACE_MS);
  });

  it('hourly: a batch spanning hours waits for its newest, and the time is always in the future and within 61 minutes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: NOW - 48 * HOUR, max: NOW + 5 * 60_000 }), { minLength: 1, maxLength: 20 }),
        (times) => {
          const hours = [...new Set(times.map((t) => Math.floor(t / HOUR) * HOUR))];
          const due = rollupNotBefore(hours, NOW, 'hour');
          const newestEnd = Math.max(...hours) + HOUR + ROLLUP_GRACE_MS;
          if (newestEnd <= NOW) return due === undefined;
          return due === newestEnd && due > NOW && due - NOW <= HOUR + ROLLUP_GRACE_MS;
        },
      ),
    );
  });
});
