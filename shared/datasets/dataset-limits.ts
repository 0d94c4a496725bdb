/**
 * The constants the datasets contract needs, apart from the rest of the rules: the contract is in the web app's entry
 * (every page's typed client), the citation and licence titles are not.
 */

/** SPDX identifiers of the licences a dataset may carry (DataCite `rights`, Frictionless `licenses`). */
export const DATASET_LICENSES = ['CC-BY-4.0', 'CC-BY-SA-4.0', 'CC0-1.0', 'ODbL-1.0'] as const;
export type DatasetLicenseId = (typeof DATASET_LICENSES)[number];

/** Each device is a build step of its own (its CSV and JSON), so the limit bounds the build, not one step. */
export const MAX_DATASET_DEVICES = 50;
