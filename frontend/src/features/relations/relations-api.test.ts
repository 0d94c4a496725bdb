import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { MAX_PAGE_SIZE } from '../../../../shared/contracts/common';
import { typesWithReferrer } from '../../../../shared/relations/relation-types';
import { routeKey } from '../../lib/query';
import { betweenRequest, browseList, devicesList, holdersList, membersList, relationChangeKeys } from './relations-api';

const me = 'user-me';
const other = 'user-other';
const org = 'org-1';
const device = 'dev-1';

const myRolesOn = (kind: 'organization' | 'device', id: string) =>
  routeKey('relations', 'listByParameters', betweenRequest(id, me, typesWithReferrer(kind), MAX_PAGE_SIZE));

/** Every read the screens keep, by name. */
const reads: Record<string, QueryKey> = {
  orgMembers: membersList('organization', org).key,
  orgDevices: devicesList('organization', org).key,
  otherOrgMembers: membersList('organization', 'org-2').key,
  myRolesOnOrg: myRolesOn('organization', org),
  deviceMembers: membersList('device', device).key,
  deviceInOrganizations: holdersList('organization', device).key,
  deviceInCampaigns: holdersList('campaign', device).key,
  myRolesOnDevice: myRolesOn('device', device),
  myRelations: routeKey('relations', 'listByReferentId', { params: { id: me, x: 20 }, query: {} }),
  otherRelations: routeKey('relations', 'listByReferentId', { params: { id: other, x: 20 }, query: {} }),
  browseAll: browseList({}).key,
  browseBetween: browseList({ referrerId: org, referentId: other }).key,
  myOrganizations: routeKey('organizations', 'listMine'),
  theOrganization: routeKey('organizations', 'get', { params: { id: org } }),
};

/** The names of the reads a change invalidates, as the query client matches its keys. */
const invalidatedBy = async (keys: QueryKey[]) => {
  const client = new QueryClient();
  for (const key of Object.values(reads)) client.setQueryData(key, { items: [] });
  for (const queryKey of keys) await client.invalidateQueries({ queryKey, refetchType: 'none' });
  return Object.entries(reads)
    .filter(([, key]) => client.getQueryState(key)?.isInvalidated)
    .map(([name]) => name)
    .sort();
};

describe('relationChangeKeys', () => {
  it("a member added to an organization: its lists, the member's relations, the browser; not the caller's roles", async () => {
    const added = { type: 'organization-user' as const, referrerId: org, referentId: other };
    expect(await invalidatedBy(relationChangeKeys(added, me))).toEqual(
      ['browseAll', 'browseBetween', 'orgDevices', 'orgMembers', 'otherRelations'].sort(),
    );
  });

  it("the caller's own membership: also their roles on the object, their relations and their access to it", async () => {
    const mine = { type: 'organization-manager' as const, referrerId: org, referentId: me };
    expect(await invalidatedBy(relationChangeKeys(mine, me))).toEqual(
      [
        'browseAll',
        'myOrganizations',
        'myRelations',
        'myRolesOnOrg',
        'orgDevices',
        'orgMembers',
        'theOrganization',
      ].sort(),
    );
  });

  it('a device put into an organization: the devices of the organization and the holders of the device', async () => {
    const held = { type: 'organization-device' as const, referrerId: org, referentId: device };
    expect(await invalidatedBy(relationChangeKeys(held, me))).toEqual(
      // A list of one end is named by its id, whatever its types: the device's campaigns and the organization's
      // members are read again too.
      ['browseAll', 'deviceInCampaigns', 'deviceInOrganizations', 'orgDevices', 'orgMembers'].sort(),
    );
  });

  it("a device's user: the device's members and the person's relations", async () => {
    const user = { type: 'device-user' as const, referrerId: device, referentId: other };
    expect(await invalidatedBy(relationChangeKeys(user, me))).toEqual(
      ['browseAll', 'deviceMembers', 'otherRelations'].sort(),
    );
  });
});
