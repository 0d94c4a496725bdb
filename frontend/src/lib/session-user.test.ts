import { groupsClaim, sessionUserFrom, userInfoOf } from './session-user';

describe('groupsClaim', () => {
  it('reads cognito:groups and ignores anything that is not a string', () => {
    expect(groupsClaim({ 'cognito:groups': ['Employees', 3, 'Administrators'] })).toEqual([
      'Employees',
      'Administrators',
    ]);
  });

  it('is empty without the claim', () => {
    expect(groupsClaim({})).toEqual([]);
    expect(groupsClaim({ 'cognito:groups': 'Employees' })).toEqual([]);
  });
});

describe('sessionUserFrom', () => {
  it('takes the id, groups and username from the access token and the e-mail from the ID token', () => {
    expect(
      sessionUserFrom(
        { sub: 's-1', username: 'u-1', 'cognito:groups': ['Employees'] },
        { email: 'ada@example.com', 'cognito:username': 'u-1' },
      ),
    ).toEqual({ id: 's-1', username: 'u-1', email: 'ada@example.com', groups: ['Employees'] });
  });

  it('falls back to the subject when nothing else names the user', () => {
    expect(sessionUserFrom({ sub: 's-1' }, undefined)).toEqual({
      id: 's-1',
      username: 's-1',
      email: undefined,
      groups: [],
    });
  });
});

describe('userInfoOf (spec §8: the user info of an expired session)', () => {
  it("logs 'Session is expired. User needs to sign in again.' and answers null", () => {
    const logged: string[] = [];
    expect(userInfoOf({ status: 'expired' }, (m) => logged.push(m))).toBeNull();
    expect(logged).toEqual(['Session is expired. User needs to sign in again.']);
  });

  it("answers a signed-in session's user, and null for a guest without logging", () => {
    const logged: string[] = [];
    const user = { id: 'u1', username: 'u1', groups: [] };
    expect(userInfoOf({ status: 'signed-in', user }, (m) => logged.push(m))).toBe(user);
    expect(userInfoOf({ status: 'guest' }, (m) => logged.push(m))).toBeNull();
    expect(logged).toEqual([]);
  });
});
