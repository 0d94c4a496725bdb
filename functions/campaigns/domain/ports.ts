import type { PageRead, StoredPage } from '../../_shared/paging';

/** A campaign as stored; its status is derived at read time (docs/campaigns.md). */
export interface CampaignRecord {
  id: string;
  name: string;
  description: string;
  startsAt: number;
  endsAt: number;
  /** Absent when the campaign belongs to no organization (then the byOrganization index leaves it out). */
  organizationId?: string;
  created: number;
  createdBy: string;
  updated: number;
}

export interface CampaignStore {
  get: (id: string) => Promise<CampaignRecord | undefined>;
  getMany: (ids: readonly string[]) => Promise<CampaignRecord[]>;
  /** @returns false when the id is taken */
  create: (record: CampaignRecord) => Promise<boolean>;
  /** Writes the whole record if nobody changed it since `expectedUpdated`. @returns false otherwise */
  replace: (record: CampaignRecord, expectedUpdated: number) => Promise<boolean>;
  remove: (id: string) => Promise<void>;
  /** Every campaign, for staff (admin tooling may scan, paged). */
  listAll: (page: PageRead) => Promise<StoredPage<CampaignRecord>>;
  /** An organization's campaigns, latest start first. */
  listByOrganization: (organizationId: string, page: PageRead) => Promise<StoredPage<CampaignRecord>>;
}

export interface OrganizationReader {
  exists: (id: string) => Promise<boolean>;
}
