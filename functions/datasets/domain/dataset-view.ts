import type { Dataset } from '../../../shared/contracts/datasets';
import { citationOf, DATASET_PUBLISHER, datasetFormats, datasetPath } from '../../../shared/datasets/dataset-rules';
import type { DatasetRecord } from '../../_shared/datasets/dataset-access';

/** Where the datasets' files are and where the web app is: what a record needs to be shown. */
export interface DatasetPlace {
  /** The datasets bucket's name, handed to clients with each file for `POST /api/aws` getSignedS3Url. */
  bucket: string;
  /** The web app's origin: a dataset's landing page (and so its citation's identifier) is there. */
  webOrigin: string;
}

export const datasetUrl = (id: string, webOrigin: string) => `${webOrigin.replace(/\/+$/, '')}${datasetPath(id)}`;

/** The citation line of a record: its creators, its year (frozen, else asked for), title, version, landing page. */
export const citationFor = (
  record: Pick<DatasetRecord, 'id' | 'creators' | 'title' | 'version' | 'created' | 'frozenAt'>,
  webOrigin: string,
) =>
  citationOf({
    creators: record.creators,
    title: record.title,
    version: record.version,
    publisher: DATASET_PUBLISHER,
    year: new Date(record.frozenAt ?? record.created).getUTCFullYear(),
    url: datasetUrl(record.id, webOrigin),
  });

/** A record as the API answers it: the build's bookkeeping left out, files only once frozen. */
export const toDataset = (record: DatasetRecord, { bucket, webOrigin }: DatasetPlace): Dataset => ({
  id: record.id,
  conceptId: record.conceptId,
  version: record.version,
  ...(record.previousVersionId ? { previousVersionId: record.previousVersionId } : {}),
  title: record.title,
  description: record.description,
  creators: record.creators,
  license: record.license,
  publisher: DATASET_PUBLISHER,
  visibility: record.visibility,
  source: record.source,
  from: record.from,
  to: record.to,
  ...(record.measurements ? { measurements: record.measurements } : {}),
  formats: datasetFormats(record.parquet),
  asOf: record.asOf,
  devices: record.devices,
  status: record.status,
  progress: record.progress,
  ...(record.error ? { error: record.error } : {}),
  rows: record.rows,
  bytes: record.bytes,
  files:
    record.status === 'frozen' ? record.files.map(({ versionId: _version, ...file }) => ({ ...file, bucket })) : [],
  citation: citationFor(record, webOrigin),
  url: datasetUrl(record.id, webOrigin),
  creatorId: record.creatorId,
  created: record.created,
  updated: record.updated,
  ...(record.frozenAt !== undefined ? { frozenAt: record.frozenAt } : {}),
});
