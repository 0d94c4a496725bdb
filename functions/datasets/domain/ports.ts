import type { DatasetDevice } from '../../../shared/contracts/datasets';
import type { DatasetRecord, StoredDatasetFile } from '../../_shared/datasets/dataset-access';
import type { StoredPage } from '../../_shared/paging';

type Key = Record<string, unknown>;

export interface DatasetStore {
  /** @returns false when the id is taken */
  create: (record: DatasetRecord) => Promise<boolean>;
  get: (id: string) => Promise<DatasetRecord | undefined>;
  /**
   * The next version number of a concept: an atomic counter (`versions#{conceptId}`) of the versions after the
   * first, so two new versions made at once get two numbers.
   */
  nextVersion: (conceptId: string) => Promise<number>;
  /**
   * Counts one build started by `person` in the hour starting at `hourStart` (ms), unless the hour holds `limit`.
   * @returns false when the hour is full (nothing counted)
   */
  countBuild: (person: string, hourStart: number, limit: number) => Promise<boolean>;
  /**
   * Marks a delivery of the build's current step started (unless the dataset is frozen or failed).
   * @returns the record as it now is, or undefined when there is nothing left to do
   */
  start: (id: string, now: number) => Promise<DatasetRecord | undefined>;
  /** Progress of a build under way; never moves a finished one. */
  progress: (id: string, progress: number, now: number) => Promise<void>;
  /**
   * Records step `step` (a device's files) done, once: conditional on the step still being the current one.
   * @returns false when another delivery recorded it first
   */
  stepDone: (
    id: string,
    step: number,
    done: {
      files: StoredDatasetFile[];
      device: DatasetDevice;
      progress: number;
    },
    now: number,
  ) => Promise<boolean>;
  /**
   * Freezes the dataset with its manifest, once every device's step is done. From here on nothing writes it.
   * @returns false when it was frozen (or failed) already
   */
  freeze: (
    id: string,
    frozen: {
      manifest: StoredDatasetFile;
      frozenAt: number;
      listed: boolean;
    },
    steps: number,
  ) => Promise<boolean>;
  /** A failed delivery: `queued` again with why (retrying), or `failed` for good. Never touches a frozen one. */
  setback: (id: string, status: 'queued' | 'failed', error: string, now: number) => Promise<void>;
  /** One page of a person's datasets, newest first. */
  listByCreator: (creatorId: string, startKey: Key | undefined, limit: number) => Promise<StoredPage<DatasetRecord>>;
  /** One page of a campaign's datasets, newest first. */
  listByCampaign: (campaignId: string, startKey: Key | undefined, limit: number) => Promise<StoredPage<DatasetRecord>>;
  /** One page of the frozen public datasets, latest frozen first. */
  listPublic: (startKey: Key | undefined, limit: number) => Promise<StoredPage<DatasetRecord>>;
  /** Every version of a concept, oldest first (a concept has a handful). */
  listVersions: (conceptId: string) => Promise<DatasetRecord[]>;
}
