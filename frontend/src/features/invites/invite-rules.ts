import type { RouteRequest } from '../../../../shared/contracts/define-route';
import { type Invite, users } from '../../../../shared/contracts/users';
import { type Checked, checkWith } from '../../lib/form-check';

export type InviteBody = RouteRequest<typeof users.routes.inviteUser>['body'];

const inviteSchema = users.routes.inviteUser.body!;

export interface InviteForm {
  email: string;
  name: string;
  message: string;
}

/**
 * A contact invite from the form, checked with the contract's own schema before it is sent, so the user
 * reads the same words the API would answer with, next to the field. Empty name and message are left out.
 */
export const checkContactInvite = (form: InviteForm, inviter: { id: string; name: string }): Checked<InviteBody> =>
  checkWith(inviteSchema, {
    type: 'inviter-contact',
    inviterId: inviter.id,
    inviterName: inviter.name,
    invited: { email: form.email.trim(), ...(form.name.trim() ? { name: form.name } : {}) },
    ...(form.message.trim() ? { message: form.message } : {}),
  });

export const INVITE_STATUS_TEXT: Record<Invite['status'], string> = {
  pending: 'Waiting for an answer',
  accepted: 'Accepted',
  declined: 'Declined',
};

/** What an invite is for, in words. */
export const inviteTypeText = (invite: Pick<Invite, 'type' | 'objectId'>): string => {
  switch (invite.type) {
    case 'inviter-contact':
      return 'to connect as contacts';
    case 'device-user':
      return `to use device ${invite.objectId ?? ''}`.trim();
    case 'organization-user':
    case 'organization-participant':
      return `to join organization ${invite.objectId ?? ''}`.trim();
    default:
      return `to join campaign ${invite.objectId ?? ''}`.trim();
  }
};

/** May the signed-in person answer this invite here: it is pending and was sent to their e-mail. */
export const mayAnswer = (invite: Pick<Invite, 'status' | 'invited'>, email: string | undefined): boolean =>
  invite.status === 'pending' && !!email && invite.invited.email.toLowerCase() === email.toLowerCase();
