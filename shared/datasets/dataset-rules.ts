/**
 * Dataset rules both sides read (docs/datasets.md): the licences offered, the limits, the publisher, the landing
 * page's path and the citation line.
 */

import type { DatasetLicenseId } from './dataset-limits';

export { DATASET_LICENSES, type DatasetLicenseId, MAX_DATASET_DEVICES } from './dataset-limits';

export const LICENSE_TITLES: Record<DatasetLicenseId, string> = {
  'CC-BY-4.0': 'Creative Commons Attribution 4.0',
  'CC-BY-SA-4.0': 'Creative Commons Attribution-ShareAlike 4.0',
  'CC0-1.0': 'CC0 1.0 (public domain dedication)',
  'ODbL-1.0': 'Open Data Commons Open Database License 1.0',
};

/** DataCite's mandatory Publisher: the platform that holds and serves the dataset. */
export const DATASET_PUBLISHER = 'Device Data Platform';

/** DataCite's resourceTypeGeneral, as a citation shows it. */
export const DATASET_RESOURCE_TYPE = 'Data set';

/** The landing page of a dataset in the web app: it stays, whatever becomes of the dataset. */
export const datasetPath = (id: string) => `/dashboard/datasets/${id}`;

/** Names of the files in a dataset: one CSV and one JSON per device (and a Parquet file when asked), and the manifest. */
export const MANIFEST_NAME = 'manifest.json';
export const deviceFileName = (deviceId: string, format: 'csv' | 'json' | 'parquet') => `${deviceId}.${format}`;

/** The formats of each device's file in a dataset: CSV (the default a person opens) and JSON, and Parquet when asked. */
export const datasetFormats = (parquet: boolean | undefined) =>
  (parquet ? ['csv', 'json', 'parquet'] : ['csv', 'json']) as ('csv' | 'json' | 'parquet')[];

export interface CitationParts {
  creators: readonly { name: string }[];
  title: string;
  version: number;
  publisher: string;
  /** When it was published (frozen), else when it was asked for: the citation's year. */
  year: number;
  url: string;
}

/**
 * DataCite's recommended citation, `Creator (PublicationYear). Title. Version. Publisher. ResourceType. Identifier`,
 * with the landing page as the identifier until datasets get DOIs: "Ada Lovelace; Grace Hopper (2026). Lake shore
 * survey (Version 2) [Data set]. Device Data Platform. https://…/dashboard/datasets/ds_…".
 */
export const citationOf = ({ creators, title, version, publisher, year, url }: CitationParts): string => {
  const names = creators.map((creator) => creator.name).join('; ');
  return `${names} (${year}). ${title} (Version ${version}) [${DATASET_RESOURCE_TYPE}]. ${publisher}. ${url}`;
};
