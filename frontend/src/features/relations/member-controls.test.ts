import { MESSAGES } from '../../../../shared/messages';
import type { RelationType } from '../../../../shared/relations/relation-types';
import {
  addableRoles,
  checkId,
  checkNewDevice,
  checkNewRelation,
  factsOnDevice,
  factsOnReferrer,
  mayOfferAddDevice,
  memberTypes,
  rowControls,
} from './member-controls';

const ME = 'me-sub';
const as = (...roles: RelationType[]) => factsOnReferrer(ME, false, roles);
const staff = factsOnReferrer(ME, true, []);
const row = (type: RelationType, referentId: string, referrerId = 'dev-1') => ({ type, referrerId, referentId });

describe('memberTypes', () => {
  it("lists the roles a person can hold on each kind of object, not the kind's devices", () => {
    expect(memberTypes('device')).toEqual(['device-user', 'device-administrator', 'device-owner']);
    expect(memberTypes('organization')).toEqual([
      'organization-user',
      'organization-manager',
      'organization-participant',
    ]);
    expect(memberTypes('campaign')).toEqual(['campaign-user', 'campaign-manager', 'campaign-participant']);
  });
});

describe('addableRoles', () => {
  it('lets a device owner add users and administrators, never owners', () => {
    expect(addableRoles('device', 'dev-1', as('device-owner'))).toEqual(['device-user', 'device-administrator']);
  });

  it('offers a device administrator or user no add-member form', () => {
    expect(addableRoles('device', 'dev-1', as('device-administrator'))).toEqual([]);
    expect(addableRoles('device', 'dev-1', as('device-user'))).toEqual([]);
    expect(addableRoles('device', 'dev-1', as())).toEqual([]);
  });

  it('lets a manager add every role of their organization or campaign, and a plain member none', () => {
    expect(addableRoles('organization', 'org-1', as('organization-manager'))).toEqual(memberTypes('organization'));
    expect(addableRoles('organization', 'org-1', as('organization-user'))).toEqual([]);
    expect(addableRoles('campaign', 'cmp-1', as('campaign-manager'))).toEqual(memberTypes('campaign'));
    expect(addableRoles('campaign', 'cmp-1', as('campaign-participant'))).toEqual([]);
  });

  it('lets staff add every role, device owners included', () => {
    expect(addableRoles('device', 'dev-1', staff)).toEqual(memberTypes('device'));
  });
});

describe('mayOfferAddDevice', () => {
  it('offers "add device" to managers and staff only', () => {
    expect(mayOfferAddDevice('organization', 'org-1', as('organization-manager'))).toBe(true);
    expect(mayOfferAddDevice('campaign', 'cmp-1', as('campaign-manager'))).toBe(true);
    expect(mayOfferAddDevice('organization', 'org-1', as('organization-user'))).toBe(false);
    expect(mayOfferAddDevice('campaign', 'cmp-1', staff)).toBe(true);
  });
});

describe('rowControls', () => {
  it("gives a device owner remove and a role choice on someone else's membership", () => {
    expect(rowControls(row('device-user', 'other'), as('device-owner'))).toEqual({
      canRemove: true,
      roles: ['device-user', 'device-administrator'],
    });
  });

  it('gives nobody but staff controls over an ownership', () => {
    expect(rowControls(row('device-owner', ME), as('device-owner'))).toEqual({
      canRemove: false,
      roles: ['device-owner'],
    });
    expect(rowControls(row('device-owner', 'other'), staff)).toEqual({ canRemove: true, roles: ['device-owner'] });
  });

  it('lets a member leave but not promote themself, staff included', () => {
    expect(rowControls(row('device-user', ME), as('device-user'))).toEqual({
      canRemove: true,
      roles: ['device-user'],
    });
    expect(rowControls(row('device-user', ME), staff)).toEqual({ canRemove: true, roles: ['device-user'] });
  });

  it('gives someone without a managing role no controls', () => {
    expect(rowControls(row('device-administrator', 'other'), as('device-administrator'))).toEqual({
      canRemove: false,
      roles: ['device-administrator'],
    });
    expect(rowControls(row('organization-user', 'other', 'org-1'), as('organization-participant'))).toEqual({
      canRemove: false,
      roles: ['organization-user'],
    });
  });

  it('lets an organization manager change roles across the whole family', () => {
    expect(rowControls(row('organization-user', 'other', 'org-1'), as('organization-manager'))).toEqual({
      canRemove: true,
      roles: ['organization-user', 'organization-manager', 'organization-participant'],
    });
  });

  it("lets a device's owner or administrator take it out of an organization, from the device page", () => {
    const holder = { type: 'organization-device' as const, referrerId: 'org-1', referentId: 'dev-1' };
    expect(rowControls(holder, factsOnDevice(ME, false, ['device-administrator'])).canRemove).toBe(true);
    expect(rowControls(holder, factsOnDevice(ME, false, ['device-user'])).canRemove).toBe(false);
  });
});

describe('checking before sending', () => {
  it("uses the contract's messages for a missing or malformed id", () => {
    expect(checkId('  ')).toEqual({ ok: false, error: 'Id cannot be empty' });
    expect(checkId('a b')).toEqual({ ok: false, error: expect.stringMatching(/^Id may contain only/) });
    expect(checkId(' dev-1 ')).toEqual({ ok: true, value: 'dev-1' });
  });

  it('refuses a self-grant without a round trip, with the API’s message', () => {
    expect(checkNewRelation('device-user', 'dev-1', ME, as('device-owner'))).toEqual({
      ok: false,
      error: MESSAGES.relationSelfGrant,
    });
  });

  it('passes an allowed relation on, trimmed', () => {
    expect(checkNewRelation('device-user', 'dev-1', ' other ', as('device-owner'))).toEqual({
      ok: true,
      value: { type: 'device-user', referrerId: 'dev-1', referentId: 'other' },
    });
  });

  it('refuses an empty member id before the rules', () => {
    expect(checkNewRelation('device-user', 'dev-1', '', as())).toEqual({ ok: false, error: 'Id cannot be empty' });
  });

  it("puts a typed device into the organization or campaign on screen, or gives the id's problem", () => {
    expect(checkNewDevice('campaign', 'camp-1', ' dev-1 ')).toEqual({
      ok: true,
      value: { type: 'campaign-device', referrerId: 'camp-1', referentId: 'dev-1' },
    });
    expect(checkNewDevice('organization', 'org-1', '')).toEqual({ ok: false, error: 'Id cannot be empty' });
  });
});
