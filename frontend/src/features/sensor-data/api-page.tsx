import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router-dom';
import type { ApiKey, ApiUsage, NewApiKey } from '../../../../shared/contracts/sensor-data-api-keys';
import { ErrorAlert } from '../../components/form-parts';
import { ListTable } from '../../components/list-table';
import { PagedList } from '../../components/paged-list';
import { When } from '../../components/when';
import { useApi } from '../../lib/api';
import { useFirstReads } from '../../lib/first-reads';
import { TextField } from '../../lib/form-fields';
import { errorOf, queryList, routeKey, routeQuery, useChanges } from '../../lib/query';
import { runtimeConfig } from '../../lib/runtime-config';
import { SecretOnce } from '../../lib/secret-once';
import { curlExample, usedPercent, warningText, worstWarning } from './api-rules';

type Busy = 'create' | `revoke:${string}`;

/**
 * /dashboard/api: the signed-in person's public API keys (a new key shown once, with a copy button), this month's
 * use of the devices their keys called with the 70/90/100 % warnings, and how to call the API from here.
 */
export const ApiPage = () => {
  const sensorData = useApi('sensor-data');
  const keysRead = routeQuery('sensor-data', 'listApiKeys', {});
  const usageRead = routeQuery('sensor-data', 'myApiUsage', {});
  // The keys and the usage sit above "How to call" and its link: the page is drawn with them, not moved by them.
  useFirstReads(keysRead, usageRead);
  const keys = useQuery({ ...keysRead, select: (page) => page.items.map((key) => ({ ...key, id: key.keyId })) });
  const usage = useQuery(usageRead);
  const [name, setName] = useState('');
  const [fresh, setFresh] = useState<NewApiKey>();
  const { busy, error, setError, run } = useChanges<Busy>();
  const baseUrl = runtimeConfig().apiBaseUrls['sensor-data'] ?? '';

  const create = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setError('Give the key a name, e.g. the script that will use it');
    // The secret is shown only once the list holds its key, so the two never disagree on screen.
    let made: NewApiKey | undefined;
    void run('create', async () => {
      made = await sensorData.createApiKey({ body: { name } });
      setName('');
    }, [routeKey('sensor-data', 'listApiKeys')]).then(() => made && setFresh(made));
  };

  const revoke = (key: ApiKey) => {
    if (!window.confirm(`Revoke the key "${key.name}"? Scripts using it are refused at once.`)) return;
    void run(`revoke:${key.keyId}`, async () => {
      await sensorData.revokeApiKey({ params: { keyId: key.keyId } });
      if (fresh?.keyId === key.keyId) setFresh(undefined);
    }, [routeKey('sensor-data', 'listApiKeys')]);
  };

  return (
    <div className="page" data-testid="api-page">
      <h1>Public API</h1>
      <p className="muted">
        A key reads the data of the devices you may see, as you do (never with staff powers). Each device's requests are
        counted per calendar month (UTC) against its tier's quota.
      </p>

      <section className="card section-card" aria-labelledby="api-keys-heading" data-testid="api-keys">
        <h2 id="api-keys-heading">API keys</h2>
        <ErrorAlert testId="api-keys-error" error={error ?? errorOf(keys)} />
        {fresh && (
          <SecretOnce
            value={fresh.key}
            testId="api-key-new"
            valueTestId="api-key-new-value"
            copyTestId="api-key-copy"
            onHide={() => setFresh(undefined)}
          >
            <strong>Copy this key now: it will not be shown again.</strong> Whoever holds it can read your devices' data
            and spend their quota.
          </SecretOnce>
        )}
        <form className="actions" onSubmit={create} aria-label="New API key">
          <TextField id="api-key-name" label="Name" value={name} onChange={setName} placeholder="e.g. nightly export" />
          <button type="submit" className="primary" data-testid="api-key-create" disabled={busy !== undefined}>
            {busy === 'create' ? 'Creating…' : 'New key'}
          </button>
        </form>
        <PagedList list={queryList(keys, keys.data)} name="api-keys" errorShownAbove empty="No keys yet.">
          <ListTable
            label="API keys"
            testId="api-keys-list"
            rows={keys.data ?? []}
            rowKey={(key) => key.keyId}
            rowTestId={(key) => `api-key-row-${key.keyId}`}
            columns={[
              { header: 'Name', cell: (key) => key.name },
              { header: 'Id', className: 'mono', cell: (key) => key.keyId },
              { header: 'Created', cell: (key) => <When ms={key.created} /> },
              {
                header: 'Last used',
                cell: (key) => (key.lastUsed ? <When ms={key.lastUsed} /> : <span className="muted">Never</span>),
              },
              {
                header: 'Actions',
                cell: (key) => (
                  <button
                    type="button"
                    className="danger"
                    data-testid={`api-key-revoke-${key.keyId}`}
                    onClick={() => revoke(key)}
                    disabled={busy === `revoke:${key.keyId}`}
                  >
                    Revoke
                  </button>
                ),
              },
            ]}
          />
        </PagedList>
      </section>

      <section className="card section-card" aria-labelledby="api-usage-heading" data-testid="api-usage">
        <h2 id="api-usage-heading">Usage this month{usage.data ? ` (${usage.data.month}, UTC)` : ''}</h2>
        <PagedList
          list={queryList(
            usage,
            usage.data?.items.map((row) => ({ ...row, id: row.deviceId })),
          )}
          name="api-usage"
          empty="Your keys have not called any device this month."
        >
          <UsageTable items={usage.data?.items ?? []} />
        </PagedList>
        {usage.data && (
          <p className="small" data-testid="api-usage-public">
            {usage.data.publicDevices.limit > 0
              ? `Other people's public devices count against your own allowance: ${usage.data.publicDevices.used} of ${usage.data.publicDevices.limit} requests used (the best tier with API access among your devices).`
              : "Other people's public devices count against your own allowance: none of your devices has a tier with API access yet."}
          </p>
        )}
      </section>

      <section className="card section-card" aria-labelledby="api-howto-heading" data-testid="api-howto">
        <h2 id="api-howto-heading">How to call</h2>
        <p>
          <Link to="/dashboard/api/reference" data-testid="api-reference-link">
            Read the API reference
          </Link>
          : every route, its parameters and answers, and a curl example for each.
        </p>
        <p className="muted small">
          Send the key in the <code>X-Api-Key</code> header. Every answer carries <code>x-ratelimit-limit</code>,{' '}
          <code>x-ratelimit-remaining</code> and <code>x-ratelimit-reset</code> (epoch seconds); over the quota the
          answer is 429 with <code>retry-after</code>. <code>/v1/devices/{'{id}'}/series?from&amp;to&amp;width</code>{' '}
          answers chart data the same way.
        </p>
        <pre className="mono" data-testid="api-howto-curl">
          {curlExample(baseUrl, usage.data?.items[0]?.deviceId)}
        </pre>
      </section>
    </div>
  );
};

const UsageTable = ({ items }: { items: readonly ApiUsage[] }) => (
  <ListTable
    label="API usage per device"
    testId="api-usage-list"
    rows={items}
    rowKey={(row) => row.deviceId}
    rowTestId={(row) => `api-usage-row-${row.deviceId}`}
    columns={[
      {
        header: 'Device',
        cell: (row) => (
          <Link to={`/dashboard/devices/${encodeURIComponent(row.deviceId)}`}>{row.deviceName ?? row.deviceId}</Link>
        ),
      },
      { header: 'Tier', cell: (row) => (row.apiAccess ? row.tier : `${row.tier} (no API access)`) },
      {
        header: 'Used',
        cell: (row) => (
          <>
            {/* A meter turns amber past 70 % and red past 90 %, as the warnings do. */}
            <meter
              min={0}
              max={Math.max(1, row.limit)}
              low={row.limit * 0.7}
              high={row.limit * 0.9}
              optimum={0}
              value={row.used}
              aria-label={`${row.used} of ${row.limit} requests`}
            />{' '}
            <span data-testid={`api-usage-count-${row.deviceId}`}>
              {row.used} / {row.limit} ({usedPercent(row)} %), {row.remaining} left
            </span>
          </>
        ),
      },
      { header: 'Resets', cell: (row) => <When ms={row.resetsAt} /> },
      {
        header: 'Warnings',
        cellData: (row) => ({ 'data-testid': `api-usage-warnings-${row.deviceId}` }),
        cell: (row) =>
          row.warnings.length === 0 ? (
            <span className="muted">None</span>
          ) : (
            <ul className={worstWarning(row)?.threshold === 100 ? 'error' : undefined}>
              {row.warnings.map((warning) => (
                <li key={warning.threshold}>
                  {warningText(warning)}, <When ms={warning.at} />
                </li>
              ))}
            </ul>
          ),
      },
    ]}
  />
);
