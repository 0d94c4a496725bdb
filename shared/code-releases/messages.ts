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
  // A device's report of a firmware update (docs/code-releases.md, "Devices report"): data-ingress answers them.
  firmwareReportFuture: (minutes: number) =>
    `at is more than ${minutes} minutes ahead of the server clock: check the device's clock`,
  firmwareReportNotInRollout: (deviceId: string, rolloutId: string) =>
    `Device ${deviceId} is not in rollout ${rolloutId}: report the rollout its firmware offer named`,
  firmwareReportOtherRelease: (rolloutId: string, releaseId: string, given: string) =>
    `Rollout ${rolloutId} rolls out ${releaseId}, not ${given}`,
  firmwareReportSuperseded: (deviceId: string, rolloutId: string) =>
    `Device ${deviceId} left rollout ${rolloutId} for a later one: ask GET /data-ingress/firmware for its update`,
  firmwareReportNotOffered: (deviceId: string) =>
    `Device ${deviceId} was not offered this update yet: its stage of the rollout has not started`,
  rolloutNotFound: (id: string) => `Rollout not found: ${id}`,
  rolloutHalted: 'This rollout is halted already',
  rolloutTargetMissing: (kind: string, id: string) => `No ${kind} ${id}: choose one that exists`,
  rolloutNoDevices: (line: string, label: string) =>
    `${label} holds no ${productLineName(line)} device that can take this release`,
  rolloutTooMany: (count: number, max: number) =>
    `The target holds ${count} devices; a rollout assigns at most ${max}: split it into smaller targets`,
  rolloutRolledBack: 'This rollout was rolled back: start a new rollout to offer a release again',
  rolloutNotActive: (status: string) =>
    status === 'halted'
      ? 'This rollout is halted: resume it before advancing it'
      : status === 'preparing'
        ? 'This rollout is still assigning its devices: it can advance once it is active'
        : 'This rollout was rolled back: it cannot advance',
  rolloutPreparing:
    'This rollout is still assigning its devices and offers nothing yet: look again in a minute, once it is active',
  rolloutAdvancedAlready: (stage: string) =>
    `This rollout is at stage ${stage} already: someone advanced it at the same time; look again before advancing`,
  rolloutLastStage: 'This rollout is at its last stage: there is no stage to advance to',
  rolloutNotHalted: (status: string) =>
    status === 'active' || status === 'preparing'
      ? 'This rollout is not halted: there is nothing to resume'
      : 'A rolled-back rollout cannot resume',
  rolloutChanged: 'This rollout was changed by someone else at the same time; please look again',
  rolloutNoPrevious: (line: string, version: string) =>
    `There is no published ${line} release below ${version} to roll back to`,
  rolloutNothingInstalled:
    'No device installed this release, so there is nothing to roll back: halt the rollout instead',
  rolloutStageDeviceOutside: (deviceId: string, stage: string) =>
    `Device ${deviceId}, named in stage ${stage}, is not in the rollout's target`,
  releaseNotPublished: (line: string, version: string) => `${line} ${version} has no verified artifact to offer`,
  releaseRolledOut: (line: string, version: string) =>
    `${line} ${version} has been rolled out: what devices were offered never changes (release a new version instead)`,
  rolloutNothingAssigned:
    'Halted automatically: no device of its target could be assigned (each was retired, moved to another product line or taken by a later rollout since it started)',
  rolloutAssignmentStalled: (tries: number) =>
    `Halted automatically: assigning its devices failed ${tries} times in a row; resume it to go on from where it stopped`,
  rolloutAssignmentFailed:
    'Not every device could be assigned, so the rollout was halted; start a new rollout to assign the rest',
} as const;
