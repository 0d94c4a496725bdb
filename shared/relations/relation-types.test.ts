import {
  isRelationType,
  parseRelationId,
  RELATION_TYPE_INFO,
  RELATION_TYPES,
  relationId,
  typesWithReferrer,
} from './relation-types';

describe('relation types', () => {
  it('are exactly the 13 types of spec §3', () => {
    expect([...RELATION_TYPES].sort()).toEqual(
      [
        'campaign-device',
        'campaign-manager',
        'campaign-participant',
        'campaign-user',
        'device-administrator',
        'device-owner',
        'device-user',
        'inviter-contact',
        'inviter-invite',
        'organization-device',
        'organization-manager',
        'organization-participant',
        'organization-user',
      ].sort(),
    );
    expect(new Set(RELATION_TYPES).size).toBe(13);
  });

  it.each(['device', 'organization-admin', 'Device-user', 'device-user ', ''])('does not know %p', (value) => {
    expect(isRelationType(value)).toBe(false);
  });

  it.each([
    ['organization-device', 'organization', 'device'],
    ['campaign-device', 'campaign', 'device'],
    ['device-owner', 'device', 'user'],
    ['campaign-participant', 'campaign', 'user'],
    ['inviter-contact', 'user', 'user'],
    ['inviter-invite', 'user', 'invite'],
  ] as const)('%s links a %s to a %s', (type, referrer, referent) => {
    expect(RELATION_TYPE_INFO[type]).toMatchObject({ type, referrer, referent });
  });

  it('lets a role change only within the organization, campaign and device-user families', () => {
    expect(RELATION_TYPE_INFO['organization-user'].family).toEqual([
      'organization-user',
      'organization-manager',
      'organization-participant',
    ]);
    expect(RELATION_TYPE_INFO['device-administrator'].family).toEqual(['device-user', 'device-administrator']);
    // Ownership moves by claiming or transfer, never by a role change.
    expect(RELATION_TYPE_INFO['device-owner'].family).toEqual(['device-owner']);
    expect(RELATION_TYPE_INFO['organization-device'].family).toEqual(['organization-device']);
  });

  it('lists the member and device types an organization refers to', () => {
    expect(typesWithReferrer('organization').sort()).toEqual(
      ['organization-device', 'organization-manager', 'organization-participant', 'organization-user'].sort(),
    );
    expect(typesWithReferrer('invite')).toEqual([]);
  });
});

describe('relation ids', () => {
  it.each(RELATION_TYPES)('round-trips a %s id', (type) => {
    const id = relationId(type, 'ref-rer.1', 'user:2@x');
    expect(id).toBe(`${type}#ref-rer.1#user:2@x`);
    expect(parseRelationId(id)).toEqual({ type, referrerId: 'ref-rer.1', referentId: 'user:2@x' });
  });

  it('gives the same id to the same (type, referrer, referent), so a second create is a duplicate', () => {
    expect(relationId('device-user', 'd1', 'u1')).toBe(relationId('device-user', 'd1', 'u1'));
    expect(relationId('device-user', 'd1', 'u1')).not.toBe(relationId('device-administrator', 'd1', 'u1'));
    expect(relationId('device-user', 'd1', 'u1')).not.toBe(relationId('device-user', 'u1', 'd1'));
  });

  it.each([
    ['too few parts', 'device-user#d1'],
    ['one part', 'device-user'],
    ['too many parts', 'device-user#d1#u1#x'],
    ['a trailing separator', 'device-user#d1#u1#'],
    ['an unknown type', 'device-owners#d1#u1'],
    ['an empty type', '#d1#u1'],
    ['an empty referrer', 'device-user##u1'],
    ['an empty referent', 'device-user#d1#'],
    ['nothing', ''],
    ['a random legacy id', '3f1c7a52-1b7e-4c1b-9a55-2c1d0e9f8a11'],
  ])('rejects an id with %s', (_case, id) => {
    expect(parseRelationId(id)).toBeUndefined();
  });
});
