import * as z from 'zod';
import { QUALITIES, QUALITY_FILTERS, QUALITY_REASONS, VALUE_CHOICES } from '../sensor-data/quality';
import { DEFAULT_PAGE_SIZE, EpochMillis } from './common';
import { defineRoute, guest, type Routes } from './define-route';
import { DeviceId, ProductLine, TierFeatures, TierId, TierInfo, TiersTable } from './shapes';

export { TierFeatures, TierId, TierInfo, TiersTable };

/** Spec §9 pages readings 50 at a time; a client may ask for up to this many. */
export const MAX_READINGS_PAGE = 500;
/** Offset paging reads everything before the page; further back, page with `to` (the last timestamp minus 1). */
export const MAX_READINGS_OFFSET = 10_000;
/** Chart buckets: about one per pixel of the chart's width. */
export const DEFAULT_SERIES_WIDTH = 800;
export const MAX_SERIES_WIDTH = 2_000;

const Time = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a time in milliseconds since 1970` })
    .int(`${name} must be a whole number of milliseconds`)
    .nonnegative(`${name} must be a time in milliseconds since 1970`);

const fromBeforeTo = (query: { from?: number; to?: number }) =>
  query.from === undefined || query.to === undefined || query.from <= query.to;
const FROM_AFTER_TO = { message: 'from must not be after to', path: ['from'] };

const DeviceParams = z.object({ id: DeviceId });

/** The range a read covered after the tier's window (and a campaign's windows) clipped it. */
export const ReadWindow = z.object({ from: EpochMillis, to: EpochMillis });

export const QualityFilter = z.enum(QUALITY_FILTERS, {
  error: () => `quality must be one of: ${QUALITY_FILTERS.join(', ')}`,
});
export const ValueChoice = z.enum(VALUE_CHOICES, { error: () => `values must be one of: ${VALUE_CHOICES.join(', ')}` });
export const Quality = z.enum(QUALITIES);
export const QualityReason = z.enum(QUALITY_REASONS);

/** What a read keeps and answers (docs/data-quality.md): every value, good ones, or all but bad; corrected, raw or both. */
const QualityQuery = {
  quality: QualityFilter.default('all'),
  values: ValueChoice.default('corrected'),
};

/**
 * One reading as a reader answers it: `values` corrected where a calibration holds (raw with `values=raw`), `raw` beside
 * them with `values=both`, each value's quality, the reasons of those that are not good, and the calibration version
 * each corrected value used. An excluded value is left out; with `quality=all` its quality (bad) and reason
 * (`excluded`) still say it was there.
 */
export const Reading = z.object({
  timestamp: EpochMillis,
  values: z.record(z.string(), z.number()),
  raw: z.record(z.string(), z.number()).optional(),
  quality: z.record(z.string(), Quality).optional(),
  reasons: z.record(z.string(), z.array(QualityReason)).optional(),
  calibration: z.record(z.string(), z.number().int().positive()).optional(),
});
export type Reading = z.infer<typeof Reading>;

export const ReadingsPage = z.object({
  items: z.array(Reading),
  limit: z.number().int(),
  offset: z.number().int(),
  /** More readings lie further back inside the window (ask with `offset + limit`). */
  hasMore: z.boolean(),
  window: ReadWindow,
  tier: z.object({ tier: TierId, name: z.string() }),
});
export type ReadingsPage = z.infer<typeof ReadingsPage>;

export const SeriesResolution = z.enum(['minute', 'hour', 'day']);
export type SeriesResolution = z.infer<typeof SeriesResolution>;

/** One measurement's columns; `null` where a bucket holds a value of another measurement but none of this one. */
export const MeasurementSeries = z.object({
  label: z.string(),
  unit: z.string().optional(),
  min: z.array(z.number().nullable()),
  max: z.array(z.number().nullable()),
  mean: z.array(z.number().nullable()),
  /**
   * Two consecutive values further apart than this (ms) have a real silence between them, and a chart breaks its
   * line there; closer ones are joined (shared/sensor-data/gaps.ts). Null with fewer than two values.
   */
  gapMs: z.number().positive().nullable(),
  /** Per bucket, how many of its readings were suspect and bad (excluded ones are not counted: they are gone). */
  suspect: z.array(z.number().int().nonnegative()),
  bad: z.array(z.number().int().nonnegative()),
  /** With `values=both`: the raw values' columns beside the corrected ones. */
  raw: z
    .object({
      min: z.array(z.number().nullable()),
      max: z.array(z.number().nullable()),
      mean: z.array(z.number().nullable()),
    })
    .optional(),
  /** Per bucket, the calibration version its corrected values used (the newest, where two did); absent: none. */
  calibration: z.array(z.number().int().positive().nullable()).optional(),
});
export type MeasurementSeries = z.infer<typeof MeasurementSeries>;

/**
 * Chart data, columnar: `t[i]` is the start of a bucket, and each measurement's arrays line up with it. Only
 * buckets holding a value are listed: an empty bucket is not a gap (see `gapMs`).
 */
export const Series = z.object({
  deviceId: DeviceId,
  from: EpochMillis,
  to: EpochMillis,
  resolution: SeriesResolution,
  bucketMs: z.number().int().positive(),
  t: z.array(EpochMillis),
  series: z.record(z.string(), MeasurementSeries),
  quality: QualityFilter,
  values: ValueChoice,
  /**
   * Some roll-ups of the range are being computed again after a change (docs/data-quality.md "Reprocessing"):
   * buckets an exclusion touches are left out until they are, and a new calibration shows in them once they are.
   */
  reprocessing: z.boolean().optional(),
});
export type Series = z.infer<typeof Series>;

/** How far back one purpose reaches for this caller: null days when the tier does not offer it. */
export const PurposeWindow = z.object({ days: z.number().nullable(), from: EpochMillis.nullable() });

export const DataSummary = z.object({
  deviceId: DeviceId,
  productLine: ProductLine,
  tier: TierInfo,
  /** The next tier up, to say what an upgrade unlocks; absent on the line's highest tier. */
  nextTier: TierInfo.optional(),
  /** Every tier of the device's line, lowest first, as the table in force says (administrators may change it). */
  tiers: z.array(TierInfo),
  /** How the caller reaches the data: staff, a relation, a campaign, or only because it is public. */
  route: z.enum(['staff', 'relation', 'campaign', 'public']),
  windows: z.object({ view: PurposeWindow, download: PurposeWindow, api: PurposeWindow }),
  /** Campaign route: the windows the caller may see (ms, both ends included). */
  campaignWindows: z.array(z.object({ startsAt: EpochMillis, endsAt: EpochMillis })).optional(),
  measurements: z.array(z.object({ name: z.string(), label: z.string(), unit: z.string().optional() })),
  lastSeen: EpochMillis.optional(),
});
export type DataSummary = z.infer<typeof DataSummary>;

export const MeasurementList = z
  .string()
  .max(1_000, 'measurements is at most 1000 characters')
  .transform((text) => [
    ...new Set(
      text
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    ),
  ])
  .pipe(
    z
      .array(z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, 'measurements are names separated by commas (e.g. pm2_5,co2)'))
      .max(32, 'At most 32 measurements'),
  );

/** A chart's query: the range (ms), about one bucket per pixel of `width`, and the measurements (default: all). */
export const SeriesQuery = z
  .object({
    from: Time('from').optional(),
    to: Time('to').optional(),
    width: z.coerce
      .number({ error: 'width must be a number' })
      .int('width must be a whole number')
      .min(10, 'width is at least 10')
      .max(MAX_SERIES_WIDTH, `width is at most ${MAX_SERIES_WIDTH}`)
      .default(DEFAULT_SERIES_WIDTH),
    measurements: MeasurementList.optional(),
    ...QualityQuery,
  })
  .refine(fromBeforeTo, FROM_AFTER_TO);

/** The sensor-data area's readings routes (docs/sensor-data.md); composed into the area in sensor-data.ts. */
export const readingsRoutes = {
  listReadings: defineRoute({
    method: 'GET',
    path: '/devices/{id}/readings',
    access: guest,
    summary:
      "A device's readings in a time range (ms), newest first, paged by limit (default 50) and offset; readings outside the tier's window (and a campaign's windows) are skipped. A range reaching before the window: 403 naming the tier that unlocks it. Each value with its quality (quality=all|good|no-bad keeps those) and calibration version; values=corrected (default)|raw|both.",
    params: DeviceParams,
    query: z
      .object({
        from: Time('from').optional(),
        to: Time('to').optional(),
        limit: z.coerce
          .number({ error: 'limit must be a number' })
          .int('limit must be a whole number')
          .min(1, 'limit is at least 1')
          .max(MAX_READINGS_PAGE, `limit is at most ${MAX_READINGS_PAGE}`)
          .default(DEFAULT_PAGE_SIZE),
        offset: z.coerce
          .number({ error: 'offset must be a number' })
          .int('offset must be a whole number')
          .min(0, 'offset is at least 0')
          .max(MAX_READINGS_OFFSET, `offset is at most ${MAX_READINGS_OFFSET}: page further back with to`)
          .default(0),
        ...QualityQuery,
      })
      .refine(fromBeforeTo, FROM_AFTER_TO),
    response: ReadingsPage,
  }),
  series: defineRoute({
    method: 'GET',
    path: '/devices/{id}/series',
    access: guest,
    summary:
      "Chart data of a device's measurements over a range: min, max and mean per bucket of about one pixel (width, default 800), from the raw readings for short ranges and the hourly or daily roll-ups for long ones, with each bucket's count of suspect and bad readings. quality=all|good|no-bad and values=corrected|raw|both as the readings. The same tier gates as the readings.",
    params: DeviceParams,
    query: SeriesQuery,
    response: Series,
  }),
  dataSummary: defineRoute({
    method: 'GET',
    path: '/devices/{id}/data-summary',
    access: guest,
    summary:
      "What the caller may see of a device's data: its tier and the next one up, how far back viewing, downloads and the API reach for this caller, and the measurements the device has sent.",
    params: DeviceParams,
    response: DataSummary,
  }),
  listTiers: defineRoute({
    method: 'GET',
    path: '/tiers',
    access: guest,
    summary:
      "Spec §9's tiers table as it is in force: each product line's tiers and their features (administrators change the features through PUT /system/tier-features).",
    response: TiersTable,
  }),
} satisfies Routes;
