import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { hasRole } from '../../../../shared/auth/groups';
import type { MigrationRun } from '../../../../shared/contracts/migrate';
import { ListTable } from '../../components/list-table';
import { PagedList } from '../../components/paged-list';
import { useApi } from '../../lib/api';
import { queryList, routeKey, routeQuery, useChanges } from '../../lib/query';
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
      <PagedList
        list={queryList(list, list.data?.items)}
        name="migrations"
        error={error}
        loadingText="Loading migrations…"
      >
        <ListTable
          label="Migrations"
          rows={list.data?.items ?? []}
          rowKey={(migration) => migration.id}
          rowTestId={(migration) => `migration-${migration.id}`}
          columns={[
            {
              header: 'Migration',
              className: 'migration-name',
              cell: (migration) => (
                <>
                  <code className="migration-id">{migration.id}</code>
                  <p className="muted small">{migration.description}</p>
                  {migration.error && (
                    <p className="error small" data-testid={`migration-error-${migration.id}`}>
                      {migration.error}
                    </p>
                  )}
                </>
              ),
            },
            {
              header: 'Status',
              cell: (migration) => (
                <span
                  className={`badge migration-${MIGRATION_LOOKS[migration.status].tone}`}
                  data-testid={`migration-status-${migration.id}`}
                >
                  {MIGRATION_LOOKS[migration.status].label}
                </span>
              ),
            },
            {
              header: 'Rows',
              className: 'small',
              cell: (migration) => (
                <>
                  {migration.counts.scanned} read, {migration.counts.updated} changed
                  {migration.counts.skipped > 0 && `, ${migration.counts.skipped} left to look at`}
                </>
              ),
            },
            { header: 'Started', className: 'small', cell: (migration) => formatTime(migration.startedAt) },
            { header: 'Finished', className: 'small', cell: (migration) => formatTime(migration.finishedAt) },
            { header: 'Run by', className: 'small', cell: (migration) => runByText(migration.runBy) },
          ]}
        />
      </PagedList>
    </section>
  );
};
