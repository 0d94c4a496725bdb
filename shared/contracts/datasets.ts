import * as z from 'zod';
import { DATASET_LICENSES, MAX_DATASET_DEVICES } from '../datasets/dataset-limits';
import { MAX_MEASUREMENTS_PER_READING, MeasurementName } from '../sensor-data/measurements';
import { OptionalSafeText, SafeText } from '../text/sanitize';
import { EpochMillis, PageQuery, page } from './common';
import { defineArea, defineRoute, guest, type Routes, signedIn } from './define-route';
import { CampaignId, DeviceId, ProductLine } from './shapes';

/**
 * Datasets (docs/datasets.md): a named, described, frozen extract of readings with a stable id to cite. Building one
 * is a background job; once frozen it never changes, and a new version is a new dataset that links to the old.
 */
export const DatasetId = z
  .string()
  .regex(/^ds_[0-9a-z]{12}$/, 'Dataset id must look like ds_ followed by 12 lower-case letters and digits');

/** Who may read it: everyone, guests included, or only people with access to its data (docs/datasets.md). */
export const DatasetVisibility = z.enum(['public', 'permissioned'], {
  error: () => 'Visibility must be public or permissioned',
});
export type DatasetVisibility = z.infer<typeof DatasetVisibility>;

/**
 * queued → building → frozen, or failed. A frozen dataset never changes. (A `withdrawn` state, not built yet, would
 * keep the record and its landing page as a tombstone and stop handing out its files.)
 */
export const DatasetStatus = z.enum(['queued', 'building', 'frozen', 'failed']);
export type DatasetStatus = z.infer<typeof DatasetStatus>;

export const DatasetLicense = z.enum(DATASET_LICENSES, {
  error: () => `Licence must be one of ${DATASET_LICENSES.join(', ')}`,
});
export type DatasetLicense = z.infer<typeof DatasetLicense>;

/** A creator as DataCite names one: a person or an organization, with an optional affiliation. */
export const DatasetCreator = z
  .object({
    name: SafeText('Creator name', 200),
    affiliation: OptionalSafeText('Affiliation', 200).optional(),
  })
  .strict();
export type DatasetCreator = z.infer<typeof DatasetCreator>;

/**
 * Chosen devices (`deviceIds`) or a campaign (`campaignId`). A plain object checked by hand rather than a discriminated
 * union: this contract is in the web app's entry, and zod's union code would be its only user there.
 */
const Source = z
  .object({
    kind: z.enum(['devices', 'campaign'], { error: () => 'Source kind must be devices or campaign' }),
    deviceIds: z
      .array(DeviceId)
      .max(MAX_DATASET_DEVICES, `A dataset holds at most ${MAX_DATASET_DEVICES} devices`)
      .refine((ids) => new Set(ids).size === ids.length, 'Each device may be chosen once')
      .optional(),
    campaignId: CampaignId.optional(),
  })
  .strict()
  .refine((source) => source.kind !== 'devices' || (source.deviceIds?.length ?? 0) > 0, {
    message: 'Choose at least one device',
    path: ['deviceIds'],
  })
  .refine((source) => source.kind !== 'campaign' || source.campaignId !== undefined, {
    message: 'Name the campaign',
    path: ['campaignId'],
  })
  .transform((source): { kind: 'devices'; deviceIds: string[] } | { kind: 'campaign'; campaignId: string } =>
    source.kind === 'devices'
      ? { kind: 'devices', deviceIds: source.deviceIds ?? [] }
      : { kind: 'campaign', campaignId: source.campaignId ?? '' },
  );

export const CreateDatasetBody = z
  .object({
    title: SafeText('Title', 200),
    description: OptionalSafeText('Description', 5000).default(''),
    /** Without it, the caller's display name. */
    creators: z.array(DatasetCreator).min(1, 'Name at least one creator').max(20, 'At most 20 creators').optional(),
    license: DatasetLicense.default('CC-BY-4.0'),
    visibility: DatasetVisibility,
    /** Chosen devices, or a campaign's devices and window. */
    source: Source,
    /** Start (ms, included); without it each device's download window (a campaign: its start). */
    from: EpochMillis.optional(),
    /** End (ms, included); without it now (a campaign: its end, or now if it has not ended). */
    to: EpochMillis.optional(),
    /** Columns, in this order; without it every measurement each device has sent. */
    measurements: z
      .array(MeasurementName)
      .min(1, 'Name at least one measurement, or leave measurements out for all of them')
      .max(MAX_MEASUREMENTS_PER_READING, `At most ${MAX_MEASUREMENTS_PER_READING} measurements`)
      .refine((names) => new Set(names).size === names.length, 'Each measurement may be named once')
      .optional(),
    /** Makes this a new version of that dataset: same concept, next version number, linked to it. */
    previousVersionId: DatasetId.optional(),
    /** Also a Parquet file per device, beside its CSV and JSON (docs/open-data.md), each with its checksum. */
    parquet: z.boolean({ error: 'parquet must be true or false' }).default(false),
  })
  .strict()
  .refine((body) => body.from === undefined || body.to === undefined || body.from <= body.to, {
    message: 'The range must start before it ends (from ≤ to)',
    path: ['from'],
  });
export type CreateDatasetBody = z.infer<typeof CreateDatasetBody>;

const Range = z.object({ from: EpochMillis, to: EpochMillis });

/**
 * One device of a dataset, as it was when the dataset was built: its tier then, the download window that tier gave the
 * dataset's audience (public or permissioned), and the parts of the range its rows come from.
 */
export const DatasetDevice = z.object({
  deviceId: DeviceId,
  name: z.string(),
  productLine: ProductLine,
  tier: z.object({ id: z.string(), name: z.string() }),
  /** Days back from `asOf` the tier's download window reached; null: the tier offers no downloads (no rows). */
  windowDays: z.number().int().nonnegative().nullable(),
  /** The parts of the dataset's range inside that window (and the builder's campaign windows): its rows' times. */
  parts: z.array(Range),
  /** Rows written, once its files are. */
  rows: z.number().int().nonnegative().optional(),
});
export type DatasetDevice = z.infer<typeof DatasetDevice>;

/** One file of a frozen dataset, with what the manifest says of it; fetched through `POST /api/aws` getSignedS3Url. */
export const DatasetFile = z.object({
  /** The file's name in the dataset (the name a browser saves it under). */
  name: z.string(),
  format: z.enum(['csv', 'json', 'parquet', 'manifest']),
  deviceId: z.string().optional(),
  rows: z.number().int().nonnegative().optional(),
  bytes: z.number().int().nonnegative(),
  /** Hex SHA-256 of the file's bytes. */
  sha256: z.string(),
  bucket: z.string(),
  key: z.string(),
});
export type DatasetFile = z.infer<typeof DatasetFile>;

export const Dataset = z.object({
  id: DatasetId,
  /** Every version of a dataset shares it: the first version's id. */
  conceptId: DatasetId,
  version: z.number().int().positive(),
  previousVersionId: DatasetId.optional(),
  title: z.string(),
  description: z.string(),
  creators: z.array(z.object({ name: z.string(), affiliation: z.string().optional() })),
  license: DatasetLicense,
  publisher: z.string(),
  visibility: DatasetVisibility,
  /** A campaign's dataset names the campaign (as it was named when the dataset was asked for). */
  source: z.object({
    kind: z.enum(['devices', 'campaign']),
    campaignId: z.string().optional(),
    campaignName: z.string().optional(),
  }),
  /** The range asked for (ms, both ends included); each device's `parts` say what it holds of it. */
  from: EpochMillis,
  to: EpochMillis,
  measurements: z.array(z.string()).optional(),
  /** The formats of each device's file: CSV and JSON always, Parquet when asked for. */
  formats: z.array(z.enum(['csv', 'json', 'parquet'])),
  /** When the query was made: tier windows are measured back from here, and readings are as stored then. */
  asOf: EpochMillis,
  devices: z.array(DatasetDevice),
  status: DatasetStatus,
  /** 0 to 100. */
  progress: z.number().int().min(0).max(100),
  error: z.string().optional(),
  rows: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  /** Once frozen: every file, the manifest last. */
  files: z.array(DatasetFile),
  /** The line to cite it by (DataCite's recommended form). */
  citation: z.string(),
  /** Its landing page in the web app. */
  url: z.string(),
  creatorId: z.string(),
  created: EpochMillis,
  updated: EpochMillis,
  frozenAt: EpochMillis.optional(),
});
export type Dataset = z.infer<typeof Dataset>;

/**
 * Builds that may be started per person and UTC clock hour: each reads up to a year of readings of up to
 * MAX_DATASET_DEVICES devices. Over it: 429 with Retry-After.
 */
export const DATASET_BUILDS_PER_HOUR = 20;

export const datasets = defineArea('datasets', {
  createDataset: defineRoute({
    method: 'POST',
    path: '/datasets',
    access: signedIn,
    summary: 'Starts building a dataset (202); rules: docs/datasets.md.',
    body: CreateDatasetBody,
    response: Dataset,
    status: 202,
  }),
  getDataset: defineRoute({
    method: 'GET',
    path: '/datasets/{datasetId}',
    access: guest,
    summary: 'A dataset, its citation, progress and files; 404 to whoever may not read it.',
    params: z.object({ datasetId: DatasetId }),
    response: Dataset,
  }),
  listPublicDatasets: defineRoute({
    method: 'GET',
    path: '/datasets',
    access: guest,
    summary: 'Frozen public datasets, newest first.',
    query: PageQuery,
    response: page(Dataset),
  }),
  listMyDatasets: defineRoute({
    method: 'GET',
    path: '/my-datasets',
    access: signedIn,
    summary: "The caller's datasets, newest first.",
    query: PageQuery,
    response: page(Dataset),
  }),
  listDatasetVersions: defineRoute({
    method: 'GET',
    path: '/datasets/{datasetId}/versions',
    access: guest,
    summary: 'The versions of a dataset the caller may read, oldest first.',
    params: z.object({ datasetId: DatasetId }),
    response: z.object({ items: z.array(Dataset) }),
  }),
  listCampaignDatasets: defineRoute({
    method: 'GET',
    path: '/campaigns/{id}/datasets',
    access: guest,
    summary: "A campaign's datasets the caller may read, newest first.",
    params: z.object({ id: CampaignId }),
    query: PageQuery,
    response: page(Dataset),
  }),
} satisfies Routes);
