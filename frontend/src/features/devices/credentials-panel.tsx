import { useCallback, useState } from 'react';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common';
import type { DeviceCredential, NewDeviceCredential } from '../../../../shared/contracts/devices';
import { useApi } from '../../lib/api';
import { LoadMoreButton } from '../../lib/load-more-button';
import { SecretOnce } from '../../lib/secret-once';
import { useAction } from '../../lib/use-action';
import { type ListLoader, usePagedList } from '../../lib/use-paged-list';
import { When } from '../people/person-parts';
import { ErrorAlert } from '../relations/relation-fields';

type Row = DeviceCredential & { id: string };
type Busy = 'create' | 'rotate' | `revoke:${string}`;

/**
 * A device's ingress credentials: ids and times only (the API never answers a secret twice). A new or rotated
 * credential's token is shown once, with a copy button and a warning; leaving the page forgets it.
 */
export const CredentialsPanel = ({ deviceId }: { deviceId: string }) => {
  const devices = useApi('devices');
  const load = useCallback<ListLoader<Row>>(
    async (cursor) => {
      const page = await devices.listCredentials({
        params: { id: deviceId },
        query: { limit: DEFAULT_PAGE_SIZE, cursor },
      });
      return { ...page, items: page.items.map((c) => ({ ...c, id: c.credentialId })) };
    },
    [devices, deviceId],
  );
  const list = usePagedList(load);
  const [fresh, setFresh] = useState<NewDeviceCredential>();
  const { busy, error, run } = useAction<Busy>();

  const asRow = (credential: DeviceCredential): Row => ({
    credentialId: credential.credentialId,
    deviceId: credential.deviceId,
    created: credential.created,
    createdBy: credential.createdBy,
    lastUsed: credential.lastUsed,
    id: credential.credentialId,
  });

  const create = () =>
    void run('create', async () => {
      const made = await devices.createCredential({ params: { id: deviceId } });
      setFresh(made);
      list.update((shown) => [asRow(made), ...shown]);
    });

  const rotate = () => {
    if (
      !window.confirm(
        'Replace every credential of this device with one new one? Devices using the old ones stop being accepted.',
      )
    ) {
      return;
    }
    void run('rotate', async () => {
      const made = await devices.rotateCredentials({ params: { id: deviceId } });
      setFresh(made);
      list.update(() => [asRow(made)]);
    });
  };

  const revoke = (credentialId: string) => {
    if (!window.confirm(`Revoke credential ${credentialId}? A device using it is no longer accepted.`)) return;
    void run(`revoke:${credentialId}`, async () => {
      await devices.revokeCredential({ params: { id: deviceId, credentialId } });
      list.update((shown) => shown.filter((row) => row.id !== credentialId));
      if (fresh?.credentialId === credentialId) setFresh(undefined);
    });
  };

  return (
    <section className="card section-card" aria-labelledby="credentials-heading" data-testid="credentials">
      <h2 id="credentials-heading">Ingress credentials</h2>
      <p className="muted small">
        A device sends its data with one of these. The secret is shown once, when it is made; it is stored only as a
        hash.
      </p>
      <ErrorAlert testId="credentials-error" error={error ?? list.error} />
      {fresh && (
        <SecretOnce
          value={fresh.token}
          testId="credentials-new"
          valueTestId="credentials-new-token"
          copyTestId="credentials-copy"
          onHide={() => setFresh(undefined)}
        >
          <strong>Copy this token now: it will not be shown again.</strong> Put it on the device; whoever holds it can
          send data as this device.
        </SecretOnce>
      )}
      <div className="actions">
        <button
          type="button"
          className="primary"
          data-testid="credentials-create"
          onClick={create}
          disabled={busy !== undefined}
        >
          {busy === 'create' ? 'Creating…' : 'New credential'}
        </button>
        <button type="button" data-testid="credentials-rotate" onClick={rotate} disabled={busy !== undefined}>
          {busy === 'rotate' ? 'Rotating…' : 'Rotate all'}
        </button>
      </div>
      <div className="table-wrap">
        <table className="table" aria-label="Ingress credentials" data-testid="credentials-list">
          <thead>
            <tr>
              <th scope="col">Id</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((row) => (
              <tr key={row.id} data-testid={`credentials-row-${row.id}`}>
                <th scope="row" className="mono">
                  {row.id}
                </th>
                <td data-label="Created">
                  <When ms={row.created} />
                </td>
                <td data-label="Last used">
                  {row.lastUsed ? <When ms={row.lastUsed} /> : <span className="muted">Never</span>}
                </td>
                <td data-label="Actions">
                  <button
                    type="button"
                    className="danger"
                    data-testid={`credentials-revoke-${row.id}`}
                    onClick={() => revoke(row.id)}
                    disabled={busy === `revoke:${row.id}`}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {list.loaded && list.items.length === 0 && (
        <p className="muted" data-testid="credentials-empty">
          No credentials yet: the device cannot send data until it has one.
        </p>
      )}
      <LoadMoreButton list={list} testId="credentials-load-more" />
    </section>
  );
};
