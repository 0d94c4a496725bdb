import { MESSAGES } from '../messages';
import {
  type ChangeFacts,
  grants,
  isRoleChange,
  mayChangeType,
  mayCreate,
  mayDelete,
  type RelationEnds,
} from './relation-rules';
import { RELATION_TYPE_INFO, RELATION_TYPES, type RelationType } from './relation-types';

const ME = 'me';

const facts = (over: Partial<ChangeFacts> = {}): ChangeFacts => ({
  callerId: ME,
  staff: false,
  onReferrer: [],
  onReferent: [],
  ...over,
});
const staff = facts({ staff: true });
const stranger = facts();

/** A relation between two objects other than the caller, unless the ids say otherwise. */
const rel = (type: RelationType, referrerId = 'referrer-1', referentId = 'referent-1'): RelationEnds => ({
  type,
  referrerId,
  referentId,
});

const allowed = { allowed: true };
const denied = (reason: string) => ({ allowed: false, reason });

/** Types that give a user a role on an organization, campaign or device: the ones a person could self-grant. */
const ROLE_TYPES = RELATION_TYPES.filter(
  (type) => RELATION_TYPE_INFO[type].referent === 'user' && RELATION_TYPE_INFO[type].referrer !== 'user',
);
const MEMBER_TYPES = [
  ['organization', 'organization-user'],
  ['organization', 'organization-manager'],
  ['organization', 'organization-participant'],
  ['campaign', 'campaign-user'],
  ['campaign', 'campaign-manager'],
  ['campaign', 'campaign-participant'],
] as const;
const MANAGER = { organization: 'organization-manager', campaign: 'campaign-manager' } as const;
const PLAIN_USER = { organization: 'organization-user', campaign: 'campaign-user' } as const;

describe('grants', () => {
  it.each([
    ['device', 'view', ['device-user'], 'device-user'],
    ['device', 'view', ['device-administrator'], 'device-administrator'],
    ['device', 'view', ['device-owner'], 'device-owner'],
    ['device', 'manage', ['device-user'], undefined],
    ['device', 'manage', ['device-administrator'], 'device-administrator'],
    ['device', 'manage', ['device-owner'], 'device-owner'],
    ['device', 'own', ['device-administrator'], undefined],
    ['device', 'own', ['device-owner', 'device-user'], 'device-owner'],
    // A campaign or organization role names no device: it never grants on a device by itself.
    ['device', 'view', ['campaign-user', 'organization-manager'], undefined],
    ['organization', 'view', ['organization-participant'], 'organization-participant'],
    ['organization', 'manage', ['organization-user'], undefined],
    ['organization', 'manage', ['organization-manager'], 'organization-manager'],
    ['campaign', 'view', ['campaign-participant'], 'campaign-participant'],
    ['campaign', 'manage', ['campaign-participant', 'campaign-user'], undefined],
    ['campaign', 'manage', ['campaign-manager'], 'campaign-manager'],
    ['campaign', 'view', ['organization-manager'], undefined],
    ['organization', 'view', [], undefined],
  ] as const)('%s %s with %j → %s', (kind, need, held, expected) => {
    expect(grants(kind, need, held)).toBe(expected);
  });
});

describe('who may create or delete a relation', () => {
  describe('self-grant', () => {
    it.each(ROLE_TYPES)('nobody, not even staff, grants themself %s', (type) => {
      const mine = rel(type, 'object-1', ME);
      // Even someone who manages and owns everything involved.
      const powerful = facts({
        onReferrer: ['organization-manager', 'campaign-manager', 'device-owner'],
        onReferent: ['device-owner'],
      });
      expect(mayCreate(mine, staff)).toEqual(denied(MESSAGES.relationSelfGrant));
      expect(mayCreate(mine, powerful)).toEqual(denied(MESSAGES.relationSelfGrant));
    });

    it('covers the nine role types, and not the device-holding or inviter types', () => {
      expect(ROLE_TYPES).toHaveLength(9);
      expect(ROLE_TYPES).not.toContain('organization-device');
      expect(ROLE_TYPES).not.toContain('inviter-contact');
    });
  });

  describe('staff', () => {
    it.each(RELATION_TYPES)('may create and delete %s for others', (type) => {
      expect(mayCreate(rel(type), staff)).toEqual(allowed);
      expect(mayDelete(rel(type), staff)).toEqual(allowed);
    });

    it('may change a role for another person', () => {
      expect(mayChangeType(rel('organization-user'), 'organization-manager', staff)).toEqual(allowed);
    });
  });

  describe('a caller holding nothing', () => {
    it.each(RELATION_TYPES)('may neither create nor delete %s between two other objects', (type) => {
      expect(mayCreate(rel(type), stranger).allowed).toBe(false);
      expect(mayDelete(rel(type), stranger).allowed).toBe(false);
    });
  });

  describe.each(MEMBER_TYPES)('%s members: %s', (kind, type) => {
    it('a manager of the referrer adds and removes them', () => {
      const manager = facts({ onReferrer: [MANAGER[kind]] });
      expect(mayCreate(rel(type), manager)).toEqual(allowed);
      expect(mayDelete(rel(type), manager)).toEqual(allowed);
    });

    it('an ordinary member or participant of the referrer may not', () => {
      const member = facts({ onReferrer: [PLAIN_USER[kind], `${kind}-participant` as RelationType] });
      expect(mayCreate(rel(type), member)).toEqual(denied(MESSAGES.relationManagerRequired(kind)));
      expect(mayDelete(rel(type), member)).toEqual(denied(MESSAGES.relationManagerRequired(kind)));
    });

    it("a manager of the other kind of object may not (the facts are the caller's roles on the referrer)", () => {
      const other = kind === 'organization' ? 'campaign' : 'organization';
      expect(mayCreate(rel(type), facts({ onReferrer: [MANAGER[other]] })).allowed).toBe(false);
    });

    it('the member may leave', () => {
      expect(mayDelete(rel(type, 'object-1', ME), stranger)).toEqual(allowed);
    });
  });

  describe.each([
    ['organization-device', 'organization'],
    ['campaign-device', 'campaign'],
  ] as const)('%s', (type, holder) => {
    const manager = MANAGER[holder];

    it.each([['device-owner'], ['device-administrator']] as const)(
      'is created by a manager of the %s who is also the device %s',
      (deviceRole) => {
        expect(mayCreate(rel(type), facts({ onReferrer: [manager], onReferent: [deviceRole] }))).toEqual(allowed);
      },
    );

    it.each([
      ['a manager who only uses the device', [manager], ['device-user']],
      ['a manager with no role on the device', [manager], []],
      ['the device owner who is an ordinary member', [PLAIN_USER[holder]], ['device-owner']],
      ['the device owner alone', [], ['device-owner']],
    ] as const)('is not created by %s', (_who, onReferrer, onReferent) => {
      expect(mayCreate(rel(type), facts({ onReferrer, onReferent }))).toEqual(
        denied(MESSAGES.relationDeviceManagerRequired(holder)),
      );
    });

    it.each([
      ['a manager of the holder alone', [manager], []],
      ['the device owner alone', [], ['device-owner']],
      ['a device administrator alone', [], ['device-administrator']],
    ] as const)('is deleted by %s', (_who, onReferrer, onReferent) => {
      expect(mayDelete(rel(type), facts({ onReferrer, onReferent }))).toEqual(allowed);
    });

    it.each([
      ['an ordinary member of the holder', [PLAIN_USER[holder]], []],
      ['a device user', [], ['device-user']],
    ] as const)('is not deleted by %s', (_who, onReferrer, onReferent) => {
      expect(mayDelete(rel(type), facts({ onReferrer, onReferent }))).toEqual(
        denied(MESSAGES.relationDeviceRemovalRequired(holder)),
      );
    });
  });

  describe.each(['device-user', 'device-administrator'] as const)('%s', (type) => {
    it('the device owner adds and removes it', () => {
      const owner = facts({ onReferrer: ['device-owner'] });
      expect(mayCreate(rel(type), owner)).toEqual(allowed);
      expect(mayDelete(rel(type), owner)).toEqual(allowed);
    });

    it('an administrator of the device may not (only the owner)', () => {
      const admin = facts({ onReferrer: ['device-administrator'] });
      expect(mayCreate(rel(type), admin)).toEqual(denied(MESSAGES.relationOwnerRequired));
      expect(mayDelete(rel(type), admin)).toEqual(denied(MESSAGES.relationOwnerRequired));
    });

    it('the holder may leave', () => {
      expect(mayDelete(rel(type, 'device-1', ME), stranger)).toEqual(allowed);
    });
  });

  describe('device-owner', () => {
    it('only staff create or delete it, not even the current owner', () => {
      const owner = facts({ onReferrer: ['device-owner'] });
      expect(mayCreate(rel('device-owner'), owner)).toEqual(denied(MESSAGES.relationStaffOnly('device-owner')));
      expect(mayDelete(rel('device-owner'), owner)).toEqual(denied(MESSAGES.relationStaffOnly('device-owner')));
    });

    it('an owner may not leave: ownership changes by transfer', () => {
      expect(mayDelete(rel('device-owner', 'device-1', ME), facts({ onReferrer: ['device-owner'] })).allowed).toBe(
        false,
      );
    });
  });

  describe.each(['inviter-contact', 'inviter-invite'] as const)('%s', (type) => {
    it('is created by the inviter (the referrer) only', () => {
      expect(mayCreate(rel(type, ME, 'someone'), stranger)).toEqual(allowed);
      expect(mayCreate(rel(type, 'someone', 'other'), stranger)).toEqual(denied(MESSAGES.relationInviterOnly));
    });

    it('is deleted by the inviter or the invited, nobody else', () => {
      expect(mayDelete(rel(type, ME, 'someone'), stranger)).toEqual(allowed);
      expect(mayDelete(rel(type, 'someone', ME), stranger)).toEqual(allowed);
      expect(mayDelete(rel(type, 'someone', 'other'), stranger)).toEqual(denied(MESSAGES.relationInviterOrContact));
    });
  });

  it('the invited contact may not create the relation on behalf of the inviter', () => {
    expect(mayCreate(rel('inviter-contact', 'someone', ME), stranger).allowed).toBe(false);
  });
});

describe('role changes', () => {
  it.each([
    ['organization-user', 'organization-manager', true],
    ['organization-manager', 'organization-participant', true],
    ['campaign-participant', 'campaign-manager', true],
    ['device-user', 'device-administrator', true],
    ['device-administrator', 'device-user', true],
    ['organization-user', 'organization-user', false],
    ['organization-user', 'campaign-user', false],
    ['campaign-user', 'device-user', false],
    ['device-administrator', 'device-owner', false],
    ['device-owner', 'device-administrator', false],
    ['organization-device', 'campaign-device', false],
    ['inviter-contact', 'inviter-invite', false],
  ] as const)('%s → %s is a role change: %s', (from, to, expected) => {
    expect(isRoleChange(from, to)).toBe(expected);
  });

  it('refuses a change across families, even to staff', () => {
    expect(mayChangeType(rel('organization-user'), 'campaign-user', staff)).toEqual(
      denied(MESSAGES.relationNotInFamily('organization-user', 'campaign-user')),
    );
    expect(mayChangeType(rel('device-administrator'), 'device-owner', staff).allowed).toBe(false);
  });

  it('lets a manager promote a member and the device owner promote a user', () => {
    expect(
      mayChangeType(rel('organization-user'), 'organization-manager', facts({ onReferrer: ['organization-manager'] })),
    ).toEqual(allowed);
    expect(mayChangeType(rel('device-user'), 'device-administrator', facts({ onReferrer: ['device-owner'] }))).toEqual(
      allowed,
    );
  });

  it('does not let a device administrator promote another user', () => {
    expect(
      mayChangeType(rel('device-user'), 'device-administrator', facts({ onReferrer: ['device-administrator'] })),
    ).toEqual(denied(MESSAGES.relationOwnerRequired));
  });

  it('does not let a member promote themself, though they may leave', () => {
    const mine = rel('campaign-user', 'campaign-1', ME);
    expect(mayChangeType(mine, 'campaign-manager', facts({ onReferrer: ['campaign-user'] }))).toEqual(
      denied(MESSAGES.relationSelfGrant),
    );
  });

  it('needs both halves: the delete of the old role and the create of the new one', () => {
    // An organization user may leave (delete half allowed) but may not create the new role for themself.
    const mine = rel('organization-user', 'org-1', ME);
    expect(mayDelete(mine, stranger)).toEqual(allowed);
    expect(mayChangeType(mine, 'organization-participant', stranger).allowed).toBe(false);
    // Someone else's role: the delete half is refused first, with its own reason.
    expect(mayChangeType(rel('organization-user'), 'organization-manager', stranger)).toEqual(
      denied(MESSAGES.relationManagerRequired('organization')),
    );
  });
});
