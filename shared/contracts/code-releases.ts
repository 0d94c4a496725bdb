import * as z from 'zod';
import { DAY_SECONDS, DEVICE_UPDATE_STATES, type DeviceUpdateState } from '../code-releases/rollout-rules';
import { parseSemVer } from '../code-releases/semver';
import { TEST_RUN_STATUSES } from '../code-releases/test-run-status';
import { EpochMillis, PageQuery, page } from './common';
import { defineArea, defineRoute, minGroup } from './define-route';
import { DeviceId, ObjectId, ProductLine } from './shapes';

/**
 * Firmware releases, their test runs and their rollouts (docs/code-releases.md). Staff only: Employees and
 * Administrators create releases, upload artifacts, record test runs and halt rollouts; only Administrators start a
 * rollout, which changes what runs on customers' devices. A release is a draft until its artifact is verified, then
 * published and immutable except for its test runs; it rolls out only while its latest test result is a Pass.
 */

/** Semver 2.0.0 without build metadata (shared/code-releases/semver.ts says why). */
export const ReleaseVersion = z
  .string({ error: 'Version must be text' })
  .trim()
  .max(64, 'Version is at most 64 characters')
  .refine(
    (value) => parseSemVer(value) !== undefined,
    'Version must be a semantic version such as 1.4.2 or 2.0.0-rc.1 (no build metadata after +)',
  );

/** `{productLine}-{version}`: one release per product line and version, a second is a conditional-write conflict. */
export const ReleaseId = z
  .string()
  .trim()
  .min(1, 'Release id cannot be empty')
  .max(80, 'Release id is at most 80 characters')
  .regex(/^[a-z0-9]+-[0-9A-Za-z.-]+$/, 'Release id looks like sd1-1.4.2');
export const releaseIdOf = (productLine: string, version: string) => `${productLine}-${version}`;

export const RolloutId = ObjectId;
export const TestRunId = z
  .string()
  .trim()
  .min(1, 'Test run id cannot be empty')
  .max(80, 'Test run id is at most 80 characters')
  .regex(/^[A-Za-z0-9-]+$/, 'Test run id may contain only letters, digits and -');

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is removed
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** Control characters other than tab and newline are dropped; the web app shows the text as text, never markup. */
const PlainText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .transform((value) => value.replace(/\r\n?/g, '\n').replace(CONTROL, '').trim())
    .pipe(z.string().max(max, `${label} is at most ${max} characters`));

export const NOTES_MAX = 5_000;
export const LOG_MAX = 20_000;
/** A firmware image; larger files are refused (the server reads each back whole to verify its SHA-256). */
export const ARTIFACT_MAX_BYTES = 64 * 1024 * 1024;
/** The most devices one rollout targets (docs/code-releases.md, "Limits"). */
export const ROLLOUT_MAX_DEVICES = 10_000;
/**
 * A rollout reaching at most this many devices is assigned while its request runs and answered `active`; a larger one
 * is answered `preparing` and assigned by the area's queue job (decision 114).
 */
export const ROLLOUT_INLINE_DEVICES = 1_000;

export const Sha256 = z
  .string({ error: 'SHA-256 must be text' })
  .trim()
  .toLowerCase()
  .regex(/^[0-9a-f]{64}$/, 'SHA-256 must be 64 hexadecimal characters');

const FileName = z
  .string({ error: 'File name must be text' })
  .trim()
  .min(1, 'File name cannot be empty')
  .max(200, 'File name is at most 200 characters')
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what the rule refuses
  .regex(/^[^/\\\u0000-\u001f]+$/, 'File name may not contain slashes or control characters');

export const RELEASE_STATUSES = ['draft', 'published'] as const;
export const ReleaseStatus = z.enum(RELEASE_STATUSES);

export const ReleaseArtifact = z.object({
  /** The object in the releases bucket: `releases/{id}/artifact-{uuid}`. */
  key: z.string(),
  fileName: z.string(),
  size: z.number().int().nonnegative(),
  /** Computed by the server from the stored bytes (and equal to the one given, when one was). */
  sha256: z.string(),
  uploaded: EpochMillis,
  uploadedBy: z.string(),
});
export type ReleaseArtifact = z.infer<typeof ReleaseArtifact>;

export const TestRunStatus = z.enum(TEST_RUN_STATUSES, {
  error: () => `Status must be one of: ${TEST_RUN_STATUSES.join(', ')}`,
});

/** The latest result recorded, kept on the release for its list. */
export const ReleaseVerdict = z.object({ status: z.enum(['Pass', 'Fail']), runId: z.string(), at: EpochMillis });
export type ReleaseVerdict = z.infer<typeof ReleaseVerdict>;

export const RolloutGate = z.union([
  z.object({ open: z.literal(true), passedRunId: z.string() }),
  z.object({ open: z.literal(false), code: z.enum(['draft', 'untested', 'failed']), reason: z.string() }),
]);

export const Release = z.object({
  id: ReleaseId,
  productLine: ProductLine,
  version: z.string(),
  notes: z.string(),
  status: ReleaseStatus,
  artifact: ReleaseArtifact.optional(),
  verdict: ReleaseVerdict.optional(),
  created: EpochMillis,
  createdBy: z.string(),
  updated: EpochMillis,
  published: EpochMillis.optional(),
  /** When its first rollout started: from then on its artifact, version and checksum are what devices verify. */
  rolledOut: EpochMillis.optional(),
});
export type Release = z.infer<typeof Release>;

/** One release with what its page needs besides: whether it may roll out and why not, and its artifact's URL. */
export const ReleaseDetail = Release.extend({
  gate: RolloutGate,
  /** A presigned GET of the artifact, valid 15 minutes (testers download what they test). */
  artifactUrl: z.string().optional(),
});
export type ReleaseDetail = z.infer<typeof ReleaseDetail>;

export const TestRun = z.object({
  id: TestRunId,
  releaseId: z.string(),
  status: TestRunStatus,
  /** What was run: a suite, a bench, a lab. */
  name: z.string(),
  log: z.string(),
  /** Who recorded it (the token's subject) and their e-mail when the token carried one. */
  ranBy: z.string(),
  ranByEmail: z.string().optional(),
  started: EpochMillis,
  /** When its result was recorded; absent while in progress. */
  finished: EpochMillis.optional(),
  concludedBy: z.string().optional(),
  /** The artifact it tested. */
  artifactSha256: z.string(),
});
export type TestRun = z.infer<typeof TestRun>;

export const ROLLOUT_TARGET_KINDS = ['devices', 'campaign', 'organization'] as const;
export const RolloutTarget = z.discriminatedUnion(
  'kind',
  [
    z
      .object({
        kind: z.literal('devices'),
        deviceIds: z
          .array(DeviceId)
          .min(1, 'Choose at least one device')
          .max(ROLLOUT_MAX_DEVICES, `A rollout targets at most ${ROLLOUT_MAX_DEVICES} devices`),
      })
      .strict(),
    z.object({ kind: z.literal('campaign'), campaignId: ObjectId }).strict(),
    z.object({ kind: z.literal('organization'), organizationId: ObjectId }).strict(),
  ],
  { error: () => `Target kind must be one of: ${ROLLOUT_TARGET_KINDS.join(', ')}` },
);
export type RolloutTarget = z.infer<typeof RolloutTarget>;

/** `preparing`: its devices are being assigned (a target of more than ROLLOUT_INLINE_DEVICES), nothing offered yet. */
export const ROLLOUT_STATUSES = ['preparing', 'active', 'halted', 'rolled-back'] as const;
export const RolloutStatus = z.enum(ROLLOUT_STATUSES);

/** The longest soak a stage may ask for, and the most stages a rollout has. */
export const SOAK_MAX_SECONDS = 30 * DAY_SECONDS;
export const STAGES_MAX = 10;

/**
 * One stage as a request names it: `percent` is the cumulative share of the targeted devices offered the release once
 * it starts (the last stage is 100 %), `deviceIds` devices it holds whatever the share (a canary a person picks), and
 * `soakSeconds` how long it runs before the next may start.
 */
export const StageRequest = z
  .object({
    name: PlainText('Stage name', 60).optional(),
    percent: z
      .number({ error: 'A stage’s percent must be a number' })
      .gt(0, 'A stage’s percent is more than 0')
      .max(100, 'A stage’s percent is at most 100'),
    deviceIds: z.array(DeviceId).max(ROLLOUT_MAX_DEVICES).optional(),
    soakSeconds: z
      .number({ error: 'A stage’s soakSeconds must be a number of seconds' })
      .int('soakSeconds is a whole number of seconds')
      .min(0, 'soakSeconds cannot be negative')
      .max(SOAK_MAX_SECONDS, `A stage soaks at most ${SOAK_MAX_SECONDS / DAY_SECONDS} days`),
  })
  .strict();

export const StagesRequest = z
  .array(StageRequest)
  .min(1, 'Name at least one stage')
  .max(STAGES_MAX, `A rollout has at most ${STAGES_MAX} stages`)
  .superRefine((stages, ctx) => {
    stages.forEach((stage, i) => {
      if (i > 0 && stage.percent < stages[i - 1]!.percent) {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'percent'],
          message: 'Stages grow: each stage’s percent is at least the one before (a share of every targeted device)',
        });
      }
    });
    if (stages.at(-1)!.percent !== 100) {
      ctx.addIssue({
        code: 'custom',
        path: [stages.length - 1, 'percent'],
        message: 'The last stage is 100 %: every targeted device is offered the release in the end',
      });
    }
    const named = stages.flatMap((stage) => stage.deviceIds ?? []);
    const twice = named.find((id, i) => named.indexOf(id) !== i);
    if (twice) ctx.addIssue({ code: 'custom', message: `Device ${twice} is named in more than one stage` });
  });

export const AbortRequest = z
  .object({
    failureThresholdPercent: z
      .number({ error: 'failureThresholdPercent must be a number' })
      .gt(0, 'failureThresholdPercent is more than 0')
      .max(100, 'failureThresholdPercent is at most 100'),
    minFinished: z
      .number({ error: 'minFinished must be a number of devices' })
      .int('minFinished is a whole number of devices')
      .min(1, 'minFinished is at least 1')
      .max(ROLLOUT_MAX_DEVICES),
    timeoutSeconds: z
      .number({ error: 'timeoutSeconds must be a number of seconds' })
      .int('timeoutSeconds is a whole number of seconds')
      .min(60, 'timeoutSeconds is at least 60')
      .max(7 * DAY_SECONDS, 'timeoutSeconds is at most 7 days')
      .optional(),
  })
  .strict();

export const StageCounts = z.object(
  Object.fromEntries(DEVICE_UPDATE_STATES.map((state) => [state, z.number().int()])) as Record<
    DeviceUpdateState,
    z.ZodNumber
  >,
);

/** One stage of a rollout: its share, its devices (chosen once, at the start), its soak, and where they stand. */
export const RolloutStage = z.object({
  name: z.string(),
  /** The cumulative share of the targeted devices offered the release once this stage starts. */
  percent: z.number().min(0).max(100),
  /** Devices a person named for this stage. */
  deviceIds: z.array(z.string()).optional(),
  soakSeconds: z.number().int().nonnegative(),
  /** How many devices this stage holds (its own, not the earlier stages'). */
  devices: z.number().int().nonnegative(),
  started: EpochMillis.optional(),
  /** Its devices by state: counted as they move, never by reading them. */
  counts: StageCounts,
});
export type RolloutStage = z.infer<typeof RolloutStage>;

export const RolloutAbort = z.object({
  failureThresholdPercent: z.number(),
  minFinished: z.number().int(),
  timeoutSeconds: z.number().int(),
});

export const RolloutCounts = z.object({
  /** Devices assigned to this rollout. */
  targeted: z.number().int(),
  /** Of those, the ones that report running the release's version (adoption). */
  adopted: z.number().int(),
  /** Taken over by a later rollout before or after they updated: no longer this rollout's. */
  superseded: z.number().int(),
});

/** Devices of the target that were not assigned, by why. */
export const RolloutSkipped = z.object({
  otherProductLine: z.number().int(),
  retired: z.number().int(),
  unknown: z.number().int(),
});

/** The bytes devices are offered, fixed when the rollout started: the release cannot change under it. */
export const RolloutArtifact = z.object({
  key: z.string(),
  fileName: z.string(),
  size: z.number().int(),
  sha256: z.string(),
});

export const Rollout = z.object({
  id: RolloutId,
  releaseId: z.string(),
  productLine: ProductLine,
  version: z.string(),
  target: RolloutTarget,
  /** The campaign's or organization's name, or "3 devices". */
  targetLabel: z.string(),
  status: RolloutStatus,
  stages: z.array(RolloutStage),
  /** The latest stage started: its devices and every earlier stage's are offered the release. */
  currentStage: z.number().int().nonnegative(),
  abort: RolloutAbort,
  /** Every stage has started and the last one soaked under the threshold. */
  completed: EpochMillis.optional(),
  /** While `preparing`: how many of its devices the queue job has gone through so far (assigned or not), of how many. */
  preparing: z.object({ assigned: z.number().int(), of: z.number().int() }).optional(),
  counts: RolloutCounts,
  skipped: RolloutSkipped,
  artifact: RolloutArtifact.optional(),
  note: z.string().optional(),
  created: EpochMillis,
  createdBy: z.string(),
  createdByEmail: z.string().optional(),
  halted: EpochMillis.optional(),
  /** Who halted it; `automatic` when its abort criteria did. */
  haltedBy: z.string().optional(),
  haltReason: z.string().optional(),
  resumed: EpochMillis.optional(),
  resumedBy: z.string().optional(),
  /** This rollout offers the previous release back to the devices that installed `rollbackOf`'s. */
  rollbackOf: z.string().optional(),
  /** Set on a rolled-back rollout: the rollout that offers the previous release to its devices. */
  rollback: z
    .object({
      rolloutId: z.string(),
      releaseId: z.string(),
      version: z.string(),
      devices: z.number().int(),
      at: EpochMillis,
      by: z.string(),
      reason: z.string(),
    })
    .optional(),
});
export type Rollout = z.infer<typeof Rollout>;

export const TARGET_STATES = DEVICE_UPDATE_STATES;
/** One device of a rollout, in its stage: where its update stands, and what it reported last. */
export const RolloutDevice = z.object({
  rolloutId: z.string(),
  deviceId: z.string(),
  /** The stage it belongs to (chosen when the rollout started, never changed). */
  stage: z.number().int().nonnegative(),
  state: z.enum(DEVICE_UPDATE_STATES),
  assigned: EpochMillis,
  /** When it was first offered the release. */
  offered: EpochMillis.optional(),
  /** When it reached `state` (the device's time for what it reported). */
  stateAt: EpochMillis.optional(),
  /** Why it failed or rejected the update, as the device said. */
  reason: z.string().optional(),
  /** The version the device last reported while targeted, and when. */
  reportedVersion: z.string().optional(),
  reported: EpochMillis.optional(),
  /** Taken over by a later rollout (a rollback, a newer release): its state is what it was then. */
  superseded: EpochMillis.optional(),
});
export type RolloutDevice = z.infer<typeof RolloutDevice>;

const ReleaseParams = z.object({ id: ReleaseId });
const RolloutParams = z.object({ id: RolloutId });

export const NewRelease = z
  .object({ productLine: ProductLine, version: ReleaseVersion, notes: PlainText('Notes', NOTES_MAX).default('') })
  .strict();

export const NewTestRun = z
  .object({
    status: TestRunStatus,
    name: PlainText('Name', 100).pipe(z.string().min(1, 'Name the test run (a suite, a bench)')),
    log: PlainText('Log', LOG_MAX).default(''),
  })
  .strict();

/** Without `stages` or `abort`, the defaults apply (canary, 5 %, 25 %, 100 %, a day each; 10 % after 3). */
export const NewRollout = z
  .object({
    target: RolloutTarget,
    note: PlainText('Note', 500).optional(),
    stages: StagesRequest.optional(),
    abort: AbortRequest.optional(),
  })
  .strict();

export const ArtifactUploadRequest = z
  .object({
    size: z
      .number({ error: 'Size must be a number of bytes' })
      .int('Size must be a whole number of bytes')
      .min(1, 'An artifact cannot be empty')
      .max(ARTIFACT_MAX_BYTES, `An artifact is at most ${ARTIFACT_MAX_BYTES / 1024 / 1024} MB`),
  })
  .strict();

export const ArtifactUpload = z.object({
  /** PUT the file here with exactly these headers; the URL refuses another length. */
  url: z.string(),
  method: z.literal('PUT'),
  headers: z.record(z.string(), z.string()),
  /** Send it back to PUT /releases/{id}/artifact once the upload finished. */
  key: z.string(),
  expiresAt: EpochMillis,
});
export type ArtifactUpload = z.infer<typeof ArtifactUpload>;

export const codeReleases = defineArea('code-releases', {
  listReleases: defineRoute({
    method: 'GET',
    path: '/releases',
    access: minGroup('Employees'),
    summary: 'Releases, newest version first per product line; optionally of one product line. Paged.',
    query: PageQuery.extend({ productLine: ProductLine.optional() }),
    response: page(Release),
  }),
  createRelease: defineRoute({
    method: 'POST',
    path: '/releases',
    access: minGroup('Employees'),
    summary: 'Create a draft release of a product line and semantic version; 409 when that version exists.',
    body: NewRelease,
    response: Release,
    status: 201,
  }),
  getRelease: defineRoute({
    method: 'GET',
    path: '/releases/{id}',
    access: minGroup('Employees'),
    summary: 'One release, with whether it may roll out (and why not) and a short-lived URL of its artifact.',
    params: ReleaseParams,
    response: ReleaseDetail,
  }),
  updateRelease: defineRoute({
    method: 'PATCH',
    path: '/releases/{id}',
    access: minGroup('Employees'),
    summary: "Change a draft release's notes; 409 once published (a published release is immutable).",
    params: ReleaseParams,
    body: z.object({ notes: PlainText('Notes', NOTES_MAX) }).strict(),
    response: Release,
  }),
  deleteRelease: defineRoute({
    method: 'DELETE',
    path: '/releases/{id}',
    access: minGroup('Employees'),
    summary: 'Delete a draft release and its uploads; 409 once published.',
    params: ReleaseParams,
    response: z.void(),
  }),
  createArtifactUpload: defineRoute({
    method: 'POST',
    path: '/releases/{id}/artifact-upload',
    access: minGroup('Employees'),
    summary: "A presigned PUT for a draft release's artifact (at most 64 MB); confirm it with PUT …/artifact.",
    params: ReleaseParams,
    body: ArtifactUploadRequest,
    response: ArtifactUpload,
    status: 201,
  }),
  setArtifact: defineRoute({
    method: 'PUT',
    path: '/releases/{id}/artifact',
    access: minGroup('Employees'),
    summary:
      'Verify an uploaded artifact (the server reads it back and computes its SHA-256, refusing a mismatch with ' +
      'the one given) and publish the release: from then on it is immutable except for its test runs.',
    params: ReleaseParams,
    body: z
      .object({
        key: z.string({ error: 'Key must be text' }).trim().min(1, 'Key cannot be empty').max(300),
        fileName: FileName,
        /** From the build; when left out the server records the one it computes. */
        sha256: Sha256.optional(),
      })
      .strict(),
    response: Release,
  }),
  listTestRuns: defineRoute({
    method: 'GET',
    path: '/releases/{id}/test-runs',
    access: minGroup('Employees'),
    summary: "A release's test runs, newest first. Paged.",
    params: ReleaseParams,
    query: PageQuery,
    response: page(TestRun),
  }),
  createTestRun: defineRoute({
    method: 'POST',
    path: '/releases/{id}/test-runs',
    access: minGroup('Employees'),
    summary: 'Record a test run of a published release: its result (Pass, Fail) or InProgress, with its log.',
    params: ReleaseParams,
    body: NewTestRun,
    response: TestRun,
    status: 201,
  }),
  concludeTestRun: defineRoute({
    method: 'PATCH',
    path: '/releases/{id}/test-runs/{runId}',
    access: minGroup('Employees'),
    summary: 'Record the result of a run in progress (Pass or Fail), with its log; 409 for a run that has one.',
    params: ReleaseParams.extend({ runId: TestRunId }),
    body: z
      .object({
        status: z.enum(['Pass', 'Fail'], { error: () => 'Status must be Pass or Fail' }),
        log: PlainText('Log', LOG_MAX).optional(),
      })
      .strict(),
    response: TestRun,
  }),
  listRollouts: defineRoute({
    method: 'GET',
    path: '/releases/{id}/rollouts',
    access: minGroup('Employees'),
    summary: "A release's rollouts, newest first, each with its adoption counts. Paged.",
    params: ReleaseParams,
    query: PageQuery,
    response: page(Rollout),
  }),
  createRollout: defineRoute({
    method: 'POST',
    path: '/releases/{id}/rollouts',
    access: minGroup('Administrators'),
    summary:
      'Roll a release out to chosen devices, a campaign or an organization (devices of its product line). 409 with ' +
      'the reason while the release is a draft or its latest test result is not a Pass. Up to 1,000 devices it ' +
      'answers the rollout active; a larger one (up to 10,000) is answered preparing and becomes active once a ' +
      'queue job has assigned its devices (read it again).',
    params: ReleaseParams,
    body: NewRollout,
    response: Rollout,
    status: 201,
  }),
  getRollout: defineRoute({
    method: 'GET',
    path: '/rollouts/{id}',
    access: minGroup('Employees'),
    summary: 'One rollout: its stages with their devices counted by state, its abort criteria, and why it halted.',
    params: RolloutParams,
    response: Rollout,
  }),
  listRolloutDevices: defineRoute({
    method: 'GET',
    path: '/rollouts/{id}/devices',
    access: minGroup('Employees'),
    summary:
      "A rollout's devices with each one's update state, by stage; optionally of one stage, one state, or both. Paged.",
    params: RolloutParams,
    query: PageQuery.extend({
      stage: z.coerce
        .number()
        .int()
        .min(0)
        .max(STAGES_MAX - 1)
        .optional(),
      state: z
        .enum(DEVICE_UPDATE_STATES, { error: () => `State must be one of: ${DEVICE_UPDATE_STATES.join(', ')}` })
        .optional(),
    }),
    response: page(RolloutDevice),
  }),
  haltRollout: defineRoute({
    method: 'POST',
    path: '/rollouts/{id}/halt',
    access: minGroup('Employees'),
    summary:
      'Halt an active rollout: no device is offered the release from its next request on. 409 when it is not active.',
    params: RolloutParams,
    body: z
      .object({ reason: PlainText('Reason', 500).pipe(z.string().min(1, 'Say why the rollout is halted')) })
      .strict(),
    response: Rollout,
  }),
  advanceRollout: defineRoute({
    method: 'POST',
    path: '/rollouts/{id}/advance',
    access: minGroup('Administrators'),
    summary:
      'Start the next stage now, without waiting for the soak. `fromStage` (the stage the page showed) makes a ' +
      'second press a 409 rather than a second advance. 409 when halted or at its last stage.',
    params: RolloutParams,
    body: z
      .object({
        fromStage: z
          .number()
          .int()
          .min(0)
          .max(STAGES_MAX - 1)
          .optional(),
      })
      .strict(),
    response: Rollout,
  }),
  resumeRollout: defineRoute({
    method: 'POST',
    path: '/rollouts/{id}/resume',
    access: minGroup('Administrators'),
    summary:
      'Resume a halted rollout: offers start again, and the abort criteria and soak count from now (the failures ' +
      'seen are set aside). 409 unless it is halted.',
    params: RolloutParams,
    response: Rollout,
  }),
  rollbackRollout: defineRoute({
    method: 'POST',
    path: '/rollouts/{id}/rollback',
    access: minGroup('Administrators'),
    summary:
      "Roll back: halt the rollout and offer the product line's previous published release to the devices that " +
      'installed this one, as a rollout of its own. 409 when nothing was installed, there is no earlier release, or ' +
      'it was rolled back already.',
    params: RolloutParams,
    body: z
      .object({ reason: PlainText('Reason', 500).pipe(z.string().min(1, 'Say why the rollout is rolled back')) })
      .strict(),
    response: Rollout,
  }),
});
