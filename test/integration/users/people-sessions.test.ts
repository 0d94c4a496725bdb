import { MESSAGES } from '../../../shared/messages';
import { freshUser, nextSecond, signInFresh } from '../../support/people';
import { apiAs, apiRejection, subOf, tokenOf } from '../../support/stack';

/**
 * The API is the authority on sessions: disabling, signing out everywhere and changing a staff group take effect
 * on the very next request with a token issued before, through the real gateway and identity provider.
 */

const users = (token?: string) => apiAs('users', token);
const asAdmin = async () => users(await tokenOf('admin@example.com'));
const asEmployee = async () => users(await tokenOf('employee@example.com'));

/** A cheap signed-in call: the caller's own groups. */
const probe = (token: string, id: string) => users(token).listGroupsForUser({ params: { id } });

describe('disable and enable', () => {
  it("refuse a disabled person's existing token at once, and accept it again after enable", async () => {
    const person = await freshUser();
    await expect(probe(person.token, person.id)).resolves.toMatchObject({ items: [] });

    const employee = await asEmployee();
    await expect(employee.disableUser({ params: { id: person.id } })).resolves.toEqual({ id: person.id, done: true });
    const refused = await apiRejection(probe(person.token, person.id));
    expect(refused.status).toBe(401);
    expect(refused.message).toBe(MESSAGES.accountDisabled);
    // The identity provider refuses the sign-in too.
    await expect(signInFresh(person.email)).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    expect((await (await asAdmin()).getUser({ params: { id: person.id } })).enabled).toBe(false);

    await employee.enableUser({ params: { id: person.id } });
    await expect(probe(person.token, person.id)).resolves.toMatchObject({ items: [] });
    await expect(signInFresh(person.email)).resolves.toEqual(expect.any(String));
  });

  it('refuse disabling yourself, and an Employee disabling an Administrator', async () => {
    const admin = await freshUser({ groups: ['Administrators'] });
    const self = await apiRejection(users(admin.token).disableUser({ params: { id: admin.id } }));
    expect([self.status, self.message]).toEqual([400, MESSAGES.cannotDisableSelf]);

    const byEmployee = await apiRejection((await asEmployee()).disableUser({ params: { id: admin.id } }));
    expect([byEmployee.status, byEmployee.message]).toEqual([403, MESSAGES.administratorNeedsAdministrator]);
    await expect(probe(admin.token, admin.id)).resolves.toBeDefined();
  });
});

describe('admin global sign-out', () => {
  it('refuses every token authenticated before it at once, while a new sign-in works', async () => {
    const person = await freshUser();
    const otherDevice = await signInFresh(person.email);
    await nextSecond();

    await expect((await asEmployee()).adminUserGlobalSignOut({ params: { id: person.id } })).resolves.toEqual({
      id: person.id,
      done: true,
    });
    for (const token of [person.token, otherDevice]) {
      const refused = await apiRejection(probe(token, person.id));
      expect([refused.status, refused.message]).toEqual([401, MESSAGES.sessionSignedOut]);
    }
    const fresh = await signInFresh(person.email);
    await expect(probe(fresh, person.id)).resolves.toBeDefined();
  });

  it('lets a person sign themself out everywhere, but nobody else', async () => {
    const person = await freshUser();
    const other = await freshUser();
    const refused = await apiRejection(users(other.token).adminUserGlobalSignOut({ params: { id: person.id } }));
    expect([refused.status, refused.message]).toEqual([403, MESSAGES.selfOrStaffOnly]);

    await nextSecond();
    await users(person.token).adminUserGlobalSignOut({ params: { id: person.id } });
    expect((await apiRejection(probe(person.token, person.id))).status).toBe(401);
  });
});

describe('group changes', () => {
  it('removing a staff group takes effect on the very next request with the old token', async () => {
    const staff = await freshUser({ groups: ['Employees'] });
    await expect(users(staff.token).listUsers({ query: { limit: 1 } })).resolves.toHaveProperty('items');

    const admin = await asAdmin();
    const adminId = await subOf('admin@example.com');
    await admin.removeUserFromGroup({ params: { id: staff.id, group: 'Employees', actor: adminId } });

    const refused = await apiRejection(users(staff.token).listUsers({ query: { limit: 1 } }));
    expect(refused.status).toBe(403);
    expect((await admin.getUser({ params: { id: staff.id } })).groups).toEqual([]);
    expect((await admin.getUserRecord({ params: { id: staff.id } })).rolesList).toEqual([]);
  });

  it('granting a group takes effect on the next request with the old token too', async () => {
    const person = await freshUser({ groups: ['Authenticated_users'] });
    expect((await apiRejection(users(person.token).listUsers({ query: { limit: 1 } }))).status).toBe(403);
    const admin = await asAdmin();
    const adminId = await subOf('admin@example.com');
    await admin.addUserToGroup({ params: { id: person.id, group: 'Employees', actor: adminId } });
    await expect(users(person.token).listUsers({ query: { limit: 1 } })).resolves.toHaveProperty('items');
    // Cleaned up so the person is no staff member in later listings.
    await admin.removeUserFromGroup({ params: { id: person.id, group: 'Employees', actor: adminId } });
  });

  it('an Employee cannot grant or remove Administrators or Employees, but may grant other groups', async () => {
    const person = await freshUser();
    const employee = await asEmployee();
    const employeeId = await subOf('employee@example.com');
    for (const group of ['Administrators', 'Employees'] as const) {
      const refused = await apiRejection(
        employee.addUserToGroup({ params: { id: person.id, group, actor: employeeId } }),
      );
      expect([refused.status, refused.message]).toEqual([403, MESSAGES.staffRoleNeedsAdministrator]);
    }
    await employee.addUserToGroup({ params: { id: person.id, group: 'Distributors', actor: employeeId } });
    expect((await employee.listGroupsForUser({ params: { id: person.id } })).items.map((g) => g.GroupName)).toEqual([
      'Distributors',
    ]);
    await employee.removeUserFromGroup({ params: { id: person.id, group: 'Distributors', actor: employeeId } });
    expect((await employee.listGroupsForUser({ params: { id: person.id } })).items).toEqual([]);
  });

  it('refuses an actor in the path other than the caller', async () => {
    const person = await freshUser();
    const employee = await freshUser({ groups: ['Employees'] });
    const refused = await apiRejection(
      (await asAdmin()).addUserToGroup({ params: { id: person.id, group: 'Distributors', actor: employee.id } }),
    );
    expect([refused.status, refused.message]).toEqual([403, MESSAGES.actorMismatch]);
  });
});

describe('names in paths', () => {
  it('"undefined" is a 400, and an unknown user is a 404 "missing"', async () => {
    const admin = await asAdmin();
    const undefinedName = await apiRejection(admin.getUser({ params: { id: 'undefined' } }));
    expect(undefinedName.status).toBe(400);
    expect(undefinedName.message).toContain(MESSAGES.accountNameUndefined);

    // One call at a time: a refusal made before its turn to be awaited would be an unhandled rejection.
    for (const call of [
      () => admin.getUser({ params: { id: 'no-such-person' } }),
      () => admin.getUserRecord({ params: { id: 'no-such-person' } }),
      () => admin.disableUser({ params: { id: 'no-such-person' } }),
      () => admin.adminUserGlobalSignOut({ params: { id: 'no-such-person' } }),
    ]) {
      const missing = await apiRejection(call());
      expect([missing.status, missing.message]).toEqual([404, MESSAGES.userMissing('no-such-person')]);
    }
  });

  it('a person reads themself but not another; staff read anyone', async () => {
    const person = await freshUser();
    const other = await freshUser();
    await expect(users(person.token).getUser({ params: { id: person.id } })).resolves.toMatchObject({
      id: person.id,
      email: person.email,
    });
    const refused = await apiRejection(users(person.token).getUser({ params: { id: other.id } }));
    expect([refused.status, refused.message]).toEqual([403, MESSAGES.selfOrStaffOnly]);
    await expect((await asEmployee()).getUser({ params: { id: other.id } })).resolves.toMatchObject({ id: other.id });
  });
});
