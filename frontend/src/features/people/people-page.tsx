import { type QueryKey, useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common';
import type { IdentityUser } from '../../../../shared/contracts/users';
import { GroupTags } from '../../components/group-tags';
import { ListTable } from '../../components/list-table';
import { PagedList } from '../../components/paged-list';
import { apiClient } from '../../lib/api';
import { personName } from '../../lib/person-name';
import { type ListLoader, routeKey, routeQuery, useChanges, usePagedQuery } from '../../lib/query';
import { useGroupList } from './people-api';
import { PEOPLE_MESSAGES } from './people-messages';
import {
  type PeopleQuery,
  type PeopleSearch,
  peopleQuery,
  STATUS_TEXT,
  searchFromParams,
  searchToParams,
} from './people-rules';
import { PersonActions, type PersonBusy } from './person-actions';
import { EnabledText } from './person-parts';
import './people.css';
import { DoneNote, ErrorAlert } from '../../components/form-parts';

/** Who is in which group, by person. */
const groupsByPerson = ({ groups }: { groups: Record<string, IdentityUser[]> }) => {
  const map = new Map<string, string[]>();
  for (const [group, members] of Object.entries(groups)) {
    for (const member of members) map.set(member.id, [...(map.get(member.id) ?? []), group]);
  }
  return map;
};

/** The list a search stands for: its key (the route and request, the cursor aside) and how it reads a page. */
const peopleList = (query: PeopleQuery): { key: QueryKey; load: ListLoader<IdentityUser> } => {
  const users = apiClient('users');
  switch (query.kind) {
    case 'group': {
      const request = { params: { group: query.group }, query: { limit: DEFAULT_PAGE_SIZE } };
      return {
        key: routeKey('users', 'listUsersInGroup', request),
        load: (cursor) => users.listUsersInGroup({ ...request, query: { ...request.query, cursor } }),
      };
    }
    case 'name': {
      // The name filter answers in one go (no cursor).
      const request = { params: { first: query.first, last: query.last } };
      return {
        key: routeKey('users', 'filterUsersByFirstLast', request),
        load: () => users.filterUsersByFirstLast(request),
      };
    }
    default: {
      const request = { query: { limit: DEFAULT_PAGE_SIZE, search: query.search } };
      return {
        key: routeKey('users', 'listUsers', request),
        load: (cursor) => users.listUsers({ query: { ...request.query, cursor } }),
      };
    }
  }
};

/**
 * `/admin/people` (staff): everyone, by e-mail prefix, by first and last name, or by group; each person's
 * status, groups and the staff controls. The search lives in the address, so it survives a reload and a
 * link to it can be shared.
 */
export const PeoplePage = () => {
  const [params, setParams] = useSearchParams();
  const search = useMemo(() => searchFromParams(params), [params]);
  const [form, setForm] = useState<PeopleSearch>(search);
  const { busy, error, run } = useChanges<PersonBusy>();
  // A person deleted on their page comes back here with a note saying so.
  const arrival = useLocation().state as { note?: string } | null;
  const [note, setNote] = useState<string | undefined>(arrival?.note);
  const groupList = useGroupList();

  useEffect(() => setForm(search), [search]);

  const list = peopleList(peopleQuery(search));
  const people = usePagedQuery(list.key, list.load);
  // List reads carry no groups (one more call per person); one read of every group's members fills them in.
  const groupsOf = useQuery({ ...routeQuery('users', 'usersByGroups', {}), select: groupsByPerson });
  const groupsError = groupsOf.error ? 'Groups could not be read; open a person to see theirs.' : undefined;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setNote(undefined);
    setParams(searchToParams(form));
  };

  const clear = () => {
    setForm({});
    setParams({});
  };

  const field = (key: keyof PeopleSearch) => ({
    id: `people-filter-${key}`,
    'data-testid': `people-filter-${key}`,
    value: form[key] ?? '',
    onChange: (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value })),
  });

  const groupsFor = (person: IdentityUser) => person.groups ?? groupsOf.data?.get(person.id);

  return (
    <section className="page">
      <h1>People</h1>

      <form className="card filters" onSubmit={submit} aria-label="Find people" noValidate>
        <div className="inline-form">
          <div className="field">
            <label htmlFor="people-filter-email">E-mail starts with</label>
            <input {...field('email')} type="search" autoComplete="off" spellCheck={false} />
          </div>
          <div className="field">
            <label htmlFor="people-filter-first">First name starts with</label>
            <input {...field('first')} autoComplete="off" />
          </div>
          <div className="field">
            <label htmlFor="people-filter-last">Last name starts with</label>
            <input {...field('last')} autoComplete="off" />
          </div>
          <div className="field">
            <label htmlFor="people-filter-group">Group</label>
            <select {...field('group')}>
              <option value="">Any group</option>
              {groupList.groups.map((group) => (
                <option key={group.GroupName} value={group.GroupName}>
                  {group.GroupName} ({group.Precedence})
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="primary" data-testid="people-filter-submit">
            Search
          </button>
          <button type="button" data-testid="people-filter-clear" onClick={clear}>
            Clear
          </button>
        </div>
        <p className="muted small">A group wins over names, and names over the e-mail; an empty name matches anyone.</p>
      </form>

      <ErrorAlert testId="people-error" error={error ?? people.error} />
      {groupList.error && (
        <p className="muted small" data-testid="people-groups-cache-error">
          {groupList.error}
        </p>
      )}
      <DoneNote text={note} testId="people-done" />
      {groupsError && <p className="muted small">{groupsError}</p>}

      <PagedList
        list={people}
        name="people"
        errorShownAbove
        loadingText={PEOPLE_MESSAGES.loading}
        empty={PEOPLE_MESSAGES.noPeople}
      >
        <ListTable
          label="People"
          testId="people-list"
          rows={people.items}
          rowKey={(person) => person.id}
          rowTestId={(person) => `people-row-${person.id}`}
          columns={[
            {
              header: 'Name',
              cell: (person) => (
                <Link to={`/admin/people/${encodeURIComponent(person.id)}`} data-testid={`people-link-${person.id}`}>
                  {personName(person)}
                </Link>
              ),
            },
            { header: 'E-mail', cell: (person) => person.email ?? <span className="muted">—</span> },
            {
              header: 'Status',
              cell: (person) => (
                <>
                  <EnabledText enabled={person.enabled} testId={`people-enabled-${person.id}`} />
                  <div className="muted small">{STATUS_TEXT[person.status]}</div>
                </>
              ),
            },
            {
              header: 'Groups',
              cell: (person) =>
                groupsFor(person) ? (
                  <GroupTags groups={groupsFor(person)} testId={`people-groups-${person.id}`} />
                ) : (
                  <span className="muted">…</span>
                ),
            },
            {
              header: 'Actions',
              cell: (person) => (
                <PersonActions
                  person={person}
                  busy={busy}
                  run={run}
                  onDone={(text) => setNote(`${personName(person)}: ${text}`)}
                />
              ),
            },
          ]}
        />
      </PagedList>
    </section>
  );
};
