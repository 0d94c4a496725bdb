import type { Release } from '../../../shared/contracts/code-releases';

/** A release as stored: the contract's record plus its semver sort key (the byProductLine index's sort key). */
export type StoredRelease = Release & { versionKey: string };

/** Where a release's objects live in the releases bucket. */
export const artifactPrefix = (releaseId: string) => `releases/${releaseId}/`;

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
export const isArtifactKeyOf = (releaseId: string, key: string) =>
  key.startsWith(artifactPrefix(releaseId)) &&
  new RegExp(`^artifact-${UUID}$`).test(key.slice(artifactPrefix(releaseId).length));

/** A test run's id sorts by its start time (13 digits until the year 2286), then a random part. */
export const testRunIdOf = (started: number, random: string) =>
  `${String(started).padStart(13, '0')}-${random.replace(/-/g, '').slice(0, 12)}`;

/** The release of a product line and version, without the store's own fields. */
export const present = ({ versionKey: _key, ...release }: StoredRelease): Release => release;
