import type { CreateDatasetBody, Dataset, DatasetDevice } from '../../../../shared/contracts/datasets';

/** Polling stops once a dataset can change no more. */
export const isSettled = (dataset: Pick<Dataset, 'status'>) =>
  dataset.status === 'frozen' || dataset.status === 'failed';

export const STATUS_TEXT: Record<Dataset['status'], string> = {
  queued: 'Queued',
  building: 'Building',
  frozen: 'Frozen',
  failed: 'Failed',
};

/** One line for a dataset's state: "Queued", "Building… 45 %", "Frozen: 1,234 rows, 56.7 KB", "Failed: why". */
export const datasetStatusText = (dataset: Pick<Dataset, 'status' | 'progress' | 'rows' | 'bytes' | 'error'>) => {
  if (dataset.status === 'frozen') {
    return `Frozen: ${dataset.rows.toLocaleString('en')} rows, ${formatBytes(dataset.bytes)}`;
  }
  if (dataset.status === 'failed') return `Failed: ${dataset.error ?? 'the build stopped'}`;
  const retry = dataset.error ? ` (${dataset.error})` : '';
  return dataset.status === 'queued' && dataset.progress === 0
    ? `Queued${retry}`
    : `Building… ${dataset.progress} %${retry}`;
};

export const formatBytes = (bytes: number): string => {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
};

const day = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

/** A range in UTC minutes: "2026-05-01 00:00 – 2026-05-31 23:59 UTC". */
export const rangeText = (range: { from: number; to: number }) => `${day(range.from)} – ${day(range.to)} UTC`;

/** What one device gave the dataset, and why: its tier's window, or that its tier has no downloads. */
export const deviceWindowText = (device: Pick<DatasetDevice, 'tier' | 'windowDays' | 'parts'>) => {
  if (device.windowDays === null) return `${device.tier.name} offers no downloads: no rows`;
  if (device.parts.length === 0) return `${device.tier.name}: ${device.windowDays} days, none of them in the range`;
  return `${device.tier.name}: last ${device.windowDays} days · ${device.parts.map(rangeText).join(', ')}`;
};

/** The one command that checks downloaded files against the manifest (docs/datasets.md). */
export const VERIFY_COMMAND = `jq -r '.files[] | "\\(.sha256)  \\(.path)"' manifest.json | sha256sum -c`;

export interface DatasetForm {
  title: string;
  description: string;
  creators: string;
  license: CreateDatasetBody['license'];
  visibility: CreateDatasetBody['visibility'];
  sourceKind: 'devices' | 'campaign';
  deviceIds: string[];
  campaignId: string;
  /** `YYYY-MM-DD` (UTC), or empty for "as far back as allowed". */
  from: string;
  /** `YYYY-MM-DD` (UTC), or empty for "now". */
  to: string;
  /** Comma-separated measurement names, or empty for all of them. */
  measurements: string;
  previousVersionId?: string;
}

export const emptyForm = (): DatasetForm => ({
  title: '',
  description: '',
  creators: '',
  license: 'CC-BY-4.0',
  visibility: 'permissioned',
  sourceKind: 'devices',
  deviceIds: [],
  campaignId: '',
  from: '',
  to: '',
  measurements: '',
});

/** A form filled from a dataset, for its next version. */
export const formFrom = (dataset: Dataset): DatasetForm => ({
  title: dataset.title,
  description: dataset.description,
  creators: dataset.creators.map((creator) => creator.name).join('; '),
  license: dataset.license,
  visibility: dataset.visibility,
  sourceKind: dataset.source.kind,
  deviceIds: dataset.source.kind === 'devices' ? dataset.devices.map((device) => device.deviceId) : [],
  campaignId: dataset.source.kind === 'campaign' ? dataset.source.campaignId : '',
  from: '',
  to: '',
  measurements: (dataset.measurements ?? []).join(', '),
  previousVersionId: dataset.id,
});

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The request a form makes, or what is wrong with it (the API checks again and says the rest). */
export const requestOf = (form: DatasetForm): CreateDatasetBody | string => {
  if (!form.title.trim()) return 'Give the dataset a title';
  if (form.sourceKind === 'devices' && form.deviceIds.length === 0) return 'Choose at least one device';
  if (form.sourceKind === 'campaign' && !form.campaignId) return 'Choose a campaign';
  for (const date of [form.from, form.to]) if (date && !DATE.test(date)) return 'Dates are YYYY-MM-DD';
  const from = form.from ? Date.parse(`${form.from}T00:00:00Z`) : undefined;
  const to = form.to ? Date.parse(`${form.to}T23:59:59.999Z`) : undefined;
  if (from !== undefined && to !== undefined && from > to) return 'The range must start before it ends';
  const creators = form.creators
    .split(';')
    .map((name) => name.trim())
    .filter(Boolean)
    .map((name) => ({ name }));
  const measurements = form.measurements
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  return {
    title: form.title.trim(),
    description: form.description.trim(),
    ...(creators.length ? { creators } : {}),
    license: form.license,
    visibility: form.visibility,
    source:
      form.sourceKind === 'devices'
        ? { kind: 'devices', deviceIds: form.deviceIds }
        : { kind: 'campaign', campaignId: form.campaignId },
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined ? { to } : {}),
    ...(measurements.length ? { measurements } : {}),
    ...(form.previousVersionId ? { previousVersionId: form.previousVersionId } : {}),
  };
};
