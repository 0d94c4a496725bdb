import type { Relation } from '../../../shared/contracts/relations';
import { type RelationType, relationId } from '../../../shared/relations/relation-types';
import { callerOf } from '../../../test/support/callers';
import { createPeopleNames, LOOKUP_LIMIT, type NamedPerson, seesSignIn, sightOf, tiesOf } from './people-names';

const rel = (type: RelationType, referrerId: string, referentId: string): Relation => ({
  id: relationId(type, referrerId, referentId),
  type,
  referrerId,
  referentId,
  created: 1,
});

const RELATIONS: Relation[] = [
  rel('device-owner', 'dev-1', 'owner'),
  rel('device-user', 'dev-1', 'member'),
  rel('organization-manager', 'org-1', 'manager'),
  rel('organization-user', 'org-1', 'member'),
  rel('campaign-participant', 'camp-1', 'stranger-to-org'),
  rel('inviter-contact', 'inviter', 'contact'),
  rel('campaign-device', 'camp-1', 'dev-1'),
];

const PEOPLE: NamedPerson[] = [
  { id: 'owner', email: 'owner@example.com', givenName: 'Olga', familyName: 'Owner' },
  { id: 'member', email: 'member@example.com', displayName: 'Mo', signInMethods: ['NorthsideAir', 'password'] },
  { id: 'manager', email: 'manager@example.com', givenName: 'Mia' },
  { id: 'stranger-to-org', email: 's@example.com', givenName: 'Sam' },
  { id: 'inviter', email: 'inviter@example.com', givenName: 'Ines' },
  { id: 'contact', email: 'contact@example.com', signInMethods: ['Campus'] },
  { id: 'loner', email: 'loner@example.com', givenName: 'Lou' },
];

const ties = (id: string) =>
  tiesOf(
    id,
    RELATIONS.filter((r) => r.referentId === id),
    RELATIONS.filter((r) => r.referrerId === id),
  );
const viewer = (id: string, staff = false) => ({ id, staff, ties: ties(id) });

describe('who sees whose name (sightOf)', () => {
  it('gives the name, not the e-mail, to people sharing a device', () => {
    expect(sightOf(viewer('owner'), 'member', ties('member').objects)).toBe('name');
    expect(sightOf(viewer('member'), 'owner', ties('owner').objects)).toBe('name');
  });

  it("gives a manager of a shared organization the member's e-mail, and the member only the manager's name", () => {
    expect(sightOf(viewer('manager'), 'member', ties('member').objects)).toBe('name-and-email');
    expect(sightOf(viewer('member'), 'manager', ties('manager').objects)).toBe('name');
  });

  it('gives nothing to people who share nothing, even when their objects are linked (a campaign holding a device)', () => {
    expect(sightOf(viewer('loner'), 'member', ties('member').objects)).toBe('nothing');
    expect(sightOf(viewer('owner'), 'stranger-to-org', ties('stranger-to-org').objects)).toBe('nothing');
    expect(sightOf(viewer('owner'), 'manager', ties('manager').objects)).toBe('nothing');
  });

  it('lets an inviter see the address they typed, and the invited person the inviter’s name', () => {
    expect(sightOf(viewer('inviter'), 'contact', ties('contact').objects)).toBe('name-and-email');
    expect(sightOf(viewer('contact'), 'inviter', ties('inviter').objects)).toBe('name');
  });

  it('shows everything to oneself and to staff', () => {
    expect(sightOf(viewer('loner'), 'loner', ties('loner').objects)).toBe('name-and-email');
    expect(sightOf(viewer('loner', true), 'member', ties('member').objects)).toBe('name-and-email');
  });
});

describe('who sees how a person signs in (seesSignIn)', () => {
  it('shows it to a manager of an organization the person belongs to, not to its other members', () => {
    expect(seesSignIn(viewer('manager'), 'member', ties('member').objects)).toBe(true);
    expect(seesSignIn(viewer('member'), 'manager', ties('manager').objects)).toBe(false);
  });

  it('shows it to nobody else who may see the name or even the e-mail: device sharers, inviters, strangers', () => {
    expect(seesSignIn(viewer('owner'), 'member', ties('member').objects)).toBe(false);
    expect(seesSignIn(viewer('inviter'), 'contact', ties('contact').objects)).toBe(false);
    expect(seesSignIn(viewer('loner'), 'member', ties('member').objects)).toBe(false);
  });

  it('shows it to oneself and to staff', () => {
    expect(seesSignIn(viewer('loner'), 'loner', ties('loner').objects)).toBe(true);
    expect(seesSignIn(viewer('loner', true), 'contact', ties('contact').objects)).toBe(true);
  });

  it('needs the manager role in an organization: a campaign manager sees the e-mail only', () => {
    const campaignTies = tiesOf('lead', [rel('campaign-manager', 'camp-1', 'lead')], []);
    const lead = { id: 'lead', staff: false, ties: campaignTies };
    expect(sightOf(lead, 'stranger-to-org', ties('stranger-to-org').objects)).toBe('name-and-email');
    expect(seesSignIn(lead, 'stranger-to-org', ties('stranger-to-org').objects)).toBe(false);
  });
});

const namesOver = (counter = new Map<string, number>()) =>
  createPeopleNames({
    relationsTo: async (id) => RELATIONS.filter((r) => r.referentId === id),
    contactsFrom: async (id) => RELATIONS.filter((r) => r.referrerId === id && r.type === 'inviter-contact'),
    users: {
      getMany: async (ids) => PEOPLE.filter((p) => ids.includes(p.id)),
      findIdsByEmail: async (email) => PEOPLE.filter((p) => p.email === email).map((p) => p.id),
    },
    lookups: {
      count: async (userId, windowStart, _ms, limit) => {
        const key = `${userId}#${windowStart}`;
        const n = counter.get(key) ?? 0;
        if (n >= limit) return false;
        counter.set(key, n + 1);
        return true;
      },
    },
    signInProviders: [{ name: 'NorthsideAir', label: 'Northside Air Network' }, { name: 'Campus' }],
    // Away from an hour boundary.
    now: () => Date.UTC(2026, 0, 5, 10, 20),
  });

describe('names of many people', () => {
  it('answers the visible ones, and leaves unknown and unshared ids out alike', async () => {
    const { people } = await namesOver().names(callerOf('owner'), ['member', 'loner', 'nobody', 'member', 'owner']);
    expect(people).toEqual([
      { id: 'owner', name: 'Olga Owner', email: 'owner@example.com', signsInWith: ['E-mail and password'] },
      { id: 'member', name: 'Mo' },
    ]);
  });

  it("answers an organization's manager how each member signs in, by the providers' labels", async () => {
    const { people } = await namesOver().names(callerOf('manager'), ['member', 'manager']);
    expect(people).toEqual([
      {
        id: 'member',
        name: 'Mo',
        email: 'member@example.com',
        signsInWith: ['E-mail and password', 'Northside Air Network'],
      },
      { id: 'manager', name: 'Mia', email: 'manager@example.com', signsInWith: ['E-mail and password'] },
    ]);
  });

  it('answers staff every name with its e-mail', async () => {
    const { people } = await namesOver().names(callerOf('loner', ['Employees']), ['member', 'contact']);
    expect(people).toEqual([
      {
        id: 'member',
        name: 'Mo',
        email: 'member@example.com',
        signsInWith: ['E-mail and password', 'Northside Air Network'],
      },
      // A provider without a label is shown by its name.
      { id: 'contact', email: 'contact@example.com', signsInWith: ['Campus'] },
    ]);
  });
});

describe('the exact-e-mail look-up', () => {
  it('finds a person the caller shares something with, and answers the same nothing for a stranger and for no account', async () => {
    const names = namesOver();
    await expect(names.findByEmail(callerOf('manager'), 'member@example.com')).resolves.toEqual({
      person: {
        id: 'member',
        name: 'Mo',
        email: 'member@example.com',
        signsInWith: ['E-mail and password', 'Northside Air Network'],
      },
    });
    await expect(names.findByEmail(callerOf('owner'), 'loner@example.com')).resolves.toEqual({});
    await expect(names.findByEmail(callerOf('owner'), 'no-account@example.com')).resolves.toEqual({});
  });

  it(`allows ${LOOKUP_LIMIT} look-ups an hour per person, then answers 429 with Retry-After; staff are not counted`, async () => {
    const names = namesOver();
    for (let i = 0; i < LOOKUP_LIMIT; i++) await names.findByEmail(callerOf('owner'), `x${i}@example.com`);
    const refusal = await names.findByEmail(callerOf('owner'), 'member@example.com').catch((e: unknown) => e);
    expect(refusal).toMatchObject({ status: 429, headers: { 'retry-after': String(40 * 60) } });
    // Another person's window is their own.
    await expect(names.findByEmail(callerOf('member'), 'owner@example.com')).resolves.toEqual({
      person: { id: 'owner', name: 'Olga Owner' },
    });
    for (let i = 0; i <= LOOKUP_LIMIT; i++)
      await names.findByEmail(callerOf('staffer', ['Employees']), 'x@example.com');
  });
});
