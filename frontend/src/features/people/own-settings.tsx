import { type FormEvent, useState } from 'react';
import { type IdentityUser, users as usersContract } from '../../../../shared/contracts/users';
import { DoneNote, ErrorAlert, SubmitButton } from '../../components/form-parts';
import { useApi } from '../../lib/api';
import { useChanges } from '../../lib/query';
import { useSession } from '../../lib/session';
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
  const { busy, error, setError, run } = useChanges<'save'>();
  const [note, setNote] = useState<string>();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setNote(undefined);
    const parsed = namesSchema.safeParse(names);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    void run(
      'save',
      async () => {
        const saved = await users.updateUser({ params: { id: identity.id }, body: names });
        setNames({
          givenName: saved.givenName ?? '',
          familyName: saved.familyName ?? '',
          displayName: saved.displayName ?? '',
        });
        setNote(PEOPLE_MESSAGES.done.saved);
      },
      profileChangeKeys(identity.id),
    );
  };

  const field = (key: keyof Names, label: string, autoComplete: string) => (
    <div className="field">
      <label htmlFor={`profile-${key}`}>{label}</label>
      <input
        id={`profile-${key}`}
        data-testid={`profile-${key}`}
        value={names[key]}
        onChange={(e) => setNames((n) => ({ ...n, [key]: e.target.value }))}
        autoComplete={autoComplete}
      />
    </div>
  );

  return (
    <form className="card create-form" onSubmit={submit} noValidate aria-labelledby="profile-names-heading">
      <h2 id="profile-names-heading">Your name</h2>
      <ErrorAlert testId="profile-names-error" error={error} />
      <DoneNote text={note} testId="profile-names-saved" />
      {field('givenName', 'First name', 'given-name')}
      {field('familyName', 'Last name', 'family-name')}
      {field('displayName', 'Display name', 'nickname')}
      <SubmitButton testId="profile-names-save" busy={busy === 'save'} busyText="Saving…">
        Save
      </SubmitButton>
    </form>
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
