import type { StoredOrganization } from '../../functions/organizations/domain/ports';
import { createOrganizationStore } from '../../functions/organizations/store/organization-store';
import type { OrganizationRole } from '../../shared/contracts/organizations';
import { seedRelation } from './relations';
import { documentClient, stack, uniqueId } from './stack';

/**
 * Test set-up only: an organization written through the organizations area's own store (the whole record its create
 * writes, so its lists read it like any other), and `holder`'s role in it (a manager unless told), as seedRelation
 * writes relations.
 */
export const seedOrganization = async (
  holder: string,
  {
    role = 'organization-manager',
    name = 'Test organization',
    id = uniqueId('org'),
    logo,
  }: { role?: OrganizationRole; name?: string; id?: string; logo?: StoredOrganization['logo'] } = {},
): Promise<StoredOrganization> => {
  const now = Date.now();
  const organization: StoredOrganization = {
    id,
    name,
    created: now,
    createdBy: holder,
    updated: now,
    ...(logo ? { logo } : {}),
  };
  await createOrganizationStore({ db: documentClient(), tableName: stack().tables.organizations! }).create(
    organization,
  );
  await seedRelation(role, organization.id, holder);
  return organization;
};
