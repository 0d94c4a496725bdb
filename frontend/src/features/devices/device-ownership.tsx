import { type FormEvent, useState } from 'react';
import { isStaff } from '../../../../shared/auth/groups';
import type { Device } from '../../../../shared/contracts/devices';
import type { IdentityUser } from '../../../../shared/contracts/users';
import { DoneNote, ErrorAlert, SubmitButton } from '../../components/form-parts';
import { useApi } from '../../lib/api';
import { TextField } from '../../lib/form-fields';
import { useChanges } from '../../lib/query';
import { useSignedInUser } from '../../lib/session';
import { deviceOwnershipKeys } from './device-api';
import { checkTransfer, deviceLabel } from './device-rules';

type Busy = 'transfer' | 'retire' | 'search';

/**
 * Transfer of ownership (to a user id; staff may find the person by e-mail) and retirement, for the owner and
 * staff. Both ask for confirmation: a transfer takes the owner's rights away, a retirement is final.
 */
export const DeviceOwnership = ({ device }: { device: Device }) => {
  const devices = useApi('devices');
  const users = useApi('users');
  const staff = isStaff(useSignedInUser().groups);
  const [newOwnerId, setNewOwnerId] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const [search, setSearch] = useState('');
  const [found, setFound] = useState<IdentityUser[]>();
  const [done, setDone] = useState<string>();
  const { busy, error, run } = useChanges<Busy>();

  const transfer = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setDone(undefined);
    const checked = checkTransfer(newOwnerId);
    if (!checked.ok) return setFieldError(checked.message);
    setFieldError(undefined);
    if (!window.confirm(`Give ${deviceLabel(device)} to ${checked.value.newOwnerId}? You lose its ownership.`)) return;
    void run(
      'transfer',
      async () => {
        const moved = await devices.transfer({ params: { id: device.id }, body: checked.value });
        setNewOwnerId('');
        setDone(`Ownership moved to ${moved.ownerId ?? checked.value.newOwnerId}.`);
      },
      deviceOwnershipKeys(device.id),
    );
  };

  const find = () =>
    void run('search', async () => {
      const page = await users.listUsers({ query: { search: search.trim(), limit: 10 } });
      setFound(page.items);
    });

  const retire = () => {
    if (
      !window.confirm(
        `Retire ${deviceLabel(device)}? Its credentials are revoked and it cannot come back. Its data is kept.`,
      )
    ) {
      return;
    }
    void run(
      'retire',
      async () => {
        await devices.retire({ params: { id: device.id } });
        setDone('The device is retired.');
      },
      deviceOwnershipKeys(device.id),
    );
  };

  return (
    <section className="card section-card" aria-labelledby="ownership-heading" data-testid="device-ownership">
      <h2 id="ownership-heading">Ownership</h2>
      <ErrorAlert testId="ownership-error" error={error} />
      <DoneNote text={done} testId="ownership-done" />
      {staff && (
        <div className="inline-form" data-testid="transfer-search">
          <TextField
            id="transfer-search-email"
            label="Find the new owner by e-mail"
            type="email"
            value={search}
            onChange={setSearch}
            placeholder="the start of their e-mail"
          />
          <button type="button" data-testid="transfer-search-submit" onClick={find} disabled={busy === 'search'}>
            {busy === 'search' ? 'Searching…' : 'Find'}
          </button>
        </div>
      )}
      {found && (
        <ul className="link-list small" data-testid="transfer-search-results">
          {found.length === 0 && <li className="muted">No one found.</li>}
          {found.map((person) => (
            <li key={person.id}>
              <button type="button" className="link-button" onClick={() => setNewOwnerId(person.id)}>
                {person.email ?? person.id}
              </button>{' '}
              <span className="mono muted">{person.id}</span>
            </li>
          ))}
        </ul>
      )}
      <form className="inline-form" onSubmit={transfer} noValidate aria-label="Transfer ownership">
        <TextField
          id="transfer-owner-id"
          label="New owner's user id"
          value={newOwnerId}
          onChange={setNewOwnerId}
          error={fieldError}
          mono
          placeholder="their user id (shown on their profile)"
        />
        <SubmitButton testId="transfer-submit" busy={busy === 'transfer'} busyText="Transferring…">
          Transfer
        </SubmitButton>
      </form>
      <div className="danger-zone">
        <p className="small">
          Retiring is final: the device's credentials stop working and it cannot be claimed again.
        </p>
        <button
          type="button"
          className="danger"
          data-testid="device-retire"
          onClick={retire}
          disabled={busy === 'retire'}
        >
          {busy === 'retire' ? 'Retiring…' : 'Retire the device'}
        </button>
      </div>
    </section>
  );
};
