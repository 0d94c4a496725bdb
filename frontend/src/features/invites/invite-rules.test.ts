import type { Invite } from '../../../../shared/contracts/users';
import { checkContactInvite, inviteTypeText, mayAnswer } from './invite-rules';

const inviter = { id: 'user-1', name: 'Uma User' };

const invite = (over: Partial<Invite> = {}): Invite => ({
  id: '6f1c1a52-6a0e-4c1e-9a57-0c2f6c0e4a11',
  type: 'inviter-contact',
  inviterId: 'user-1',
  inviterName: 'Uma User',
  invited: { email: 'friend@example.com' },
  status: 'pending',
  created: 1,
  updated: 1,
  ...over,
});

describe('checkContactInvite', () => {
  it('builds a contact invite from the signed-in person, leaving out an empty name and message', () => {
    expect(checkContactInvite({ email: ' friend@example.com ', name: ' ', message: '' }, inviter)).toEqual({
      ok: true,
      value: {
        type: 'inviter-contact',
        inviterId: 'user-1',
        inviterName: 'Uma User',
        invited: { email: 'friend@example.com' },
      },
    });
    const full = checkContactInvite({ email: 'friend@example.com', name: 'Fred', message: 'Hi!' }, inviter);
    expect(full.ok && full.value).toMatchObject({
      invited: { email: 'friend@example.com', name: 'Fred' },
      message: 'Hi!',
    });
  });

  it("refuses what the contract refuses, with the contract's words next to the field", () => {
    expect(checkContactInvite({ email: 'not-an-address', name: '', message: '' }, inviter)).toEqual({
      ok: false,
      message: 'Must be an e-mail address',
      fields: { invited: 'Must be an e-mail address' },
    });
    expect(
      checkContactInvite({ email: 'friend@example.com', name: '', message: '' }, { id: 'undefined', name: 'x' }),
    ).toMatchObject({ ok: false });
    expect(checkContactInvite({ email: 'friend@example.com', name: '', message: 'x'.repeat(1001) }, inviter)).toEqual({
      ok: false,
      message: 'Message is at most 1000 characters',
      fields: { message: 'Message is at most 1000 characters' },
    });
  });
});

describe('invite rules', () => {
  it('lets only the invited person answer, while the invite is pending', () => {
    expect(mayAnswer(invite(), 'Friend@Example.com')).toBe(true);
    expect(mayAnswer(invite(), 'other@example.com')).toBe(false);
    expect(mayAnswer(invite(), undefined)).toBe(false);
    expect(mayAnswer(invite({ status: 'accepted' }), 'friend@example.com')).toBe(false);
  });

  it('says what an invite is for', () => {
    expect(inviteTypeText(invite())).toBe('to connect as contacts');
    expect(inviteTypeText(invite({ type: 'organization-user', objectId: 'org-1' }))).toBe('to join organization org-1');
    expect(inviteTypeText(invite({ type: 'campaign-participant', objectId: 'c-1' }))).toBe('to join campaign c-1');
    expect(inviteTypeText(invite({ type: 'device-user', objectId: 'dev-1' }))).toBe('to use device dev-1');
  });
});
