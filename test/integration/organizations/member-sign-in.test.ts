import { DEMO_IDENTITY_PROVIDER } from '../../../shared/auth/demo-identity-provider';
import { ORGANIZATION_ROLES } from '../../../shared/contracts/organizations';
import { freshUser } from '../../support/people';
import { seedRelation } from '../../support/relations';
import { apiAs, uniqueId } from '../../support/stack';
import { federatedTokens, ROSA } from '../identity/federation-support';

/**
 * Issue 21: an organization's manager sees how each member signs in. Through the real identity layer (the demo
 * provider), its triggers and the gateway: a federated sign-up, a provider's login linked to a password account, and
 * a password account, then the member list's two reads as the web app's members panel makes them.
 */

const memberList = async (token: string, orgId: string) => {
  const page = await apiAs('relations', token).listByParameters({
    body: { parameters: [{ typeName: 'referrer', id: orgId, typeArray: [...ORGANIZATION_ROLES] }], limit: 50 },
  });
  const ids = page.items.map((relation) => relation.referentId);
  const { people } = await apiAs('users', token).peopleNames({ body: { ids } });
  return { ids, people: new Map(people.map((person) => [person.id, person])) };
};

describe("an organization's member list names how each member signs in", () => {
  it('shows the manager the provider’s label, password, or both, and the other members none of it', async () => {
    // Rosa has no platform account: her first sign-in makes one (PostConfirmation). April's verified e-mail is a
    // password account's: the login is linked to it, and the sign-in through it is where that is recorded.
    const rosa = await federatedTokens(ROSA);
    const april = await federatedTokens('approved@example.com');
    const [manager, member] = await Promise.all([
      freshUser({ prefix: 'sign-in-manager' }),
      freshUser({ prefix: 'sign-in-member' }),
    ]);
    const orgId = uniqueId('sign-in-org');
    await seedRelation('organization-manager', orgId, manager!.id);
    for (const id of [rosa.access.sub, april.access.sub, member!.id])
      await seedRelation('organization-user', orgId, id);

    const seen = await memberList(manager!.token, orgId);
    expect(seen.ids).toEqual(expect.arrayContaining([manager!.id, rosa.access.sub, april.access.sub, member!.id]));
    const label = DEMO_IDENTITY_PROVIDER.label;
    expect(seen.people.get(rosa.access.sub)?.signsInWith).toEqual([label]);
    expect(seen.people.get(april.access.sub)?.signsInWith).toEqual(['E-mail and password', label]);
    expect(seen.people.get(member!.id)?.signsInWith).toEqual(['E-mail and password']);

    // A member sees the others' names, as before, but not how they sign in.
    const asMember = await memberList(member!.token, orgId);
    expect(asMember.people.get(rosa.access.sub)).toMatchObject({ name: 'Rosa Rivera' });
    expect(asMember.people.get(rosa.access.sub)?.signsInWith).toBeUndefined();
    expect(asMember.people.get(april.access.sub)?.signsInWith).toBeUndefined();
    expect(asMember.people.get(manager!.id)?.signsInWith).toBeUndefined();
  });
});
