import { personName } from './person-name';

describe('personName', () => {
  it('prefers the display name, then first and last name, then e-mail, then id', () => {
    expect(personName({ id: 'u1', displayName: ' Ada ', givenName: 'A', familyName: 'B' })).toBe('Ada');
    expect(personName({ id: 'u1', givenName: 'Ada', familyName: 'Admin', email: 'a@x.com' })).toBe('Ada Admin');
    expect(personName({ id: 'u1', familyName: 'Admin' })).toBe('Admin');
    expect(personName({ id: 'u1', email: 'a@x.com' })).toBe('a@x.com');
    expect(personName({ id: 'u1' })).toBe('u1');
  });

  it("falls back to the record's display name when the identity has none", () => {
    expect(personName({ id: 'u1', email: 'a@x.com' }, { displayName: 'From record' })).toBe('From record');
  });
});
