import { productLineName } from '../text/product-words';

/**
 * The code-releases area's user-facing messages (docs/code-releases.md), in shared/messages.ts's style. A module of
 * their own: only the API and the staff screens read them, so every guest's first page does not carry them. Whether a
 * release may roll out, and why not: rollout-gate.ts beside this file.
 */
export const RELEASE_MESSAGES = {
  releaseNotFound: (id: string) => `Release not found: ${id}`,
  releaseExists: (line: string, version: string) =>
    `${productLineName(line)} ${version} exists already: a version is released once`,
  releasePublished: (line: string, version: string) =>
    `${productLineName(line)} ${version} is published: a published release cannot change (release a new version instead)`,
  releaseChanged: 'This release was changed by someone else at the same time; please try again',
  releaseArtifactKey: 'This is not an upload for this release: ask for a new upload URL',
  releaseArtifactMissing: 'The uploaded file was not found: upload it again with a new upload URL',
  releaseArtifactEmpty: 'The uploaded file is empty; it was deleted',
  releaseArtifactTooLarge: (maxMb: number) => `The uploaded file is larger than ${maxMb} MB; it was deleted`,
  releaseArtifactMismatch: (given: string, actual: string) =>
    `The uploaded file's SHA-256 is ${actual}, not the ${given} you gave: it was deleted, upload the right file`,
  testRunNotFound: (id: string) => `Test run not found: ${id}`,
  testRunConcluded: 'This test run has its result already: record a new test run instead',
  rolloutNotFound: (id: string) => `Rollout not found: ${id}`,
  rolloutHalted: 'This rollout is halted already',
  rolloutTargetMissing: (kind: string, id: string) => `No ${kind} ${id}: choose one that exists`,
  rolloutNoDevices: (line: string, label: string) =>
    `${label} holds no ${productLineName(line)} device that can take this release`,
  rolloutTooMany: (count: number, max: number) =>
    `The target holds ${count} devices; a rollout assigns at most ${max}: split it into smaller targets`,
  rolloutAssignmentFailed:
    'Not every device could be assigned, so the rollout was halted; start a new rollout to assign the rest',
} as const;
