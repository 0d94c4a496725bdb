import { stageMembership } from './stage-membership';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `dev-${i}`);
const DEFAULT = [1, 5, 25, 100].map((percent) => ({ percent }));
const sizes = (membership: Map<string, number>, stages: number) =>
  Array.from({ length: stages }, (_, stage) => [...membership.values()].filter((s) => s === stage).length);

describe('stage membership (decision 075)', () => {
  it('sizes each stage by its cumulative share, and every device lands in exactly one stage', () => {
    const membership = stageMembership('rollout-1', ids(1_000), DEFAULT);
    expect(sizes(membership, 4)).toEqual([10, 40, 200, 750]);
    expect(membership.size).toBe(1_000);
  });

  it('is stable: the same rollout and devices make the same stages, whatever order the devices come in', () => {
    const one = stageMembership('rollout-1', ids(300), DEFAULT);
    const shuffled = stageMembership('rollout-1', [...ids(300)].reverse(), DEFAULT);
    for (const id of ids(300)) expect(shuffled.get(id)).toBe(one.get(id));
  });

  it('is random per rollout: no range of ids makes the canary, and another rollout picks another one', () => {
    const canary = (rollout: string) =>
      [...stageMembership(rollout, ids(1_000), DEFAULT)].filter(([, s]) => s === 0).map(([id]) => id);
    expect(canary('rollout-1')).not.toEqual(canary('rollout-2'));
    const numbers = canary('rollout-1').map((id) => Number(id.slice(4)));
    expect(Math.max(...numbers) - Math.min(...numbers)).toBeGreaterThan(200);
  });

  it('puts named devices in their stage first, and the rest by the order', () => {
    const membership = stageMembership('rollout-1', ids(100), [
      { percent: 1, deviceIds: ['dev-5', 'dev-6', 'dev-7'] },
      { percent: 50 },
      { percent: 100, deviceIds: ['dev-1'] },
    ]);
    expect(sizes(membership, 3)).toEqual([3, 47, 50]);
    expect(['dev-5', 'dev-6', 'dev-7'].map((id) => membership.get(id))).toEqual([0, 0, 0]);
    expect(membership.get('dev-1')).toBe(2);
  });
});
