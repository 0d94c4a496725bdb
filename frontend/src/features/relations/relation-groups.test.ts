import type { Relation } from '../../../../shared/contracts/relations';
import { type RelationType, relationId } from '../../../../shared/relations/relation-types';
import { groupByReferrerKind, objectPath } from './relation-groups';

const mine = (type: RelationType, referrerId: string): Relation => ({
  id: relationId(type, referrerId, 'me'),
  type,
  referrerId,
  referentId: 'me',
  created: 0,
});

describe('groupByReferrerKind', () => {
  it("sorts a person's relations by the kind of object they lead to, keeping the server's order", () => {
    const relations = [
      mine('device-owner', 'dev-1'),
      mine('organization-manager', 'org-1'),
      mine('campaign-participant', 'cmp-1'),
      mine('device-user', 'dev-2'),
      mine('inviter-contact', 'someone'),
    ];
    expect(groupByReferrerKind(relations)).toEqual({
      device: [relations[0], relations[3]],
      organization: [relations[1]],
      campaign: [relations[2]],
      other: [relations[4]],
    });
  });

  it('has every group, empty, for no relations', () => {
    expect(groupByReferrerKind([])).toEqual({ device: [], organization: [], campaign: [], other: [] });
  });
});

describe('objectPath', () => {
  it('links to the object page with the id as one path segment', () => {
    expect(objectPath('device', 'dev-1')).toBe('/dashboard/devices/dev-1');
    expect(objectPath('organization', 'org:a@b+c')).toBe('/dashboard/organizations/org%3Aa%40b%2Bc');
    expect(objectPath('campaign', 'c.1')).toBe('/dashboard/campaigns/c.1');
  });
});
