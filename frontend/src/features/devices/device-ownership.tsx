import { type FormEvent, useState } from 'react';
import type { Device } from '../../../../shared/contracts/devices';
import { DoneNote, ErrorAlert, SubmitButton } from '../../components/form-parts';
import type { PickedPerson } from '../../components/person-picker';
import { PersonPicker } from '../../components/person-picker-lazy';
import { useApi } from '../../lib/api';
import { useSaidChanges } from '../../lib/query';
import { deviceOwnershipKeys } from './device-api';
import { checkTransfer, deviceLabel } from './device-rules';

type Busy = 'transfer' | 'retire';

/**
 * Transfer of ownership (to a person picked by name, or by their exact e-mail: docs/users.md) and retirement, for
 * the owner and staff. Both ask for confirmation: a transfer takes the owner's rights away, a retirement is final.
 */
export const DeviceOwnership = ({ device }: { device: Device }) => {
  const devices = useApi('devices');
  const [newOwner, setNewOwner] = useState<PickedPerson>();
  const [fieldError, setFieldError] = useState<string>();
  const { busy, error, run, done } = useSaidChanges<Busy>();

  const transfer = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (newOwner?.kind !== 'person') return setFieldError('Choose the new owner');
    const checked = checkTransfer(newOwner.id);
    if (!checked.ok) return setFieldError(checked.message);
    setFieldError(undefined);
    if (!window.confirm(`Give ${deviceLabel(device)} to ${newOwner.label}? You lose its ownership.`)) return;
    void run(
      'transfer',
      async () => {
        await devices.transfer({ params: { id: device.id }, body: checked.value });
        setNewOwner(undefined);
        return `Ownership moved to ${newOwner.label}.`;
      },
      deviceOwnershipKeys(device.id),
    );
  };

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
        return 'The device is retired.';
      },
      deviceOwnershipKeys(device.id),
    );
  };

  return (
    <section className="card section-card" aria-labelledby="ownership-heading" data-testid="device-ownership">
      <h2 id="ownership-heading">Ownership</h2>
      <ErrorAlert testId="ownership-error" error={error} />
      <DoneNote text={done} testId="ownership-done" />
      <form className="inline-form" onSubmit={transfer} noValidate aria-label="Transfer ownership">
        <PersonPicker id="transfer-owner" label="New owner" value={newOwner} onChange={setNewOwner} />
        <SubmitButton testId="transfer-submit" busy={busy === 'transfer'} busyText="Transferring…">
          Transfer
        </SubmitButton>
      </form>
      {fieldError && (
        <p className="error" role="alert" data-testid="transfer-owner-error">
          {fieldError}
        </p>
      )}
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
