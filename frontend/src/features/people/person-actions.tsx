import type { QueryKey } from '@tanstack/react-query';
import type { IdentityUser } from '../../../../shared/contracts/users';
import { useApi } from '../../lib/api';
import { personName } from '../../lib/person-name';
import { identityChangeKeys } from './people-api';
import { PEOPLE_MESSAGES } from './people-messages';

export type PersonActionName = 'disable' | 'enable' | 'reset' | 'forceReset' | 'signOut';
export type PersonBusy = `${PersonActionName}:${string}`;

interface PersonActionsProps {
  person: IdentityUser;
  /** The screen's useChanges: one change at a time, its failure shown by the screen. */
  busy: string | undefined;
  run: (what: PersonBusy, action: () => Promise<unknown>, invalidates: readonly QueryKey[]) => Promise<void>;
  /** After a change: what to tell the user. */
  onDone: (note: string) => void;
}

/**
 * The staff controls for one person: disable or enable, reset or force-reset the password, sign out
 * everywhere. Each asks first; the API's refusal shows through the screen's `run`. All but signing out
 * change what the identity shows (enabled, status): the person's identity and the people lists are read
 * again.
 */
export const PersonActions = ({ person, busy, run, onDone }: PersonActionsProps) => {
  const users = useApi('users');
  const { id } = person;
  const name = personName(person);
  const params = { params: { id } };

  const act = (what: PersonActionName, confirmText: string | undefined, call: () => Promise<unknown>, note: string) => {
    if (confirmText && !window.confirm(confirmText)) return;
    void run(
      `${what}:${id}`,
      async () => {
        await call();
        onDone(note);
      },
      what === 'signOut' ? [] : identityChangeKeys(id),
    );
  };

  const button = (what: PersonActionName, label: string, onClick: () => void, danger = false) => (
    <button
      type="button"
      className={danger ? 'danger' : undefined}
      data-testid={`person-${what}-${id}`}
      aria-label={`${label}: ${name}`}
      onClick={onClick}
      disabled={busy?.endsWith(`:${id}`) ?? false}
    >
      {busy === `${what}:${id}` ? `${label}…` : label}
    </button>
  );

  return (
    <div className="actions" data-testid={`person-actions-${id}`}>
      {person.enabled
        ? button(
            'disable',
            'Disable',
            () =>
              act(
                'disable',
                PEOPLE_MESSAGES.disableConfirm(name),
                () => users.disableUser(params),
                PEOPLE_MESSAGES.done.disable,
              ),
            true,
          )
        : button('enable', 'Enable', () =>
            act('enable', undefined, () => users.enableUser(params), PEOPLE_MESSAGES.done.enable),
          )}
      {button('reset', 'Reset password', () =>
        act(
          'reset',
          PEOPLE_MESSAGES.resetConfirm(name),
          () => users.adminResetUserPassword(params),
          PEOPLE_MESSAGES.done.reset,
        ),
      )}
      {button('forceReset', 'Force new password', () =>
        act(
          'forceReset',
          PEOPLE_MESSAGES.forceResetConfirm(name),
          () => users.forceResetPassword(params),
          PEOPLE_MESSAGES.done.forceReset,
        ),
      )}
      {button('signOut', 'Sign out everywhere', () =>
        act(
          'signOut',
          PEOPLE_MESSAGES.signOutConfirm(name),
          () => users.adminUserGlobalSignOut(params),
          PEOPLE_MESSAGES.done.signOut,
        ),
      )}
    </div>
  );
};
