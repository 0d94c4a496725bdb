import { useState } from 'react';
import { type IdentityUser, users as usersContract } from '../../../../shared/contracts/users';
import { EditForm } from '../../components/edit-form';
import { ErrorAlert } from '../../components/form-parts';
import { useApi } from '../../lib/api';
import { checkWith } from '../../lib/form-check';
import { TextField } from '../../lib/form-fields';
import { useChanges } from '../../lib/query';
import { useSession } from '../../lib/session';
import { useCheckedSubmit } from '../../lib/use-checked-submit';
import { profileChangeKeys } from './people-api';
import { PEOPLE_MESSAGES } from './people-messages';

const namesSchema = usersContract.routes.updateUser.body!;

type Names = { givenName: string; familyName: string; displayName: string };

/**
 * The signed-in person's names, checked with the contract's schema, saved through PUT /user/{id}; the
 * identity and the record (it mirrors the display name) are read again.
 */
export const NameForm = ({ identity }: { identity: IdentityUser }) => {
  const users = useApi('users');
  const [names, setNames] = useState<Names>({
    givenName: identity.givenName ?? '',
    familyName: identity.familyName ?? '',
    displayName: identity.displayName ?? '',
  });
  const form = useCheckedSubmit(
    () => checkWith(namesSchema, names),
    async (body) => {
      const saved = await users.updateUser({ params: { id: identity.id }, body });
      setNames({
        givenName: saved.givenName ?? '',
        familyName: saved.familyName ?? '',
        displayName: saved.displayName ?? '',
      });
      return PEOPLE_MESSAGES.done.saved;
    },
    profileChangeKeys(identity.id),
  );

  const field = (key: keyof Names, label: string, autoComplete: string) => (
    <TextField
      id={`profile-${key}`}
      label={label}
      value={names[key]}
      onChange={(value) => setNames((n) => ({ ...n, [key]: value }))}
      autoComplete={autoComplete}
      error={form.fields[key]}
    />
  );

  return (
    <EditForm name="profile-names" title="Your name" form={form} submitText="Save" busyText="Saving…">
      {field('givenName', 'First name', 'given-name')}
      {field('familyName', 'Last name', 'family-name')}
      {field('displayName', 'Display name', 'nickname')}
    </EditForm>
  );
};

/**
 * "Delete my account": asks first, in words that say when it happens and that the session ends; then
 * queues the deletion (which disables the account) and signs out here.
 */
export const DeleteMyAccount = ({ userId }: { userId: string }) => {
  const users = useApi('users');
  const { signOut } = useSession();
  const [asking, setAsking] = useState(false);
  const { busy, error, run } = useChanges<'delete'>();

  const confirm = () =>
    void run('delete', async () => {
      await users.deleteUser({ params: { id: userId } });
      // The account is disabled now: every further call would be refused, so the session ends here.
      await signOut();
    });

  return (
    <section className="panel card danger-zone" aria-labelledby="delete-account-heading" data-testid="delete-account">
      <h2 id="delete-account-heading">Delete your account</h2>
      <p className="muted">{PEOPLE_MESSAGES.deleteOwnExplain}</p>
      <ErrorAlert testId="delete-account-error" error={error} />
      {!asking ? (
        <button type="button" className="danger" data-testid="delete-account-start" onClick={() => setAsking(true)}>
          Delete my account
        </button>
      ) : (
        <div className="confirm-panel" role="alertdialog" aria-labelledby="delete-account-confirm-text">
          <p id="delete-account-confirm-text" data-testid="delete-account-confirm-text">
            {PEOPLE_MESSAGES.deleteOwnConfirm}
          </p>
          <div className="actions">
            <button
              type="button"
              className="danger"
              data-testid="delete-account-confirm"
              onClick={confirm}
              disabled={busy === 'delete'}
            >
              {busy === 'delete' ? 'Deleting…' : 'Yes, delete my account'}
            </button>
            <button
              type="button"
              data-testid="delete-account-cancel"
              onClick={() => setAsking(false)}
              disabled={busy === 'delete'}
            >
              Cancel
            </button>
          </div>
        </div>
      )}
    </section>
  );
};
