import { formatAudience, MANAGER_RELATIONS, managersOf, parseAudience } from './audience';

describe('audience selectors (spec §3)', () => {
  it('reads the three kinds of the spec', () => {
    expect(parseAudience('user:userId=abc-1')).toEqual({ kind: 'user', userId: 'abc-1' });
    expect(parseAudience('relation:relation-type=organization-manager:referrerId=org-1')).toEqual({
      kind: 'relation',
      relationType: 'organization-manager',
      referrerId: 'org-1',
    });
    expect(parseAudience('role:roleName=Employees')).toEqual({ kind: 'role', group: 'Employees' });
  });

  it("takes the spec's own spelling of a role, `administrator`, as the Administrators group", () => {
    expect(parseAudience('role:roleName=administrator')).toEqual({ kind: 'role', group: 'Administrators' });
  });

  it('refuses relations whose referent is not a person, unknown roles and other shapes, saying why', () => {
    expect(parseAudience('relation:relation-type=organization-device:referrerId=o1')).toMatchObject({
      error: expect.stringContaining('referent is a person'),
    });
    expect(parseAudience('role:roleName=kings')).toMatchObject({ error: expect.stringContaining('Administrators') });
    expect(parseAudience('everyone')).toMatchObject({ error: expect.stringContaining('user:userId={id}') });
    // Role names are looked up by what the selector says: an inherited name is no role.
    for (const name of ['constructor', 'toString', '__proto__']) {
      expect(parseAudience(`role:roleName=${name}`)).toMatchObject({
        error: expect.stringContaining('Administrators'),
      });
    }
    expect(parseAudience('user:userId=a#b')).toMatchObject({ error: expect.any(String) });
  });

  it('writes back what it reads', () => {
    for (const selector of [
      'user:userId=u1',
      'relation:relation-type=campaign-user:referrerId=c1',
      'role:roleName=Administrators',
    ]) {
      const parsed = parseAudience(selector);
      if ('error' in parsed) throw new Error(parsed.error);
      expect(formatAudience(parsed)).toBe(selector);
    }
  });
});

describe("a target's managers", () => {
  it("are a device's owners and administrators, a campaign's or an organization's managers", () => {
    expect(managersOf({ kind: 'device', id: 'd1' })).toEqual([
      'relation:relation-type=device-owner:referrerId=d1',
      'relation:relation-type=device-administrator:referrerId=d1',
    ]);
    expect(managersOf({ kind: 'campaign', id: 'c1' })).toEqual([
      'relation:relation-type=campaign-manager:referrerId=c1',
    ]);
    expect(managersOf({ kind: 'organization', id: 'o1' })).toEqual([
      'relation:relation-type=organization-manager:referrerId=o1',
    ]);
  });

  it('are selectors delivery can read: relations whose referent is a person', () => {
    for (const kind of Object.keys(MANAGER_RELATIONS) as (keyof typeof MANAGER_RELATIONS)[]) {
      for (const selector of managersOf({ kind, id: 'x1' }))
        expect(parseAudience(selector)).not.toHaveProperty('error');
    }
  });
});
