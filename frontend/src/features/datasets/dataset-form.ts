import type { CreateDatasetBody, Dataset } from '../../../../shared/contracts/datasets';
import { type Checked, problem } from '../../lib/form-check';

/** The build form's fields as typed, and the request they make. */
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
  /** A Parquet file per device too. */
  parquet: boolean;
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
  parquet: false,
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
  campaignId: dataset.source.campaignId ?? '',
  from: '',
  to: '',
  measurements: (dataset.measurements ?? []).join(', '),
  parquet: dataset.formats.includes('parquet'),
  previousVersionId: dataset.id,
});

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The request a form makes, or what is wrong with it, by field (the API checks again and says the rest). */
export const requestOf = (form: DatasetForm): Checked<CreateDatasetBody> => {
  if (!form.title.trim()) return problem('title', 'Give the dataset a title');
  if (form.sourceKind === 'devices' && form.deviceIds.length === 0)
    return problem('deviceIds', 'Choose at least one device');
  if (form.sourceKind === 'campaign' && !form.campaignId) return problem('campaignId', 'Choose a campaign');
  for (const field of ['from', 'to'] as const)
    if (form[field] && !DATE.test(form[field])) return problem(field, 'Dates are YYYY-MM-DD');
  const from = form.from ? Date.parse(`${form.from}T00:00:00Z`) : undefined;
  const to = form.to ? Date.parse(`${form.to}T23:59:59.999Z`) : undefined;
  if (from !== undefined && to !== undefined && from > to) return problem('to', 'The range must start before it ends');
  const creators = form.creators
    .split(';')
    .map((name) => name.trim())
    .filter(Boolean)
    .map((name) => ({ name }));
  const measurements = form.measurements
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const value: CreateDatasetBody = {
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
    parquet: form.parquet,
    ...(form.previousVersionId ? { previousVersionId: form.previousVersionId } : {}),
  };
  return { ok: true, value };
};
