import { LOOKUP_LIMIT } from '../../../functions/users/domain/people-names';
import { PEOPLE_NAMES_MAX } from '../../../shared/contracts/users';
import { MESSAGES } from '../../../shared/messages';
import { nextHourStart, wellInsidePeriod } from '../../support/clock';
import { freshUser } from '../../support/people';
import { seedRelation } from '../../support/relations';
import { apiAs, apiRejection, areaUrl, tokenOf, uniqueId } from '../../support/stack';

/**
 * Names and the exact-e-mail look-up through the real gateway and tables (docs/users.md "Names and e-mails",
 * decision 022): who sees whose name and e-mail, and that the look-up cannot list the directory.
 */

const users = (token: string) => apiAs('users', token);
const names = async (token: string, ids: string[]) => (await users(token).peopleNames({ body: { ids } })).people;
const byId = (people: { id: string }[]) => new Map(people.map((p) => [p.id, p]));

/** A raw POST, for bodies the typed client would not send. */
const post = (token: string, path: string, body: unknown) =>
  fetch(`${areaUrl('users')}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** A device with an owner and a member; an organization with a manager and the same member; and a stranger. */
const world = async () => {
  const [owner, member, manager, stranger] = await Promise.all(
    ['owner', 'member', 'manager', 'stranger'].map((role) =>
      freshUser({ prefix: `names-${role}`, givenName: role.replace(/^./, (c) => c.toUpperCase()) }),
    ),
  );
  const deviceId = uniqueId('names-dev');
  const orgId = uniqueId('names-org');
  await seedRelation('device-owner', deviceId, owner!.id);
  await seedRelation('device-user', deviceId, member!.id);
  await seedRelation('organization-manager', orgId, manager!.id);
  await seedRelation('organization-user', orgId, member!.id);
  return { owner: owner!, member: member!, manager: manager!, stranger: stranger!, deviceId, orgId };
};

let w: Awaited<ReturnType<typeof world>>;
beforeAll(async () => {
  w = await world();
});

describe('POST /users/people/names', () => {
  it('gives a device owner the names of its members, no e-mail, and nothing of anyone else', async () => {
    const people = await names(w.owner.token, [w.member.id, w.manager.id, w.stranger.id, 'no-such-person']);
    expect(people).toEqual([{ id: w.member.id, name: `Member ${w.member.familyName}` }]);
  });

  it("gives a manager of a shared organization the member's e-mail, and the member only the manager's name", async () => {
    expect(await names(w.manager.token, [w.member.id])).toEqual([
      {
        id: w.member.id,
        name: `Member ${w.member.familyName}`,
        email: w.member.email,
        signsInWith: ['E-mail and password'],
      },
    ]);
    const seen = byId(await names(w.member.token, [w.manager.id, w.owner.id]));
    expect(seen.get(w.manager.id)).toEqual({ id: w.manager.id, name: `Manager ${w.manager.familyName}` });
    expect(seen.get(w.owner.id)).toEqual({ id: w.owner.id, name: `Owner ${w.owner.familyName}` });
  });

  it('answers a stranger exactly as it answers for ids that name nobody', async () => {
    expect(await names(w.stranger.token, [w.owner.id, w.member.id])).toEqual([]);
    expect(await names(w.stranger.token, ['nobody-1', 'nobody-2'])).toEqual([]);
  });

  it('gives staff every name with its e-mail', async () => {
    const staff = await tokenOf('employee@example.com');
    const seen = byId(await names(staff, [w.stranger.id, w.member.id]));
    expect(seen.get(w.stranger.id)).toMatchObject({ email: w.stranger.email });
    expect(seen.get(w.member.id)).toMatchObject({ email: w.member.email });
  });

  it(`refuses more than ${PEOPLE_NAMES_MAX} ids in one request`, async () => {
    const ids = Array.from({ length: PEOPLE_NAMES_MAX + 1 }, (_, i) => `id-${i}`);
    const refusal = await apiRejection(users(w.owner.token).peopleNames({ body: { ids } }));
    expect(refusal.status).toBe(400);
  });
});

describe('POST /users/people/by-email', () => {
  it('finds a person the caller shares something with by their exact address, in any case', async () => {
    const found = await users(w.owner.token).findPersonByEmail({ body: { email: w.member.email.toUpperCase() } });
    expect(found).toEqual({ person: { id: w.member.id, name: `Member ${w.member.familyName}` } });
    const asManager = await users(w.manager.token).findPersonByEmail({ body: { email: w.member.email } });
    expect(asManager.person?.email).toBe(w.member.email);
  });

  it('answers the same nothing for an account the caller shares nothing with and for an address with no account', async () => {
    const existing = await post(w.owner.token, '/people/by-email', { email: w.stranger.email });
    const missing = await post(w.owner.token, '/people/by-email', { email: `${uniqueId('nobody')}@example.com` });
    expect(existing.status).toBe(200);
    expect(missing.status).toBe(200);
    expect(await existing.text()).toBe(await missing.text());
  });

  it('refuses prefixes, wildcards and lists', async () => {
    const domain = w.member.email.split('@')[1];
    for (const body of [
      { email: w.member.email.split('@')[0] },
      { email: `*@${domain}` },
      { email: `${w.member.email.slice(0, 5)}%` },
      { email: `${w.member.email},${w.owner.email}` },
      { email: `${w.member.email} ${w.owner.email}` },
      { email: [w.member.email, w.owner.email] },
      { emails: [w.member.email] },
      [{ email: w.member.email }],
    ]) {
      const response = await post(w.owner.token, '/people/by-email', body);
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
    }
    const wildcard = await post(w.owner.token, '/people/by-email', { email: `*@${domain}` });
    expect(JSON.stringify(await wildcard.json())).toContain(MESSAGES.exactEmailOnly);
  });

  it(`allows ${LOOKUP_LIMIT} look-ups an hour per person, then 429 with Retry-After, and another person is not held`, async () => {
    const seeker = await freshUser({ prefix: 'names-seeker' });
    // The count is per clock hour: the 21 look-ups must not straddle the hour, or the last would be let through.
    await wellInsidePeriod(nextHourStart, 60_000);
    for (let i = 0; i < LOOKUP_LIMIT; i++) {
      const response = await post(seeker.token, '/people/by-email', { email: `guess-${i}@example.com` });
      expect(response.status).toBe(200);
    }
    const refused = await post(seeker.token, '/people/by-email', { email: w.member.email });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const other = await post(w.member.token, '/people/by-email', { email: w.owner.email });
    expect(other.status).toBe(200);
  }, 150_000);
});

describe('adding someone the caller cannot see: an invitation either way', () => {
  it('sends a device invite to an existing stranger as to anyone; once accepted, the owner sees their name', async () => {
    const invite = await users(w.owner.token).inviteUser({
      body: {
        type: 'device-user',
        inviterId: w.owner.id,
        inviterName: 'Owner',
        invited: { email: w.stranger.email },
        objectId: w.deviceId,
      },
    });
    expect(invite).toMatchObject({ status: 'pending', type: 'device-user', objectId: w.deviceId });
    const toNobody = await users(w.owner.token).inviteUser({
      body: {
        type: 'device-user',
        inviterId: w.owner.id,
        inviterName: 'Owner',
        invited: { email: `${uniqueId('nobody')}@example.com` },
        objectId: w.deviceId,
      },
    });
    expect(toNobody.status).toBe('pending');
    expect(await names(w.owner.token, [w.stranger.id])).toEqual([]);

    await users(w.stranger.token).updateInvite({ params: { id: invite.id }, body: { status: 'accepted' } });
    // The owner invited them: the address they typed is theirs to see.
    expect(await names(w.owner.token, [w.stranger.id])).toEqual([
      { id: w.stranger.id, name: `Stranger ${w.stranger.familyName}`, email: w.stranger.email },
    ]);
    expect(await names(w.member.token, [w.stranger.id])).toEqual([
      { id: w.stranger.id, name: `Stranger ${w.stranger.familyName}` },
    ]);
  });

  it('refuses a device invite from someone who does not own the device', async () => {
    const refusal = await apiRejection(
      users(w.member.token).inviteUser({
        body: {
          type: 'device-user',
          inviterId: w.member.id,
          inviterName: 'Member',
          invited: { email: `${uniqueId('nobody')}@example.com` },
          objectId: w.deviceId,
        },
      }),
    );
    expect(refusal.status).toBe(403);
  });
});
