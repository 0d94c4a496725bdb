import { routeKey } from '../../lib/query';

/** Every read that shows a release: its page, its gate, and the lists (with their verdicts). */
export const releaseShownKeys = (id: string) => [
  routeKey('code-releases', 'getRelease', { params: { id } }),
  routeKey('code-releases', 'listReleases'),
];

/** A test run changes the release's gate and verdict as well as the runs' list. */
export const testRunKeys = (id: string) => [
  ...releaseShownKeys(id),
  routeKey('code-releases', 'listTestRuns', { params: { id } }),
];

/** A rollout started or halted: the release's rollouts, each rollout's page and their devices. */
export const rolloutKeys = (id: string) => [
  routeKey('code-releases', 'listRollouts', { params: { id } }),
  routeKey('code-releases', 'getRollout'),
  routeKey('code-releases', 'listRolloutDevices'),
];
