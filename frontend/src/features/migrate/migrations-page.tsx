import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { hasRole } from '../../../../shared/auth/groups';
import type { MigrationRun } from '../../../../shared/contracts/migrate';
import { TableScroll } from '../../components/table-scroll';
import { useApi } from '../../lib/api';
import { errorOf, routeKey, routeQuery, useChanges } from '../../lib/query';
import { useSignedInUser } from '../../lib/session';
import { MIGRATION_LOOKS, runByText, runSummary } from './migration-rules';
import './migrations.css';

const formatTime = (ms: number | undefined) =>
  ms === undefined ? '—' : new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * `/admin/migrations`: every data migration in code, in the order they run, with what their runs recorded
 * (docs/migrations.md). A deploy runs them in the cloud, `npm start` locally; Administrators may run what is
 * pending or failed from here.
 */
export const MigrationsPage = () => {
  const migrate = useApi('migrate');
  const canRun = hasRole(useSignedInUser().groups, 'Administrators');
  const list = useQuery(routeQuery('migrate', 'listMigrations', {}));
  const { busy, error, run } = useChanges<'run'>();
  const [last, setLast] = useState<MigrationRun>();

  const runPending = () =>
    void run('run', async () => setLast(await migrate.runMigrations({})), [routeKey('migrate', 'listMigrations')]);

  return (
    <section className="page">
      <h1>Migrations</h1>
      <p className="muted">
        Versioned changes to stored data, each run once and in order: by every deploy in the cloud and every{' '}
        <code>npm start</code> here. A failed one runs again on the next run.
      </p>
      {canRun && (
        <p className="actions">
          <button type="button" className="primary" data-testid="migrations-run" onClick={runPending} disabled={!!busy}>
            {busy === 'run' ? 'Running…' : 'Run pending migrations'}
          </button>
        </p>
      )}
      {last && (
        <p className={last.failed ? 'error' : 'notice'} role="status" data-testid="migrations-run-result">
          {runSummary(last)}
        </p>
      )}
      {(error ?? errorOf(list)) && (
        <p className="error" role="alert" data-testid="migrations-error">
          {error ?? errorOf(list)}
        </p>
      )}
      <TableScroll label="Migrations">
        <table className="table" aria-busy={list.isPending}>
          <thead>
            <tr>
              <th scope="col">Migration</th>
              <th scope="col">Status</th>
              <th scope="col">Rows</th>
              <th scope="col">Started</th>
              <th scope="col">Finished</th>
              <th scope="col">Run by</th>
            </tr>
          </thead>
          <tbody>
            {list.data?.items.map((migration) => {
              const look = MIGRATION_LOOKS[migration.status];
              return (
                <tr key={migration.id} data-testid={`migration-${migration.id}`}>
                  <td>
                    <code className="migration-id">{migration.id}</code>
                    <p className="muted small">{migration.description}</p>
                    {migration.error && (
                      <p className="error small" data-testid={`migration-error-${migration.id}`}>
                        {migration.error}
                      </p>
                    )}
                  </td>
                  <td>
                    <span className={`badge migration-${look.tone}`} data-testid={`migration-status-${migration.id}`}>
                      {look.label}
                    </span>
                  </td>
                  <td className="small">
                    {migration.counts.scanned} read, {migration.counts.updated} changed
                    {migration.counts.skipped > 0 && `, ${migration.counts.skipped} left to look at`}
                  </td>
                  <td className="small">{formatTime(migration.startedAt)}</td>
                  <td className="small">{formatTime(migration.finishedAt)}</td>
                  <td className="small">{runByText(migration.runBy)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableScroll>
      {list.isPending && <p className="muted">Loading migrations…</p>}
    </section>
  );
};
