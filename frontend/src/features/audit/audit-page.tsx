import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { AuditAction, AuditEntry } from '../../../../shared/audit/audit-entry';
import { AUDIT_RETENTION_DAYS } from '../../../../shared/audit/audit-entry';
import { hasRole } from '../../../../shared/auth/groups';
import { ListTable } from '../../components/list-table';
import { listItem, PagedList } from '../../components/paged-list';
import { errorOf, routeQuery, useRoutePages } from '../../lib/query';
import { useSignedInUser } from '../../lib/session';
import {
  type AuditForm,
  diffOf,
  EMPTY_FORM,
  entryTime,
  formFromParams,
  formToParams,
  looksLikeEmail,
  MAX_DIFF_ROWS,
  outcomeText,
  searchOf,
  targetPath,
} from './audit-rules';
import './audit.css';

const PAGE_SIZE = 25;

/** The actions by area, in the order of the contracts, for the action filter. */
const byArea = (actions: readonly AuditAction[]) =>
  [...new Set(actions.map(({ area }) => area))].map(
    (area) => [area, actions.filter((action) => action.area === area)] as const,
  );

const OUTCOME_LOOKS: Record<AuditEntry['outcome'], { text: string; tone: string }> = {
  succeeded: { text: 'Done', tone: 'success' },
  failed: { text: 'Refused', tone: 'danger' },
  unknown: { text: 'Outcome unknown', tone: 'caution' },
};

/**
 * The person an actor filter names: an id as typed, or the one person with a typed e-mail (looked up among people,
 * GET /users/users/?search=). A deleted person is found by the id their entries show.
 */
const useActorId = (actor: string) => {
  const email = looksLikeEmail(actor) ? actor.trim().toLowerCase() : undefined;
  const lookup = useQuery({
    ...routeQuery('users', 'listUsers', { query: { search: email ?? '', limit: 10 } }),
    enabled: email !== undefined,
  });
  if (!actor.trim()) return { id: undefined, ready: true };
  if (!email) return { id: actor.trim(), ready: true };
  if (lookup.isPending) return { id: undefined, ready: false };
  if (lookup.error) return { id: undefined, ready: true, error: errorOf(lookup) };
  const match = lookup.data?.items.find((person) => person.email?.toLowerCase() === email);
  return match
    ? { id: match.id, ready: true }
    : {
        id: undefined,
        ready: true,
        error: `No person has the e-mail ${email}. Someone whose account was deleted is found by the id their entries show.`,
      };
};

/**
 * `/admin/audit` (Administrators): every staff action the platform recorded (docs/audit.md), newest first, found by
 * who did it, what it was done to, which action and when. Each entry shows who, what, on what, when, and the fields
 * that changed, before and after. The search lives in the address, so a link to it can be shared.
 */
export const AuditPage = () => {
  const allowed = hasRole(useSignedInUser().groups, 'Administrators');
  const [params, setParams] = useSearchParams();
  const applied = useMemo(() => formFromParams(params), [params]);
  const [form, setForm] = useState<AuditForm>(applied);
  // The address as this form last wrote it: the form already shows it. Only another change of the address (back,
  // a link, "Everything on it") refills the form; the router applies ours later, in a transition, and a refill then
  // would wipe what was typed meanwhile (a Clear followed at once by typing lost the typing).
  const written = useRef<string | undefined>(undefined);
  useEffect(() => {
    const ours = written.current === params.toString();
    written.current = undefined;
    if (!ours) setForm(applied);
  }, [applied, params]);
  const write = (next: Record<string, string>) => {
    written.current = new URLSearchParams(next).toString();
    setParams(next);
  };

  const actor = useActorId(applied.actor);
  // The platform's actions change only with a deploy.
  const actions = useQuery({
    ...routeQuery('system', 'listAuditActions', {}),
    enabled: allowed,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const actionGroups = useMemo(() => byArea(actions.data?.items ?? []), [actions.data]);
  const planned = searchOf(applied, actor.id);
  const search = 'search' in planned ? planned.search : undefined;
  const list = useRoutePages(
    'system',
    'searchAudit',
    { body: search ?? {}, query: { limit: PAGE_SIZE } },
    { enabled: allowed && actor.ready && !actor.error && search !== undefined },
  );

  if (!allowed) {
    return (
      <section className="page">
        <h1>Audit log</h1>
        <p className="notice" data-testid="audit-not-allowed">
          Only Administrators read the audit log.
        </p>
      </section>
    );
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    write(formToParams(form));
  };
  const narrow = (change: Partial<AuditForm>) => setParams(formToParams({ ...applied, ...change }));
  const field = (key: keyof AuditForm) => ({
    id: `audit-filter-${key}`,
    'data-testid': `audit-filter-${key}`,
    value: form[key],
    onChange: (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value })),
  });
  const searchError = ('error' in planned ? planned.error : undefined) ?? actor.error;

  return (
    <section className="page audit-page">
      <h1>Audit log</h1>
      <p className="muted">
        Every staff action: who did it, what, on what, when, and what it changed. Entries are never changed or deleted,
        and are kept {AUDIT_RETENTION_DAYS / 365} years.
      </p>

      <form className="card filters" onSubmit={submit} aria-label="Search the audit log" noValidate>
        <div className="audit-filters">
          <div className="field">
            <label htmlFor="audit-filter-actor">Who (e-mail or id)</label>
            <input {...field('actor')} type="search" autoComplete="off" spellCheck={false} />
          </div>
          <div className="field">
            <label htmlFor="audit-filter-target">On what (id)</label>
            <input {...field('target')} type="search" autoComplete="off" spellCheck={false} />
          </div>
          <div className="field">
            <label htmlFor="audit-filter-action">Action</label>
            <select {...field('action')}>
              <option value="">Any action</option>
              {actionGroups.map(([area, actions]) => (
                <optgroup key={area} label={area}>
                  {actions.map(({ action, label }) => (
                    <option key={action} value={action}>
                      {label}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="audit-filter-from">From</label>
            <input {...field('from')} type="datetime-local" />
          </div>
          <div className="field">
            <label htmlFor="audit-filter-to">Until</label>
            <input {...field('to')} type="datetime-local" />
          </div>
        </div>
        <div className="actions">
          <button type="submit" className="primary" data-testid="audit-search">
            Search
          </button>
          <button
            type="button"
            data-testid="audit-clear"
            onClick={() => {
              setForm(EMPTY_FORM);
              write({});
            }}
          >
            Clear
          </button>
        </div>
      </form>

      <PagedList
        list={list}
        name="audit"
        error={searchError}
        loadingText="Loading entries…"
        empty="No entries match this search."
      >
        <ol className="audit-list" aria-label="Audit entries" data-testid="audit-list">
          {list.items.map((entry) => (
            <AuditEntryCard
              key={entry.id}
              entry={entry}
              onActor={(id) => narrow({ actor: id, target: '', action: '' })}
              onTarget={(id) => narrow({ target: id, actor: '', action: '' })}
            />
          ))}
        </ol>
      </PagedList>
    </section>
  );
};

interface EntryProps {
  entry: AuditEntry;
  onActor: (id: string) => void;
  onTarget: (id: string) => void;
}

/** One staff action: who, what, on what, when; the fields it changed; and the request as it was made. */
const AuditEntryCard = ({ entry, onActor, onTarget }: EntryProps) => {
  const look = OUTCOME_LOOKS[entry.outcome];
  const rows = diffOf(entry.before, entry.after);
  const note = outcomeText(entry);
  const path = targetPath(entry.target);
  const targetName = entry.target.label ?? entry.target.id ?? '(none named)';
  const headingId = `audit-${entry.id}-title`;
  return (
    <li {...listItem(entry.id)}>
      <article
        className="card audit-entry"
        aria-labelledby={headingId}
        data-testid={`audit-entry-${entry.id}`}
        data-action={entry.action}
      >
        <header className="audit-entry-head">
          <h2 id={headingId} className="audit-entry-title">
            {entry.label}
          </h2>
          <span className={`badge audit-${look.tone}`}>{look.text}</span>
          <time className="muted small" dateTime={new Date(entry.time).toISOString()}>
            {entryTime(entry)}
          </time>
        </header>
        <dl className="audit-facts">
          <dt>Who</dt>
          <dd data-testid="audit-entry-actor">
            <span>{entry.actor.email ?? entry.actor.id}</span>{' '}
            <span className="muted small">{entry.actor.groups.join(', ') || 'no group'}</span>{' '}
            <button type="button" className="audit-narrow small" onClick={() => onActor(entry.actor.id)}>
              Everything they did
            </button>
          </dd>
          <dt>On what</dt>
          <dd data-testid="audit-entry-target">
            <span className="muted">{entry.target.kind}</span>{' '}
            {path ? <Link to={path}>{targetName}</Link> : <span>{targetName}</span>}
            {entry.target.id && entry.target.label && <code className="audit-id">{entry.target.id}</code>}{' '}
            {entry.target.id && (
              <button type="button" className="audit-narrow small" onClick={() => onTarget(entry.target.id!)}>
                Everything on it
              </button>
            )}
          </dd>
        </dl>
        {note && (
          <p className={entry.outcome === 'failed' ? 'error' : 'notice'} data-testid="audit-entry-outcome">
            {note}
          </p>
        )}
        {rows.length > 0 && (
          <ListTable
            label={`What changed: ${entry.label}`}
            className="table audit-diff"
            testId="audit-entry-diff"
            rows={rows.slice(0, MAX_DIFF_ROWS)}
            rowKey={(row) => row.path}
            rowData={(row) => ({ 'data-kind': row.kind })}
            columns={[
              { header: 'Field', cell: (row) => <code>{row.path}</code> },
              {
                header: 'Before',
                className: 'audit-before',
                cell: (row) => row.before ?? <span className="muted">(none)</span>,
              },
              {
                header: 'After',
                className: 'audit-after',
                cell: (row) => row.after ?? <span className="muted">(none)</span>,
              },
            ]}
          />
        )}
        {rows.length > MAX_DIFF_ROWS && (
          <p className="muted small">{rows.length - MAX_DIFF_ROWS} more fields changed.</p>
        )}
        {rows.length === 0 && entry.outcome === 'succeeded' && (
          <p className="muted small">No field of the target changed (the request is below).</p>
        )}
        <details className="audit-request">
          <summary>Request</summary>
          <p className="small">
            <code>
              {entry.method} {entry.path}
            </code>{' '}
            <span className="muted">
              ({entry.area} · {entry.route} · {entry.action}
              {entry.status !== undefined ? ` · ${entry.status}` : ''})
            </span>
          </p>
          <pre className="audit-json">{JSON.stringify(entry.change, null, 2)}</pre>
          <p className="muted small">
            Request {entry.id}
            {entry.sourceIp ? ` from ${entry.sourceIp}` : ''}
            {entry.userAgent ? ` · ${entry.userAgent}` : ''}
          </p>
        </details>
      </article>
    </li>
  );
};
