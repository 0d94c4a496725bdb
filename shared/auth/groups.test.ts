import { bestPrecedence, FALLBACK_PRECEDENCE, hasRole, isStaff, requiredPrecedence } from './groups';

describe('group precedence (spec §6)', () => {
  it('takes the lowest precedence number among the user groups', () => {
    expect(bestPrecedence(['Authenticated_users', 'Employees'])).toBe(2);
  });

  it('falls back to 100 when the user has no group', () => {
    expect(bestPrecedence([])).toBe(FALLBACK_PRECEDENCE);
    expect(FALLBACK_PRECEDENCE).toBe(100);
  });

  it('ignores groups it does not know when ranking the user', () => {
    expect(bestPrecedence(['SomethingElse'])).toBe(100);
  });

  it('grants access at or above the required role and denies below it', () => {
    expect(hasRole(['Administrators'], 'Employees')).toBe(true);
    expect(hasRole(['Employees'], 'Employees')).toBe(true);
    expect(hasRole(['Distributors'], 'Employees')).toBe(false);
    expect(hasRole([], 'None')).toBe(false);
  });

  it('treats an unknown required group as precedence 0, so nobody holds it', () => {
    expect(requiredPrecedence('Superusers')).toBe(0);
    expect(hasRole(['Administrators'], 'Superusers')).toBe(false);
  });

  it('counts Employees and Administrators as staff only', () => {
    expect(isStaff(['Administrators'])).toBe(true);
    expect(isStaff(['Employees'])).toBe(true);
    expect(isStaff(['Distributors', 'Approved_users'])).toBe(false);
  });
});
