import fc from 'fast-check';
import { type ChartPoint, lineOf, pointsOf } from './chart-rules';

const MINUTE = 60_000;
const point = (x: number, mean: number): ChartPoint => ({ x, min: mean - 1, max: mean + 1, mean });

describe('pointsOf', () => {
  it("takes each bucket's middle and skips the buckets without a value of the measurement", () => {
    const points = pointsOf(
      { t: [0, 2 * MINUTE, 4 * MINUTE], bucketMs: 2 * MINUTE },
      {
        label: 'PM2.5',
        min: [1, null, 4],
        max: [3, null, 6],
        mean: [2, null, 5],
        gapMs: 6 * MINUTE,
        suspect: [0, 0, 0],
        bad: [0, 0, 0],
      },
    );
    expect(points).toEqual([
      { x: MINUTE, min: 1, max: 3, mean: 2 },
      { x: 5 * MINUTE, min: 4, max: 6, mean: 5 },
    ]);
  });
});

describe('lineOf', () => {
  it('joins points closer than the gap and breaks the line once across a longer silence', () => {
    const points = [0, 10, 20, 30, 400, 410].map((m) => point(m * MINUTE, m));
    const { data, isolated } = lineOf(points, 30 * MINUTE);
    const [xs, , , mean] = data;
    expect(xs).toBeInstanceOf(Float64Array);
    expect(mean).toEqual([0, 10, 20, 30, null, 400, 410]);
    // The break sits between its neighbours, in seconds.
    expect(xs[4]).toBe((215 * MINUTE) / 1000);
    expect(isolated).toEqual([]);
  });

  it('marks a lone value, and one between two silences, to be drawn as a point', () => {
    expect(lineOf([point(0, 1)], null).isolated).toEqual([0]);
    const { data, isolated } = lineOf([point(0, 1), point(5, 2), point(500, 3), point(1_000, 4), point(1_005, 5)], 50);
    expect(data[3]).toEqual([1, 2, null, 3, null, 4, 5]);
    expect(isolated).toEqual([3]);
  });

  it('keeps x ascending and every value, whatever the spacing', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 100_000 }), { maxLength: 200 }),
        fc.option(fc.integer({ min: 1, max: 100_000 })),
        (steps, gapMs) => {
          const xs0 = steps.reduce<number[]>((all, step) => [...all, (all.at(-1) ?? 0) + step], []);
          const points = xs0.map((x, i) => point(x, i));
          const { data } = lineOf(points, gapMs);
          const xs = [...data[0]];
          expect(xs).toEqual([...xs].sort((a, b) => a - b));
          expect(data[3].filter((v) => v !== null)).toEqual(points.map((p) => p.mean));
          const breaks = data[3].filter((v) => v === null).length;
          expect(breaks).toBe(gapMs === null ? 0 : steps.slice(1).filter((step) => step > gapMs).length);
        },
      ),
    );
  });
});
