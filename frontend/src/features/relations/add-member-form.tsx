import { type FormEvent, useState } from 'react';
import type { INVITE_TYPES } from '../../../../shared/contracts/users';
import type { ChangeFacts } from '../../../../shared/relations/relation-rules';
import type { RelationType } from '../../../../shared/relations/relation-types';
import { DoneNote, ErrorAlert, SubmitButton } from '../../components/form-parts';
import type { PickedPerson } from '../../components/person-picker';
import { PersonPicker } from '../../components/person-picker-lazy';
import { useApi } from '../../lib/api';
import { usePersonName } from '../../lib/person-names';
import { routeKey, useChanges } from '../../lib/query';
import { useSignedInUser } from '../../lib/session';
import { checkNewRelation } from './member-controls';
import { SelectField, TypeOptions } from './relation-fields';
import type { RelationChanges } from './use-relation-changes';

/**
 * The invitation a role is reached by when the person cannot be picked (docs/users.md "Reaching a person by
 * e-mail"): an invitation grants the family's plain role; a manager or administrator promotes them once they are in.
 */
const INVITE_FOR: Partial<Record<RelationType, (typeof INVITE_TYPES)[number]>> = {
  'device-user': 'device-user',
  'device-administrator': 'device-user',
  'organization-user': 'organization-user',
  'organization-manager': 'organization-user',
  'organization-participant': 'organization-participant',
  'campaign-user': 'campaign-user',
  'campaign-manager': 'campaign-user',
  'campaign-participant': 'campaign-participant',
};

export const MEMBER_MESSAGES = {
  choose: 'Choose a person, or type their whole e-mail address',
  notInvitable: (role: string) => `A ${role} cannot be invited by e-mail`,
  invitationSent: (email: string) => `Invitation sent to ${email}. They appear here by name once they accept.`,
};

export interface AddMemberFormProps {
  objectId: string;
  roles: readonly RelationType[];
  facts: ChangeFacts;
  changes: RelationChanges;
}

/**
 * "Add a member": a person picked by name (staff) or by their exact e-mail (everyone else). An address that names
 * nobody the viewer may see becomes an invitation, and the answer is the same whether or not it has an account.
 */
export const AddMemberForm = ({ objectId, roles, facts, changes }: AddMemberFormProps) => {
  const user = useSignedInUser();
  const users = useApi('users');
  const own = usePersonName(user.id);
  const [chosenRole, setChosenRole] = useState<RelationType>();
  const role = chosenRole && roles.includes(chosenRole) ? chosenRole : roles[0];
  const [picked, setPicked] = useState<PickedPerson>();
  const [pickerKey, setPickerKey] = useState(0);
  const [sent, setSent] = useState<string>();
  const invite = useChanges<'invite'>();

  const reset = () => {
    setPicked(undefined);
    setPickerKey((key) => key + 1);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSent(undefined);
    if (!role) return;
    if (!picked) return changes.setError(MEMBER_MESSAGES.choose);
    if (picked.kind === 'person')
      return changes.create('add-member', checkNewRelation(role, objectId, picked.id, facts), reset);
    const type = INVITE_FOR[role];
    if (!type) return changes.setError(MEMBER_MESSAGES.notInvitable(role));
    changes.setError(undefined);
    void invite.run(
      'invite',
      async () => {
        await users.inviteUser({
          body: {
            type,
            inviterId: user.id,
            inviterName: own.name?.name ?? user.email ?? 'A member',
            invited: { email: picked.email },
            objectId,
          },
        });
        setSent(MEMBER_MESSAGES.invitationSent(picked.email));
        reset();
      },
      // The inviter's sent invites, and their relations (the API records an inviter-invite relation with it).
      [routeKey('users', 'listInvites'), routeKey('relations', 'listByReferrerId')],
    );
  };

  return (
    <>
      <DoneNote text={sent} testId="members-add-sent" />
      <ErrorAlert testId="members-add-error" error={invite.error} />
      <form className="inline-form" onSubmit={submit} noValidate aria-label="Add a member">
        <PersonPicker
          key={pickerKey}
          id="members-add-person"
          label="Person"
          value={picked}
          onChange={setPicked}
          allowInvite={role !== undefined && INVITE_FOR[role] !== undefined}
        />
        <SelectField
          id="members-add-role"
          label="Role"
          value={role ?? ''}
          onChange={(type) => setChosenRole(type as RelationType)}
        >
          <TypeOptions types={roles} />
        </SelectField>
        <SubmitButton
          testId="members-add-submit"
          busy={changes.busy === 'add-member' || invite.busy === 'invite'}
          busyText="Adding…"
        >
          {picked?.kind === 'invite' ? 'Send invitation' : 'Add member'}
        </SubmitButton>
      </form>
    </>
  );
};
