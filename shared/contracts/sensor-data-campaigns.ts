import * as z from 'zod';
import { EpochMillis } from './common';
import { defineRoute, type Routes, signedIn } from './define-route';
import { SeriesQuery, SeriesResolution, TierId } from './sensor-data-readings';
import { CampaignId } from './shapes';

/**
 * At most this many devices of a campaign are compared in one answer (the first by id); the answer says how many
 * more the campaign holds. 50 devices × 30 days is the bench's case (docs/sensor-data.md, "Campaign comparison").
 */
export const MAX_COMPARED_DEVICES = 100;

/** One device's line in one measurement's chart: the mean per bucket, aligned with the answer's `t`. */
export const DeviceLine = z.object({
  /** `null` where the device has no value of this measurement in a listed bucket. */
  mean: z.array(z.number().nullable()),
  /** As a device's own series (shared/sensor-data/gaps.ts): values further apart than this have a silence between. */
  gapMs: z.number().positive().nullable(),
  /** Only when the device declares a unit other than the measurement's (a measurement outside the catalogue). */
  unit: z.string().optional(),
});
export type DeviceLine = z.infer<typeof DeviceLine>;

/**
 * What the caller may see of one device of the campaign: `shown` (its lines, from `from` on), `no-access` (the
 * caller may not see this device's data at all), `not-found` (the campaign names a device that does not exist), or
 * `before-window` (everything in the range lies before the device's tier window; `message` names the tier that
 * unlocks it). A shown device whose tier window starts inside the range has `from` after the answer's `from`, and
 * `message` saying why when that costs the chart at least one point (a bucket).
 */
export const ComparedDevice = z.object({
  deviceId: z.string(),
  /** Absent unless the caller may see the device's data: a private device's name is not shown to strangers. */
  name: z.string().optional(),
  status: z.enum(['shown', 'no-access', 'not-found', 'before-window']),
  message: z.string().optional(),
  /** Shown: where its lines may start (the range's start, or the tier window's when that is later). */
  from: EpochMillis.optional(),
  tier: z.object({ tier: TierId, name: z.string() }).optional(),
  /** Shown: per measurement it has a value of in the range. */
  series: z.record(z.string(), DeviceLine),
});
export type ComparedDevice = z.infer<typeof ComparedDevice>;

/**
 * Every device of a campaign, one line per device and measurement, over the campaign's window: one bucket size
 * for all (so `t` is shared), only buckets where some device has a value, means only.
 */
export const CampaignSeries = z.object({
  campaignId: z.string(),
  name: z.string(),
  /** The range charted: the campaign's window (or the part asked for), up to now. */
  from: EpochMillis,
  to: EpochMillis,
  resolution: SeriesResolution,
  bucketMs: z.number().int().positive(),
  t: z.array(EpochMillis),
  /** Those asked for, in their order; else every measurement a shown device has, those most devices share first. */
  measurements: z.array(z.object({ name: z.string(), label: z.string(), unit: z.string().optional() })),
  devices: z.array(ComparedDevice),
  /** Devices of the campaign beyond MAX_COMPARED_DEVICES, left out of this answer. */
  moreDevices: z.number().int().nonnegative(),
});
export type CampaignSeries = z.infer<typeof CampaignSeries>;

/** The sensor-data area's campaign routes (docs/sensor-data.md); composed into the area in sensor-data.ts. */
export const campaignRoutes = {
  campaignSeries: defineRoute({
    method: 'GET',
    path: '/campaigns/{id}/series',
    access: signedIn,
    summary:
      "Every device of a campaign over its window: each device's mean per bucket, clipped to what the caller may see of it. Needs view on the campaign.",
    params: z.object({ id: CampaignId }),
    query: SeriesQuery,
    response: CampaignSeries,
  }),
} satisfies Routes;
