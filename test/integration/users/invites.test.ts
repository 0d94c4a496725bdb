import { createRelationTable } from '../../../functions/_shared/relations/relation-table';
import { MESSAGES } from '../../../shared/messages';
import { relationId } from '../../../shared/relations/relation-types';
import { mailsTo } from '../../support/mail';
import { freshUser } from '../../support/people';
import { seedRelation } from '../../support/relations';
import { apiAs, apiRejection, documentClient, stack, tokenOf, uniqueId } from '../../support/stack';

/** Invites through the real gateway, tables and SES: sending, the e-mailed link, answering, listing, withdrawing. */

const users = (token?: string) => apiAs('users', token);
const relationsOf = () => createRelationTable({ db: documentClient(), tableName: stack().tables.relations! });

/** A fresh organization managed by a fresh person. */
const managedOrganization = async () => {
  const manager = await freshUser({ prefix: 'inviter' });
  const orgId = uniqueId('invite-org');
  await seedRelation('organization-manager', orgId, manager.id);
  return { manager, orgId };
};

describe('an invite from sending to acceptance', () => {
  it('e-mails a link to the web app, is readable by anyone with the id, and accepting creates the relations', async () => {
    const { manager, orgId } = await managedOrganization();
    const invitee = await freshUser({ prefix: 'invitee' });

    const invite = await users(manager.token).inviteUser({
      body: {
        type: 'organization-user',
        inviterId: manager.id,
        inviterName: 'Org Manager',
        invited: { email: invitee.email.toUpperCase(), name: 'New Member' },
        message: 'Join our organization',
        objectId: orgId,
      },
    });
    expect(invite).toMatchObject({
      type: 'organization-user',
      inviterId: manager.id,
      invited: { email: invitee.email, name: 'New Member' },
      objectId: orgId,
      status: 'pending',
    });
    expect(await relationsOf().get(relationId('inviter-invite', manager.id, invite.id))).toMatchObject({
      referrerId: manager.id,
      referentId: invite.id,
    });

    const [mail] = await mailsTo(invitee.email, 1);
    expect(mail?.subject).toBe(MESSAGES.inviteEmailSubject('Org Manager'));
    expect(mail?.body.text).toContain('Join our organization');
    const link = /(\S+\/invites\/[0-9a-f-]{36})/.exec(mail?.body.text ?? '')?.[1];
    expect(link).toMatch(new RegExp(`/invites/${invite.id}$`));
    expect(link?.startsWith('http')).toBe(true);

    // The id is the link: a guest reads the invite.
    await expect(users().getInvite({ params: { id: invite.id } })).resolves.toEqual(invite);
    // The invited person finds it by their e-mail.
    const mine = await users(invitee.token).listInvites({ body: { filters: { invitedEmail: invitee.email } } });
    expect(mine.items.map((i) => i.id)).toEqual([invite.id]);

    // Before accepting, the invitee cannot read the organization's members; after, they can.
    const members = () => apiAs('relations', invitee.token).listByReferrerId({ params: { id: orgId, x: 10 } });
    expect((await apiRejection(members())).status).toBe(403);

    const accepted = await users(invitee.token).updateInvite({
      params: { id: invite.id },
      body: { status: 'accepted' },
    });
    expect(accepted).toMatchObject({ status: 'accepted', acceptedBy: invitee.id });
    expect(await relationsOf().get(relationId('inviter-contact', manager.id, invitee.id))).toBeDefined();
    expect(await relationsOf().get(relationId('organization-user', orgId, invitee.id))).toBeDefined();
    expect((await members()).items.map((r) => r.type).sort()).toEqual(['organization-manager', 'organization-user']);

    // A retry answers the same; a decline after acceptance is a 409.
    await expect(
      users(invitee.token).updateInvite({ params: { id: invite.id }, body: { status: 'accepted' } }),
    ).resolves.toEqual(accepted);
    const late = await apiRejection(
      users(invitee.token).updateInvite({ params: { id: invite.id }, body: { status: 'declined' } }),
    );
    expect([late.status, late.message]).toEqual([409, MESSAGES.inviteNotPending('accepted')]);
  });

  it('only the invited person answers; only the inviter or staff edit; declining ends it', async () => {
    const inviter = await freshUser({ prefix: 'inviter' });
    const [invitee, stranger] = await Promise.all([
      freshUser({ prefix: 'invitee' }),
      freshUser({ prefix: 'stranger' }),
    ]);
    const invite = await users(inviter.token).inviteUser({
      body: {
        type: 'inviter-contact',
        inviterId: inviter.id,
        inviterName: 'Inviter',
        invited: { email: invitee.email },
      },
    });
    const notForYou = await apiRejection(
      users(stranger.token).updateInvite({ params: { id: invite.id }, body: { status: 'accepted' } }),
    );
    expect([notForYou.status, notForYou.message]).toEqual([403, MESSAGES.inviteNotForYou]);
    const notInviter = await apiRejection(
      users(invitee.token).updateInvite({ params: { id: invite.id }, body: { message: 'changed' } }),
    );
    expect([notInviter.status, notInviter.message]).toEqual([403, MESSAGES.inviteInviterOnly]);
    await expect(
      users(inviter.token).updateInvite({ params: { id: invite.id }, body: { message: 'Please join' } }),
    ).resolves.toMatchObject({ message: 'Please join' });

    await expect(
      users(invitee.token).updateInvite({ params: { id: invite.id }, body: { status: 'declined' } }),
    ).resolves.toMatchObject({ status: 'declined' });
    const notPending = await apiRejection(
      users(invitee.token).updateInvite({ params: { id: invite.id }, body: { status: 'accepted' } }),
    );
    expect([notPending.status, notPending.message]).toEqual([409, MESSAGES.inviteNotPending('declined')]);
    expect(await relationsOf().get(relationId('inviter-contact', inviter.id, invitee.id))).toBeUndefined();
  });

  it('refuses another inviterId, a contact invite with an object, and a membership invite without the right', async () => {
    const { manager, orgId } = await managedOrganization();
    const member = await freshUser({ prefix: 'member' });
    await seedRelation('organization-user', orgId, member.id);
    const body = {
      type: 'organization-user' as const,
      inviterId: member.id,
      inviterName: 'Member',
      invited: { email: `${uniqueId('x')}@example.com` },
      objectId: orgId,
    };
    const noRight = await apiRejection(users(member.token).inviteUser({ body }));
    expect([noRight.status, noRight.message]).toEqual([403, MESSAGES.relationManagerRequired('organization')]);
    const actor = await apiRejection(users(manager.token).inviteUser({ body }));
    expect([actor.status, actor.message]).toEqual([403, MESSAGES.actorMismatch]);
    const withObject = await apiRejection(
      users(member.token).inviteUser({ body: { ...body, type: 'inviter-contact' } }),
    );
    expect([withObject.status, withObject.message]).toEqual([400, MESSAGES.inviteNoObject]);
    const { objectId: _o, ...noObject } = body;
    const missing = await apiRejection(users(member.token).inviteUser({ body: noObject }));
    expect([missing.status, missing.message]).toEqual([400, MESSAGES.inviteObjectRequired('organization-user')]);
  });
});

describe('listing and withdrawing invites', () => {
  it('non-staff list what they sent or received; staff list any; newest first', async () => {
    const [ann, bob] = await Promise.all([freshUser({ prefix: 'ann' }), freshUser({ prefix: 'bob' })]);
    const send = (email: string) =>
      users(ann.token).inviteUser({
        body: { type: 'inviter-contact', inviterId: ann.id, inviterName: 'Ann', invited: { email } },
      });
    const first = await send(bob.email);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await send(`${uniqueId('someone')}@example.com`);

    const sent = await users(ann.token).listInvites({ body: { filters: { inviterId: ann.id } } });
    expect(sent.items.map((i) => i.id)).toEqual([second.id, first.id]);
    const paged = await users(ann.token).listInvites({ query: { limit: 1 }, body: { filters: { inviterId: ann.id } } });
    expect(paged.items.map((i) => i.id)).toEqual([second.id]);
    const rest = await users(ann.token).listInvites({
      query: { limit: 1, cursor: paged.nextCursor },
      body: { filters: { inviterId: ann.id } },
    });
    expect(rest.items.map((i) => i.id)).toEqual([first.id]);
    const received = await users(bob.token).listInvites({ body: { filters: { invitedEmail: bob.email } } });
    expect(received.items.map((i) => i.id)).toEqual([first.id]);

    for (const filters of [{}, { inviterId: ann.id }, { invitedEmail: ann.email }]) {
      const refused = await apiRejection(users(bob.token).listInvites({ body: { filters } }));
      expect([refused.status, refused.message]).toEqual([403, MESSAGES.invitesOwnOnly]);
    }
    const staff = users(await tokenOf('employee@example.com'));
    const byStaff = await staff.listInvites({ body: { filters: { inviterId: ann.id, status: 'pending' } } });
    expect(byStaff.items.map((i) => i.id)).toEqual([second.id, first.id]);
    await expect(staff.listInvites({ query: { limit: 5 }, body: { filters: {} } })).resolves.toMatchObject({
      items: expect.any(Array),
    });
  });

  it('lists the invites to one organization or campaign in full pages, however many others come between', async () => {
    const { manager, orgId } = await managedOrganization();
    const otherOrg = uniqueId('invite-org');
    await seedRelation('organization-manager', otherOrg, manager.id);
    const invite = (objectId: string) =>
      users(manager.token).inviteUser({
        body: {
          type: 'organization-user',
          inviterId: manager.id,
          inviterName: 'Org Manager',
          invited: { email: `${uniqueId('member')}@example.com` },
          objectId,
        },
      });
    const wanted = [await invite(orgId)];
    for (let i = 0; i < 3; i += 1) await invite(otherOrg);
    wanted.unshift(await invite(orgId));

    const page = await users(manager.token).listInvites({
      query: { limit: 2 },
      body: { filters: { inviterId: manager.id, objectId: orgId } },
    });
    expect(page.items.map((i) => i.id)).toEqual(wanted.map((i) => i.id));
  });

  it('the inviter withdraws an invite with its inviter-invite relation; others may not', async () => {
    const [ann, bob] = await Promise.all([freshUser({ prefix: 'ann' }), freshUser({ prefix: 'bob' })]);
    const invite = await users(ann.token).inviteUser({
      body: { type: 'inviter-contact', inviterId: ann.id, inviterName: 'Ann', invited: { email: bob.email } },
    });
    const refused = await apiRejection(users(bob.token).deleteInvite({ params: { id: invite.id } }));
    expect([refused.status, refused.message]).toEqual([403, MESSAGES.inviteInviterOnly]);
    await expect(users(ann.token).deleteInvite({ params: { id: invite.id } })).resolves.toBeUndefined();
    const gone = await apiRejection(users().getInvite({ params: { id: invite.id } }));
    expect([gone.status, gone.message]).toEqual([404, MESSAGES.inviteNotFound(invite.id)]);
    expect(await relationsOf().get(relationId('inviter-invite', ann.id, invite.id))).toBeUndefined();
  });
});
