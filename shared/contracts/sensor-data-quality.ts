import * as z from 'zod';
import { Formula } from '../sensor-data/calibration';
import { MAX_MEASUREMENTS_PER_READING, MeasurementName } from '../sensor-data/measurements';
import { OptionalSafeText, SafeText } from '../text/sanitize';
import { EpochMillis } from './common';
import { defineRoute, guest, type Routes, signedIn } from './define-route';
import { CampaignId, DeviceId, UserId } from './shapes';

/**
 * Data quality (docs/data-quality.md): a device's calibrations, its excluded ranges and the reprocessing they start.
 * A calibration never changes a raw value: readers apply it; an exclusion deletes nothing: readers leave its values
 * out. Both are kept for good, with who made them and when.
 */
export const CalibrationId = z
  .string()
  .regex(/^cal_[0-9a-z]{12}$/, 'Calibration id must look like cal_ followed by 12 lower-case letters and digits');
export const ExclusionId = z
  .string()
  .regex(/^exc_[0-9a-z]{12}$/, 'Exclusion id must look like exc_ followed by 12 lower-case letters and digits');

const Range = <T extends z.ZodRawShape>(shape: T, fromField: string, toField: string) =>
  z
    .object(shape)
    .strict()
    .refine(
      (body) => {
        const values = body as Record<string, number | undefined>;
        return values[toField] === undefined || (values[fromField] as number) <= values[toField]!;
      },
      { message: `${toField} must not be before ${fromField}`, path: [toField] },
    );

export const CalibrationBody = Range(
  {
    measurement: MeasurementName,
    formula: Formula,
    /** From when it holds (ms, included). */
    effectiveFrom: EpochMillis,
    /** Until when (ms, included); absent: until a later version says otherwise. */
    effectiveTo: EpochMillis.optional(),
    note: SafeText('Note', 500),
    /** Where it comes from: "collocation with reference monitor X, R² 0.93". */
    source: OptionalSafeText('Source', 300).optional(),
  },
  'effectiveFrom',
  'effectiveTo',
);
export type CalibrationBody = z.infer<typeof CalibrationBody>;

/** One version of a measurement's calibration on one device. Versions count 1, 2, … per device and measurement. */
export const Calibration = z.object({
  id: CalibrationId,
  deviceId: DeviceId,
  measurement: z.string(),
  version: z.number().int().positive(),
  formula: Formula,
  effectiveFrom: EpochMillis,
  effectiveTo: EpochMillis.optional(),
  note: z.string(),
  source: z.string().optional(),
  createdBy: UserId,
  created: EpochMillis,
  /** Made for this campaign's devices at once. */
  campaignId: CampaignId.optional(),
});
export type Calibration = z.infer<typeof Calibration>;

export const ExclusionBody = Range(
  {
    /** ms, both included. */
    from: EpochMillis,
    to: EpochMillis,
    /** Absent: every measurement of the readings in the range. */
    measurements: z
      .array(MeasurementName)
      .min(1, 'Name at least one measurement, or leave measurements out for all of them')
      .max(MAX_MEASUREMENTS_PER_READING, `At most ${MAX_MEASUREMENTS_PER_READING} measurements`)
      .refine((names) => new Set(names).size === names.length, 'Each measurement may be named once')
      .optional(),
    reason: SafeText('Reason', 500),
  },
  'from',
  'to',
);
export type ExclusionBody = z.infer<typeof ExclusionBody>;

/** A range of a device taken out of every reader. Removing it puts the values back; the record stays. */
export const Exclusion = z.object({
  id: ExclusionId,
  deviceId: DeviceId,
  from: EpochMillis,
  to: EpochMillis,
  measurements: z.array(z.string()).optional(),
  reason: z.string(),
  createdBy: UserId,
  created: EpochMillis,
  campaignId: CampaignId.optional(),
  status: z.enum(['active', 'removed']),
  removedBy: UserId.optional(),
  removedAt: EpochMillis.optional(),
});
export type Exclusion = z.infer<typeof Exclusion>;

/** A device's reprocessing: the roll-ups and chart data of changed ranges being computed again. */
export const Reprocessing = z.object({
  deviceId: DeviceId,
  /** `idle`: every change is in the roll-ups; `running`: a run is under way (or waits for the worker). */
  status: z.enum(['idle', 'running']),
  /** Of the run under way, 0 to 100. */
  progress: z.number().int().min(0).max(100),
  /** While running: how much of the run's ranges is computed again (ms), of how much in all, for "3 of 8 days". */
  doneMs: z.number().int().nonnegative().optional(),
  totalMs: z.number().int().nonnegative().optional(),
  /** Changes not yet in the roll-ups: the chart hides what an exclusion touches until they are. */
  pending: z.number().int().nonnegative(),
  /** The run's ranges' span (ms), while running. */
  from: EpochMillis.optional(),
  to: EpochMillis.optional(),
  updated: EpochMillis.optional(),
});
export type Reprocessing = z.infer<typeof Reprocessing>;

/** A device a campaign-wide change left out, and why. */
export const SkippedDevice = z.object({ deviceId: DeviceId, reason: z.string() });

const DeviceParams = z.object({ id: DeviceId });
const CampaignParams = z.object({ id: CampaignId });

/** The sensor-data area's data-quality routes (docs/data-quality.md); composed into the area in sensor-data.ts. */
export const qualityRoutes = {
  listCalibrations: defineRoute({
    method: 'GET',
    path: '/devices/{id}/calibrations',
    access: guest,
    summary:
      "Every calibration version of a device's measurements, newest first, for whoever may view its data (readers apply them: what they answer depends on them).",
    params: DeviceParams,
    response: z.object({ items: z.array(Calibration) }),
  }),
  addCalibration: defineRoute({
    method: 'POST',
    path: '/devices/{id}/calibrations',
    access: signedIn,
    summary:
      "Adds a calibration version of one measurement (linear, polynomial, piecewise or linear-multi), in force from effectiveFrom (to effectiveTo); a version of kind none ends the calibration in force at effectiveFrom: from then readers answer the values as sent and name no calibration version (400 on effectiveFrom when nothing is in force then). Raw values never change; readers answer corrected values by default. The device's owner and administrators, staff, and a manager of a campaign holding the device within its window. Starts the reprocessing of the range's roll-ups.",
    params: DeviceParams,
    body: CalibrationBody,
    response: Calibration,
    status: 201,
  }),
  listExclusions: defineRoute({
    method: 'GET',
    path: '/devices/{id}/exclusions',
    access: guest,
    summary: "A device's excluded ranges, active and removed, newest first, for whoever may view its data.",
    params: DeviceParams,
    response: z.object({ items: z.array(Exclusion) }),
  }),
  addExclusion: defineRoute({
    method: 'POST',
    path: '/devices/{id}/exclusions',
    access: signedIn,
    summary:
      'Excludes a time range (all or some measurements) from charts, downloads, the API and new datasets, with a reason: gone within seconds, nothing deleted. The same people as calibrations.',
    params: DeviceParams,
    body: ExclusionBody,
    response: Exclusion,
    status: 201,
  }),
  removeExclusion: defineRoute({
    method: 'DELETE',
    path: '/devices/{id}/exclusions/{exclusionId}',
    access: signedIn,
    summary:
      'Removes an exclusion: its values come back in every reader. The record stays, marked removed, with who and when.',
    params: z.object({ id: DeviceId, exclusionId: ExclusionId }),
    response: z.void(),
  }),
  reprocessing: defineRoute({
    method: 'GET',
    path: '/devices/{id}/reprocessing',
    access: guest,
    summary: "Whether a device's roll-ups and chart data are being computed again after a change, and how far along.",
    params: DeviceParams,
    response: Reprocessing,
  }),
  listCampaignCalibrations: defineRoute({
    method: 'GET',
    path: '/campaigns/{id}/calibrations',
    access: signedIn,
    summary:
      "The calibration versions made for a campaign's devices at once, newest first, for whoever may view the campaign.",
    params: CampaignParams,
    response: z.object({ items: z.array(Calibration) }),
  }),
  addCampaignCalibration: defineRoute({
    method: 'POST',
    path: '/campaigns/{id}/calibrations',
    access: signedIn,
    summary:
      "Adds a calibration version to every device of a campaign that has sent the measurement (and the formula's inputs), within the campaign's window; a version of kind none ends the calibration of every device that has one in force at effectiveFrom, and leaves out the others. Campaign managers and staff.",
    params: CampaignParams,
    body: CalibrationBody,
    response: z.object({ items: z.array(Calibration), skipped: z.array(SkippedDevice) }),
    status: 201,
  }),
  listCampaignExclusions: defineRoute({
    method: 'GET',
    path: '/campaigns/{id}/exclusions',
    access: signedIn,
    summary: "The exclusions made for a campaign's devices at once, newest first, for whoever may view the campaign.",
    params: CampaignParams,
    response: z.object({ items: z.array(Exclusion) }),
  }),
  addCampaignExclusion: defineRoute({
    method: 'POST',
    path: '/campaigns/{id}/exclusions',
    access: signedIn,
    summary:
      "Excludes a range of every device of a campaign at once, within the campaign's window; one id for all of them. Campaign managers and staff.",
    params: CampaignParams,
    body: ExclusionBody,
    response: z.object({ id: ExclusionId, items: z.array(Exclusion) }),
    status: 201,
  }),
  removeCampaignExclusion: defineRoute({
    method: 'DELETE',
    path: '/campaigns/{id}/exclusions/{exclusionId}',
    access: signedIn,
    summary: 'Removes a campaign-wide exclusion from every device that holds it. Campaign managers and staff.',
    params: z.object({ id: CampaignId, exclusionId: ExclusionId }),
    response: z.void(),
  }),
} satisfies Routes;
