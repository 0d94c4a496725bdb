import * as z from 'zod';
import { EXPORT_STARTS_PER_HOUR } from '../sensor-data/export-limits';
import { MAX_MEASUREMENTS_PER_READING, MeasurementName } from '../sensor-data/measurements';
import { EpochMillis, PageQuery, page } from './common';
import { defineRoute, guest, type Routes, signedIn } from './define-route';
import { DeviceId } from './shapes';

/**
 * Downloads (docs/sensor-data.md "Downloads"): a CSV, JSON or Parquet file of a device's readings over a range, written by a
 * background job to the exports bucket and handed out through a short-lived signed URL (`POST /api/aws`).
 * An export's id is unguessable: for a guest's export of a public device it is the only proof of ownership.
 */
export const ExportId = z
  .string()
  .regex(/^exp_[A-Za-z0-9_-]{20,64}$/, 'Export id must look like exp_ followed by 20 to 64 letters, digits, _ or -');

/** CSV (the default a person opens), JSON, or Apache Parquet for notebooks and data lakes (docs/open-data.md). */
export const EXPORT_FORMATS = ['csv', 'json', 'parquet'] as const;
export const ExportFormat = z.enum(EXPORT_FORMATS, { error: () => 'Format must be csv, json or parquet' });
export type ExportFormat = z.infer<typeof ExportFormat>;

export const ExportStatus = z.enum(['queued', 'running', 'done', 'failed']);
export type ExportStatus = z.infer<typeof ExportStatus>;

export const CreateExportBody = z
  .object({
    /** Start (ms, included); without it the tier's download window's start. */
    from: EpochMillis.optional(),
    /** End (ms, included); without it now. */
    to: EpochMillis.optional(),
    format: ExportFormat,
    /** Columns, in this order; without it every measurement the device has sent. */
    measurements: z
      .array(MeasurementName)
      .min(1, 'Name at least one measurement, or leave measurements out for all of them')
      .max(MAX_MEASUREMENTS_PER_READING, `At most ${MAX_MEASUREMENTS_PER_READING} measurements`)
      .refine((names) => new Set(names).size === names.length, 'Each measurement may be named once')
      .optional(),
  })
  .strict()
  .refine((body) => body.from === undefined || body.to === undefined || body.from <= body.to, {
    message: 'The range must start before it ends (from ≤ to)',
    path: ['from'],
  });

/** One export job as its creator sees it. */
export const ExportJob = z.object({
  id: ExportId,
  deviceId: DeviceId,
  deviceName: z.string(),
  format: ExportFormat,
  /** The range granted (clipped to the tier's window), ms, both ends included. */
  from: EpochMillis,
  to: EpochMillis,
  measurements: z.array(z.string()).optional(),
  /** `public`: the public download window applied (a guest, or a caller reaching the device only as public data). */
  window: z.enum(['public', 'permissioned']),
  status: ExportStatus,
  /** 0 to 100. */
  progress: z.number().int().min(0).max(100),
  rows: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  /** Why the export failed (status `failed`), or why the last attempt did (retrying). */
  error: z.string().optional(),
  /** When done: the file, for `POST /api/aws` `getSignedS3Url`. */
  file: z.object({ bucket: z.string(), key: z.string(), name: z.string() }).optional(),
  created: EpochMillis,
  updated: EpochMillis,
  /** After this (ms) the export and its file are gone. */
  expiresAt: EpochMillis,
});
export type ExportJob = z.infer<typeof ExportJob>;

export { EXPORT_STARTS_PER_HOUR };

/** The sensor-data area's exports routes (docs/sensor-data.md); composed into the area in sensor-data.ts. */
export const exportsRoutes = {
  createExport: defineRoute({
    method: 'POST',
    path: '/devices/{id}/exports',
    access: guest,
    summary:
      "Starts a download of the device's readings (CSV, JSON or Parquet) as a background job, within the tier's download " +
      'window: the permissioned one for staff and people with access, the public one for everyone else on a ' +
      'public device (guests included). Poll GET /exports/{exportId} for progress. At most ' +
      `${EXPORT_STARTS_PER_HOUR.person} starts an hour per person, ${EXPORT_STARTS_PER_HOUR.guest} per address ` +
      'for guests: over that, 429 with Retry-After.',
    params: z.object({ id: DeviceId }),
    body: CreateExportBody,
    response: ExportJob,
    status: 202,
  }),
  getExport: defineRoute({
    method: 'GET',
    path: '/exports/{exportId}',
    access: guest,
    summary:
      "An export's status and progress, and its file when done. Only its creator (or staff) sees a signed-in " +
      "person's export; a guest's export is reached by its id alone.",
    params: z.object({ exportId: ExportId }),
    response: ExportJob,
  }),
  listMyExports: defineRoute({
    method: 'GET',
    path: '/my-exports',
    access: signedIn,
    summary: "The caller's exports of the last 7 days, newest first.",
    query: PageQuery,
    response: page(ExportJob),
  }),
} satisfies Routes;
