import * as z from 'zod';
import { REPORTED_STATES } from '../code-releases/rollout-rules';
import { MAX_BATCH_READINGS, MAX_MEASUREMENTS_PER_READING, MeasurementName, Unit } from '../sensor-data/measurements';
import { defineArea, defineRoute, deviceCredential } from './define-route';
import { FirmwareVersion } from './shapes';

/** Why one reading of a batch was refused (docs/sensor-data.md "Readings and ingest"). */
export const REJECTION_REASONS = ['malformed', 'future', 'too-old', 'out-of-range'] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

/** `2025-03-01T12:00:00Z`, with seconds and fractions optional; a time zone (Z or ±hh:mm) is required. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** A real calendar date and time: `Date.parse` rolls 2025-02-30 over into March instead of refusing it. */
const isRealTime = (text: string): boolean => {
  const [year, month, day, hour, minute] = text.match(/\d+/g)!.map(Number) as [number, number, number, number, number];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && hour <= 23 && minute <= 59;
};

/** A device's time: epoch milliseconds, or ISO-8601 with a time zone. */
const DeviceTime = (field: string) =>
  z
    .union([z.number(), z.string()], {
      error: `${field} must be epoch milliseconds or an ISO-8601 string with a time zone`,
    })
    .superRefine((value, ctx) => {
      if (typeof value === 'number') {
        if (!Number.isSafeInteger(value)) {
          ctx.addIssue({ code: 'custom', message: `${field} must be whole milliseconds (at most 2^53 - 1)` });
        }
      } else if (!ISO_TIME.test(value)) {
        ctx.addIssue({
          code: 'custom',
          message: `${field} must be ISO-8601 with a time zone, e.g. 2025-03-01T12:00:00Z`,
        });
      } else if (!isRealTime(value) || !Number.isFinite(Date.parse(value))) {
        ctx.addIssue({ code: 'custom', message: `${field} ${value} is not a real date and time` });
      }
    });

/**
 * One reading, as a device sends it: its own time (epoch ms, or ISO-8601 with a time zone) and its
 * measurements. Checked one by one by the use case, so one bad reading does not refuse the whole batch.
 */
export const Reading = z.object({
  timestamp: DeviceTime('timestamp'),
  values: z
    .record(MeasurementName, z.number({ error: 'each value must be a number' }).finite('each value must be finite'), {
      error: (issue) =>
        issue.code === 'invalid_type' ? 'values must be an object of measurement name to number' : undefined,
    })
    .refine((values) => Object.keys(values).length > 0, 'values must hold at least one measurement')
    .refine(
      (values) => Object.keys(values).length <= MAX_MEASUREMENTS_PER_READING,
      `a reading holds at most ${MAX_MEASUREMENTS_PER_READING} measurements`,
    ),
});
export type Reading = z.infer<typeof Reading>;

/**
 * A batch, over HTTPS or MQTT. The envelope is checked whole; each reading alone (see {@link Reading}).
 * `units` declares the units of measurements outside the catalogue (catalogue names keep the catalogue's).
 */
export const ReadingBatch = z.object({
  readings: z
    .array(z.unknown(), { error: 'readings must be an array' })
    .min(1, 'readings must hold at least one reading')
    .max(MAX_BATCH_READINGS, `a batch holds at most ${MAX_BATCH_READINGS} readings`),
  units: z.record(MeasurementName, Unit).optional(),
  /**
   * The firmware the device runs: recorded on the device when it changes, and what a rollout's adoption counts
   * (docs/code-releases.md). Optional; a device that sends it with every batch costs nothing more.
   */
  firmwareVersion: FirmwareVersion.optional(),
});
export type ReadingBatch = z.infer<typeof ReadingBatch>;

export const ReadingRejection = z.object({
  /** The reading's position in the batch. */
  index: z.number().int().nonnegative(),
  reason: z.enum(REJECTION_REASONS),
  message: z.string(),
});
export type ReadingRejection = z.infer<typeof ReadingRejection>;

export const IngestResult = z.object({
  /** Readings stored (a resent reading counts again; it is stored once). */
  accepted: z.number().int().nonnegative(),
  rejected: z.array(ReadingRejection),
});
export type IngestResult = z.infer<typeof IngestResult>;

/** The firmware a device should run, when a rollout that is not halted offers it one it does not run yet. */
export const FirmwareOffer = z.object({
  update: z
    .object({
      releaseId: z.string(),
      rolloutId: z.string(),
      version: z.string(),
      size: z.number().int().nonnegative(),
      /** Check the download against it before flashing. */
      sha256: z.string(),
      /** A presigned GET of the artifact. */
      url: z.string(),
      expiresAt: z.number().int().nonnegative(),
    })
    .nullable(),
});
export type FirmwareOffer = z.infer<typeof FirmwareOffer>;

/**
 * What a device says about an update it was offered (docs/code-releases.md, "Devices report"): over HTTPS or its
 * MQTT topic `devices/{id}/firmware-status`. Idempotent and order-independent: the same reports in any order, or
 * twice, leave the same state (decision 076).
 */
export const FirmwareStatusReport = z
  .object({
    rolloutId: z.string({ error: 'rolloutId must be text' }).trim().min(1, 'rolloutId cannot be empty').max(80),
    releaseId: z.string({ error: 'releaseId must be text' }).trim().min(1, 'releaseId cannot be empty').max(80),
    state: z.enum(REPORTED_STATES, { error: () => `state must be one of: ${REPORTED_STATES.join(', ')}` }),
    /** Why it failed or was rejected, in the device's words (kept to 500 characters). */
    reason: z
      .string({ error: 'reason must be text' })
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
      .transform((value) => value.replace(/[\u0000-\u001f\u007f]/g, ' ').trim())
      .pipe(z.string().max(500, 'reason is at most 500 characters'))
      .optional(),
    /** When it happened, on the device's clock. */
    at: DeviceTime('at'),
  })
  .strict();
export type FirmwareStatusReport = z.infer<typeof FirmwareStatusReport>;

export const FirmwareStatusResult = z.object({
  rolloutId: z.string(),
  /** The device's state in the rollout after the report. */
  state: z.string(),
  /** False when the report was one seen already, or older than what was recorded (it changes nothing). */
  recorded: z.boolean(),
});
export type FirmwareStatusResult = z.infer<typeof FirmwareStatusResult>;

/** Devices send their readings here (spec §7); the MQTT topic `devices/{id}/readings` takes the same batch. */
export const dataIngress = defineArea('data-ingress', {
  ingestReadings: defineRoute({
    method: 'POST',
    path: '/readings',
    access: deviceCredential,
    summary:
      "A device's batch of readings (Authorization: Bearer dc_…). Each reading is checked alone: the answer counts " +
      'those stored and names each refused one with its reason. 400 when none was stored; 5xx: retry the same ' +
      'batch (storing is idempotent per device and timestamp).',
    body: ReadingBatch,
    // 500 readings of 32 measurements; each reading's numbers are checked alone (functions/data-ingress/domain).
    maxBodyBytes: 1024 * 1024,
    checkBodyNumbers: false,
    response: IngestResult,
  }),
  getFirmware: defineRoute({
    method: 'GET',
    path: '/firmware',
    access: deviceCredential,
    summary:
      "The release the device's active rollout assigns it, with a 15-minute download URL and its SHA-256; " +
      '`update: null` when it runs it already, has none, or its rollout is halted (docs/code-releases.md).',
    response: FirmwareOffer,
  }),
  reportFirmwareStatus: defineRoute({
    method: 'POST',
    path: '/firmware/status',
    access: deviceCredential,
    summary:
      'What became of the update the device was offered: downloading, installing, succeeded, failed or rejected, ' +
      'with a reason and its time. Idempotent and order-independent (a repeated or older report changes nothing). ' +
      '404 for a rollout the device is not in; 409 when a later rollout took the device over or it was not offered yet.',
    body: FirmwareStatusReport,
    response: FirmwareStatusResult,
  }),
});
