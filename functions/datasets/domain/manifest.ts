import { DATASET_PUBLISHER, DATASET_RESOURCE_TYPE, LICENSE_TITLES } from '../../../shared/datasets/dataset-rules';
import type { DatasetRecord } from '../../_shared/datasets/dataset-access';
import { CONTENT_TYPES } from '../../_shared/exports/export-format';
import { citationFor, datasetUrl } from './dataset-view';

/** Bumped when a field changes meaning; adding fields (further DataCite and Frictionless ones) keeps it. */
export const MANIFEST_VERSION = 1;

/**
 * The manifest written beside a dataset's files (docs/datasets.md "The manifest"): what the dataset is (its metadata
 * and citation), the query that made it (devices, range, measurements, as of when, each device's tier and the parts
 * its window allowed), and each file with its media type, rows, bytes and SHA-256. One JSON object whose field names
 * follow DataCite and Frictionless where they have one, so a `datapackage.json` can be derived from it without
 * rework. `sha256sum` checks a file against it.
 */
export const manifestOf = (record: DatasetRecord, { webOrigin, frozenAt }: { webOrigin: string; frozenAt: number }) => {
  const frozen = { ...record, frozenAt };
  const dataFiles = record.files.filter((file) => file.format !== 'manifest');
  return {
    manifestVersion: MANIFEST_VERSION,
    id: record.id,
    conceptId: record.conceptId,
    version: record.version,
    ...(record.previousVersionId ? { previousVersionId: record.previousVersionId } : {}),
    title: record.title,
    description: record.description,
    creators: record.creators,
    publisher: DATASET_PUBLISHER,
    publicationYear: new Date(frozenAt).getUTCFullYear(),
    resourceType: DATASET_RESOURCE_TYPE,
    license: { name: record.license, title: LICENSE_TITLES[record.license] },
    visibility: record.visibility,
    url: datasetUrl(record.id, webOrigin),
    citation: citationFor(frozen, webOrigin),
    created: record.created,
    frozenAt,
    query: {
      source: record.source,
      deviceIds: record.devices.map((device) => device.deviceId),
      from: record.from,
      to: record.to,
      measurements: record.measurements ?? null,
      asOf: record.asOf,
    },
    devices: record.devices.map((device) => ({
      deviceId: device.deviceId,
      name: device.name,
      productLine: device.productLine,
      tier: device.tier,
      downloadWindow: { audience: record.visibility, days: device.windowDays },
      parts: device.parts,
      rows: device.rows ?? 0,
    })),
    files: dataFiles.map((file) => ({
      name: file.name,
      path: file.name,
      format: file.format,
      mediatype: CONTENT_TYPES[file.format as 'csv' | 'json' | 'parquet'],
      ...(file.deviceId ? { deviceId: file.deviceId } : {}),
      rows: file.rows ?? 0,
      bytes: file.bytes,
      sha256: file.sha256,
    })),
    rows: dataFiles.filter((file) => file.format === 'csv').reduce((sum, file) => sum + (file.rows ?? 0), 0),
    bytes: dataFiles.reduce((sum, file) => sum + file.bytes, 0),
    // Room for what a citation may gain (contributors, keywords, related identifiers, a DOI) without a new version.
    metadata: {},
  };
};

export type Manifest = ReturnType<typeof manifestOf>;
