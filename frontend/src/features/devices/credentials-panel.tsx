import { useState } from 'react';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common';
import type { DeviceCredential, NewDeviceCredential } from '../../../../shared/contracts/devices';
import { ErrorAlert } from '../../components/form-parts';
import { ListTable } from '../../components/list-table';
import { PagedList } from '../../components/paged-list';
import { When } from '../../components/when';
import { useApi } from '../../lib/api';
import { routeKey, useChanges, usePagedQuery } from '../../lib/query';
import { SecretOnce } from '../../lib/secret-once';
import { credentialKeys } from './device-api';
import { DeviceConnectionDetails } from './device-connection-details';

type Row = DeviceCredential & { id: string };
type Busy = 'create' | 'rotate' | `revoke:${string}`;

/**
 * A device's ingress credentials: ids and times only (the API never answers a secret twice). A new or rotated
 * credential's token is shown once, with a copy button and a warning; leaving the page forgets it.
 */
export const CredentialsPanel = ({ deviceId }: { deviceId: string }) => {
  const devices = useApi('devices');
  const request = { params: { id: deviceId }, query: { limit: DEFAULT_PAGE_SIZE } };
  const list = usePagedQuery<Row>(routeKey('devices', 'listCredentials', request), async (cursor) => {
    const page = await devices.listCredentials({ ...request, query: { ...request.query, cursor } });
    return { ...page, items: page.items.map((c) => ({ ...c, id: c.credentialId })) };
  });
  const [fresh, setFresh] = useState<NewDeviceCredential>();
  const { busy, error, run } = useChanges<Busy>();

  const create = () =>
    void run(
      'create',
      async () => setFresh(await devices.createCredential({ params: { id: deviceId } })),
      credentialKeys(deviceId),
    );

  const rotate = () => {
    if (
      !window.confirm(
        'Replace every credential of this device with one new one? Devices using the old ones stop being accepted.',
      )
    ) {
      return;
    }
    void run(
      'rotate',
      async () => setFresh(await devices.rotateCredentials({ params: { id: deviceId } })),
      credentialKeys(deviceId),
    );
  };

  const revoke = (credentialId: string) => {
    if (!window.confirm(`Revoke credential ${credentialId}? A device using it is no longer accepted.`)) return;
    void run(
      `revoke:${credentialId}`,
      async () => {
        await devices.revokeCredential({ params: { id: deviceId, credentialId } });
        if (fresh?.credentialId === credentialId) setFresh(undefined);
      },
      credentialKeys(deviceId),
    );
  };

  return (
    <section className="card section-card" aria-labelledby="credentials-heading" data-testid="credentials">
      <h2 id="credentials-heading">Ingress credentials</h2>
      <p className="muted small">
        A device sends its data with one of these. The secret is shown once, when it is made; it is stored only as a
        hash.
      </p>
      <DeviceConnectionDetails deviceId={deviceId} />
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
      <PagedList
        list={list}
        name="credentials"
        errorShownAbove
        empty="No credentials yet: the device cannot send data until it has one."
      >
        <ListTable
          label="Ingress credentials"
          testId="credentials-list"
          rows={list.items}
          rowKey={(row) => row.id}
          rowTestId={(row) => `credentials-row-${row.id}`}
          columns={[
            { header: 'Id', className: 'mono', cell: (row) => row.id },
            { header: 'Created', cell: (row) => <When ms={row.created} /> },
            {
              header: 'Last used',
              cell: (row) => (row.lastUsed ? <When ms={row.lastUsed} /> : <span className="muted">Never</span>),
            },
            {
              header: 'Actions',
              cell: (row) => (
                <button
                  type="button"
                  className="danger"
                  data-testid={`credentials-revoke-${row.id}`}
                  onClick={() => revoke(row.id)}
                  disabled={busy === `revoke:${row.id}`}
                >
                  Revoke
                </button>
              ),
            },
          ]}
        />
      </PagedList>
    </section>
  );
};
