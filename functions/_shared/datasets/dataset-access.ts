import { isStaff } from '../../../shared/auth/groups';
import type { Caller } from '../../../shared/auth/verify-token';
import { clipToWindows, type TimeRange, type Windows } from '../../../shared/campaigns/window';
import type {
  DatasetDevice,
  DatasetLicense,
  DatasetStatus,
  DatasetVisibility,
} from '../../../shared/contracts/datasets';
import { DomainError } from '../errors';
import type { DataAccess } from '../sensor-data/data-access';

/** One file of a dataset as stored: where it is, which object version, and what the manifest says of it. */
export interface StoredDatasetFile {
  name: string;
  format: 'csv' | 'json' | 'parquet' | 'manifest';
  deviceId?: string;
  rows?: number;
  bytes: number;
  sha256: string;
  key: string;
  /** The object version written (a versioned bucket): signed URLs fetch exactly this one. */
  versionId?: string;
}

/** A dataset as stored in the datasets table (docs/datasets.md). Everything but the build's own fields is frozen. */
export interface DatasetRecord {
  id: string;
  conceptId: string;
  version: number;
  previousVersionId?: string;
  title: string;
  description: string;
  creators: { name: string; affiliation?: string }[];
  license: DatasetLicense;
  visibility: DatasetVisibility;
  source: { kind: 'devices' } | { kind: 'campaign'; campaignId: string; campaignName: string };
  /** A campaign dataset's campaign (the byCampaign index). */
  campaignId?: string;
  from: number;
  to: number;
  measurements?: string[];
  /** A Parquet file per device too (issue 41); absent on datasets asked for before it. */
  parquet?: boolean;
  asOf: number;
  devices: DatasetDevice[];
  status: DatasetStatus;
  progress: number;
  error?: string;
  /** Deliveries of the current build step (reset when a step is done). */
  attempts: number;
  /** The next build step: a device's index, or `devices.length` for the manifest. */
  step: number;
  files: StoredDatasetFile[];
  rows: number;
  bytes: number;
  creatorId: string;
  created: number;
  updated: number;
  frozenAt?: number;
  /** `public` on a frozen public dataset only (the sparse byListing index). */
  listing?: 'public';
}

/** The object key of a dataset's file in the datasets bucket. */
export const datasetFileKey = (datasetId: string, name: string) => `datasets/${datasetId}/${name}`;

/** `datasets/{datasetId}/{name}` read back, or undefined for any other key. */
export const parseDatasetFileKey = (key: string): { datasetId: string; name: string } | undefined => {
  const match = /^datasets\/(ds_[0-9a-z]{12})\/([A-Za-z0-9._:-]+)$/.exec(key);
  return match ? { datasetId: match[1]!, name: match[2]! } : undefined;
};

/** Is every part inside the windows (null: no limit)? */
const covers = (windows: Windows, parts: readonly TimeRange[]) =>
  parts.every((part) => {
    const clipped = clipToWindows(part, windows);
    return clipped.length === 1 && clipped[0]!.from === part.from && clipped[0]!.to === part.to;
  });

/**
 * Who may read a dataset, its record and its files (docs/datasets.md "Who reads"): a public one, everyone; a
 * permissioned one, its creator, staff, and whoever may today reach every device it holds rows of by permission (a
 * relation, or campaigns whose windows cover those rows). A reader's tier does not matter: the dataset holds what the
 * tiers allowed when it was built, and stays so.
 */
export const mayReadDataset = async (
  caller: Caller | undefined,
  record: Pick<DatasetRecord, 'visibility' | 'creatorId' | 'devices'>,
  resolve: (caller: Caller | undefined, deviceId: string) => Promise<Pick<DataAccess, 'permissioned' | 'windows'>>,
): Promise<boolean> => {
  if (record.visibility === 'public') return true;
  if (!caller) return false;
  if (caller.sub === record.creatorId || isStaff(caller.groups)) return true;
  let checked = 0;
  for (const device of record.devices) {
    if (device.parts.length === 0) continue;
    checked += 1;
    try {
      const access = await resolve(caller, device.deviceId);
      if (!access.permissioned || !covers(access.windows, device.parts)) return false;
    } catch (error) {
      // No access to a device (403, 404) is "may not read", not an error of this request.
      if (error instanceof DomainError) return false;
      throw error;
    }
  }
  // A dataset without rows cannot be built; were one stored, it would give no one a way in.
  return checked > 0;
};
