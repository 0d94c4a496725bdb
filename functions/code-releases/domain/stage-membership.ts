import { createHash } from 'node:crypto';
import { cumulativeSizes } from '../../../shared/code-releases/rollout-rules';

/**
 * Which stage each device of a rollout belongs to, chosen once when the rollout starts (decision 075): the devices a
 * stage names are its own; the rest are ordered by a hash of the rollout's id and the device's, and each stage takes
 * the next of them up to its cumulative share. The order is random to anyone choosing devices (no serial ranges, no
 * first-registered bias) yet stable: the same rollout and devices always make the same stages, and a device never
 * leaves a stage it was offered, since its stage is written on its target and never computed again.
 *
 * @returns the stage index of every device, in the order of `deviceIds`
 */
export const stageMembership = (
  rolloutId: string,
  deviceIds: readonly string[],
  stages: readonly { percent: number; deviceIds?: readonly string[] }[],
): Map<string, number> => {
  const present = new Set(deviceIds);
  const named = new Map<string, number>();
  stages.forEach((stage, index) => {
    for (const id of stage.deviceIds ?? []) if (present.has(id) && !named.has(id)) named.set(id, index);
  });
  const namedPerStage = stages.map((_, index) => [...named.values()].filter((stage) => stage === index).length);
  const rank = (id: string) => createHash('sha256').update(`${rolloutId}\u0000${id}`).digest('hex');
  const rest = deviceIds
    .filter((id) => !named.has(id))
    .map((id) => ({ id, rank: rank(id) }))
    .sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : a.id < b.id ? -1 : 1))
    .map(({ id }) => id);
  const sizes = cumulativeSizes(
    deviceIds.length,
    stages.map((stage, index) => ({ percent: stage.percent, named: namedPerStage[index]! })),
  );
  const membership = new Map(named);
  let taken = 0;
  let before = 0;
  stages.forEach((_, index) => {
    const wanted = Math.max(0, sizes[index]! - before - namedPerStage[index]!);
    for (const id of rest.slice(taken, taken + wanted)) membership.set(id, index);
    taken = Math.min(rest.length, taken + wanted);
    before = [...membership.values()].filter((stage) => stage <= index).length;
  });
  // The last stage is 100 %: whatever the shares left (only when named devices crowded them) goes there.
  for (const id of rest.slice(taken)) membership.set(id, stages.length - 1);
  return new Map(deviceIds.map((id) => [id, membership.get(id)!]));
};
