import type { Organization } from '../../../shared/contracts/organizations';
import type { StoredPage } from '../../_shared/paging';

type Key = Record<string, unknown>;

export interface LogoFiles {
  /**
   * A URL that accepts one PUT of exactly this type and size: Content-Type and Content-Length are signed, so
   * S3 refuses a request with any other (the browser sets Content-Length from the file it sends).
   */
  uploadUrl: (key: string, contentType: string, size: number, expiresInSeconds: number) => Promise<string>;
  readUrl: (key: string, expiresInSeconds: number) => Promise<string>;
  /** @returns undefined when there is no such object */
  head: (key: string) => Promise<
    | {
        size: number;
        contentType?: string;
      }
    | undefined
  >;
  /** The object's first bytes (a ranged GET: a large object is not downloaded to read its signature). */
  readStart: (key: string, bytes: number) => Promise<Uint8Array>;
  remove: (key: string) => Promise<void>;
  /** Every object under the prefix: an organization's logos, including uploads never confirmed. */
  removeAll: (prefix: string) => Promise<number>;
}

/** An organization as stored: the logo's read URL is made per response, never kept. */
export type StoredOrganization = Omit<Organization, 'logoUrl'>;

export interface OrganizationStore {
  get: (id: string) => Promise<StoredOrganization | undefined>;
  /** Consistent reads by id, in no particular order; ids without an item are left out. */
  getMany: (ids: readonly string[]) => Promise<StoredOrganization[]>;
  /** @returns false when the id is taken */
  create: (organization: StoredOrganization) => Promise<boolean>;
  /**
   * Replaces the item only if it is still the version that was read (its `updated`), so two concurrent
   * changes cannot silently overwrite each other. @returns false when it changed or disappeared meanwhile
   */
  save: (organization: StoredOrganization, readVersion: number) => Promise<boolean>;
  /** @returns false when there was nothing to delete */
  remove: (id: string) => Promise<boolean>;
  /** Every organization, a page at a time: admin tooling only (a Scan). */
  scan: (startKey: Key | undefined, limit: number) => Promise<StoredPage<StoredOrganization>>;
}
