import type { Caller } from '../../../shared/auth/verify-token';
import { MESSAGES } from '../../../shared/messages';
import { accountWorld } from '../../../test/support/account-memory';
import { callerOf } from '../../../test/support/callers';
import { rejectionOf } from '../../../test/support/rejection';
import { BadRequest, Conflict, Forbidden, NotFound, ServiceUnavailable } from '../../_shared/errors';
import { createInvites, type NewInvite } from './invites';

const staff = callerOf('boss', ['Employees']);
/** Access tokens carry no e-mail: the use cases read the person's record for it. */
const ann = callerOf('ann');
const bob = callerOf('bob');
const carol = callerOf('carol');

const setUp = () => {
  const world = accountWorld();
  for (const id of ['ann', 'bob', 'carol']) world.addPerson(id);
  world.addPerson('boss', 'boss@example.test', ['Employees']);
  return { world, invites: createInvites(world.invitesDeps) };
};

const contactInvite = (inviterId: string, email: string): NewInvite => ({
  type: 'inviter-contact',
  inviterId,
  inviterName: inviterId.toUpperCase(),
  invited: { email, name: 'Friend' },
  message: 'Join me',
});

describe('sending an invite', () => {
  it('stores it pending, records inviter-invite and e-mails a link to {WEB_ORIGIN}/invites/{id}', async () => {
    const { world, invites } = setUp();
    const invite = await invites.create(ann, contactInvite('ann', 'bob@example.test'));
    expect(invite).toMatchObject({
      type: 'inviter-contact',
      inviterId: 'ann',
      inviterName: 'ANN',
      invited: { email: 'bob@example.test', name: 'Friend' },
      message: 'Join me',
      status: 'pending',
      created: world.now(),
    });
    expect(world.invites.get(invite.id)).toEqual(invite);
    expect(world.relations.get(`inviter-invite#ann#${invite.id}`)).toMatchObject({ referrerId: 'ann' });
    expect(world.bumps).toEqual(['ann']);
    expect(world.mail).toEqual([
      {
        to: ['bob@example.test'],
        subject: MESSAGES.inviteEmailSubject('ANN'),
        text: expect.stringContaining(`https://app.example.test/invites/${invite.id}`),
      },
    ]);
    expect(world.mail[0]?.text).toContain('Join me');
  });

  it('refuses another inviterId (403), an object on a contact invite and none on a membership invite (400)', async () => {
    const { invites } = setUp();
    const mismatch = await rejectionOf(invites.create(bob, contactInvite('ann', 'x@example.test')));
    expect(mismatch).toBeInstanceOf(Forbidden);
    expect(mismatch.message).toBe(MESSAGES.actorMismatch);
    const withObject = await rejectionOf(
      invites.create(ann, { ...contactInvite('ann', 'x@example.test'), objectId: 'o' }),
    );
    expect(withObject).toBeInstanceOf(BadRequest);
    expect(withObject.message).toBe(MESSAGES.inviteNoObject);
    const without = await rejectionOf(
      invites.create(ann, { ...contactInvite('ann', 'x@example.test'), type: 'organization-user' }),
    );
    expect(without).toBeInstanceOf(BadRequest);
    expect(without.message).toBe(MESSAGES.inviteObjectRequired('organization-user'));
  });

  it('a membership invite needs the right to add members there now (a manager, or staff)', async () => {
    const { world, invites } = setUp();
    world.relate('organization-user', 'org-1', 'ann');
    const invite = { ...contactInvite('ann', 'x@example.test'), type: 'organization-user' as const, objectId: 'org-1' };
    const refused = await rejectionOf(invites.create(ann, invite));
    expect(refused).toBeInstanceOf(Forbidden);
    expect(refused.message).toBe(MESSAGES.relationManagerRequired('organization'));
    world.relate('organization-manager', 'org-1', 'ann');
    await expect(invites.create(ann, invite)).resolves.toMatchObject({ objectId: 'org-1' });
    await expect(
      invites.create(staff, { ...invite, inviterId: 'boss', type: 'campaign-participant', objectId: 'camp-1' }),
    ).resolves.toMatchObject({ objectId: 'camp-1' });
  });

  it('is taken back whole when the e-mail cannot be sent (503): no invite, no relation', async () => {
    const { world, invites } = setUp();
    world.fail('mailer.send');
    const error = await rejectionOf(invites.create(ann, contactInvite('ann', 'bob@example.test')));
    expect(error).toBeInstanceOf(ServiceUnavailable);
    expect(world.invites.size).toBe(0);
    expect([...world.relations.values()]).toEqual([]);
  });
});

describe('answering an invite', () => {
  it('accepting creates inviter-contact and the membership, raising both versions; a retry changes nothing', async () => {
    const { world, invites } = setUp();
    world.relate('campaign-manager', 'camp-1', 'ann');
    const invite = await invites.create(ann, {
      ...contactInvite('ann', 'BOB@example.test'),
      type: 'campaign-user',
      objectId: 'camp-1',
    });
    world.bumps.length = 0;
    const accepted = await invites.update(bob, invite.id, { status: 'accepted' });
    expect(accepted).toMatchObject({ status: 'accepted', acceptedBy: 'bob' });
    expect(world.relations.get('inviter-contact#ann#bob')).toMatchObject({ createdBy: 'ann' });
    expect(world.relations.get('campaign-user#camp-1#bob')).toBeDefined();
    expect(new Set(world.bumps)).toEqual(new Set(['ann', 'bob']));
    // Neither type is notified (spec §6 names device owners, administrators and organization devices).
    expect(world.events).toEqual([]);
    await expect(invites.update(bob, invite.id, { status: 'accepted' })).resolves.toEqual(accepted);
  });

  it('a failure part-way is finished by a retry (the relations are created idempotently)', async () => {
    const { world, invites } = setUp();
    const invite = await invites.create(ann, contactInvite('ann', 'bob@example.test'));
    world.fail('invites.save');
    await expect(invites.update(bob, invite.id, { status: 'accepted' })).rejects.toThrow('(test)');
    expect(world.relations.has('inviter-contact#ann#bob')).toBe(true);
    await expect(invites.update(bob, invite.id, { status: 'accepted' })).resolves.toMatchObject({ status: 'accepted' });
  });

  it('only the invited person answers; a non-pending invite is a 409; the inviter must still be able to grant', async () => {
    const { world, invites } = setUp();
    world.relate('organization-manager', 'org-1', 'ann');
    const invite = await invites.create(ann, {
      ...contactInvite('ann', 'bob@example.test'),
      type: 'organization-participant',
      objectId: 'org-1',
    });
    const other = await rejectionOf(invites.update(carol, invite.id, { status: 'accepted' }));
    expect(other).toBeInstanceOf(Forbidden);
    expect(other.message).toBe(MESSAGES.inviteNotForYou);
    // An id token's e-mail claim is taken as it is.
    const carolWithBobsMail: Caller = { ...carol, email: 'carol@example.test' };
    expect(await rejectionOf(invites.update(carolWithBobsMail, invite.id, { status: 'declined' }))).toBeInstanceOf(
      Forbidden,
    );

    world.relations.delete('organization-manager#org-1#ann');
    const lost = await rejectionOf(invites.update(bob, invite.id, { status: 'accepted' }));
    expect(lost).toBeInstanceOf(Conflict);
    expect(lost.message).toBe(MESSAGES.inviteNoLongerGrantable('organization'));
    expect(world.relations.has('organization-participant#org-1#bob')).toBe(false);

    await invites.update(bob, invite.id, { status: 'declined' });
    const notPending = await rejectionOf(invites.update(bob, invite.id, { status: 'accepted' }));
    expect(notPending).toBeInstanceOf(Conflict);
    expect(notPending.message).toBe(MESSAGES.inviteNotPending('declined'));
  });

  it('keeps a role the acceptor already holds in the family (a manager invited as a user stays manager)', async () => {
    const { world, invites } = setUp();
    world.relate('organization-manager', 'org-1', 'ann');
    world.relate('organization-manager', 'org-1', 'bob');
    const invite = await invites.create(ann, {
      ...contactInvite('ann', 'bob@example.test'),
      type: 'organization-user',
      objectId: 'org-1',
    });
    await invites.update(bob, invite.id, { status: 'accepted' });
    expect(world.relations.has('organization-user#org-1#bob')).toBe(false);
    expect(world.relations.has('organization-manager#org-1#bob')).toBe(true);
  });

  it('the inviter (or staff) edits the message and name; nobody else', async () => {
    const { invites } = setUp();
    const invite = await invites.create(ann, contactInvite('ann', 'bob@example.test'));
    const edited = await invites.update(ann, invite.id, { message: 'New text', invited: { name: 'Bobby' } });
    expect(edited).toMatchObject({ message: 'New text', invited: { email: 'bob@example.test', name: 'Bobby' } });
    expect(edited.updated).toBeGreaterThan(invite.updated);
    await expect(invites.update(staff, invite.id, { message: '' })).resolves.not.toHaveProperty('message');
    const refused = await rejectionOf(invites.update(bob, invite.id, { message: 'mine' }));
    expect(refused).toBeInstanceOf(Forbidden);
    expect(refused.message).toBe(MESSAGES.inviteInviterOnly);
  });
});

describe('listing and withdrawing invites', () => {
  it('non-staff list only invites they sent or that were sent to them; staff any; newest first', async () => {
    const { world, invites } = setUp();
    const first = await invites.create(ann, contactInvite('ann', 'bob@example.test'));
    world.advance(10);
    const second = await invites.create(ann, contactInvite('ann', 'carol@example.test'));
    world.advance(10);
    const third = await invites.create(carol, contactInvite('carol', 'bob@example.test'));

    const sent = await invites.list(ann, { inviterId: 'ann' }, { limit: 10 });
    expect(sent.items.map((i) => i.id)).toEqual([second.id, first.id]);
    const received = await invites.list(bob, { invitedEmail: 'bob@example.test' }, { limit: 1 });
    expect(received.items.map((i) => i.id)).toEqual([third.id]);
    const next = await invites.list(
      bob,
      { invitedEmail: 'bob@example.test' },
      { limit: 1, cursor: received.nextCursor },
    );
    expect(next.items.map((i) => i.id)).toEqual([first.id]);

    for (const filters of [{}, { inviterId: 'carol' }, { invitedEmail: 'carol@example.test' }]) {
      const error = await rejectionOf(invites.list(bob, filters, { limit: 10 }));
      expect(error).toBeInstanceOf(Forbidden);
      expect(error.message).toBe(MESSAGES.invitesOwnOnly);
    }
    expect((await invites.list(staff, {}, { limit: 10 })).items).toHaveLength(3);
    expect((await invites.list(staff, { inviterId: 'carol', status: 'pending' }, { limit: 10 })).items).toEqual([
      third,
    ]);
  });

  it('the inviter or staff withdraws an invite with its inviter-invite relation; 404 after', async () => {
    const { world, invites } = setUp();
    const invite = await invites.create(ann, contactInvite('ann', 'bob@example.test'));
    const refused = await rejectionOf(invites.remove(bob, invite.id));
    expect(refused).toBeInstanceOf(Forbidden);
    await invites.remove(ann, invite.id);
    expect(world.invites.size).toBe(0);
    expect(world.relations.size).toBe(0);
    expect(await rejectionOf(invites.get(invite.id))).toBeInstanceOf(NotFound);
    const another = await invites.create(ann, contactInvite('ann', 'bob@example.test'));
    await invites.remove(staff, another.id);
    expect(world.invites.size).toBe(0);
  });
});
