import { type FormEvent, useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common';
import type { IdentityUser } from '../../../../shared/contracts/users';
import { TableScroll } from '../../components/table-scroll';
import { useApi } from '../../lib/api';
import { LoadMoreButton } from '../../lib/load-more-button';
import { useAction } from '../../lib/use-action';
import { type ListLoader, usePagedList } from '../../lib/use-paged-list';
import { ErrorAlert } from '../relations/relation-fields';
import { DoneNote } from './paged-parts';
import { PEOPLE_MESSAGES } from './people-messages';
import {
  type PeopleSearch,
  peopleQuery,
  personName,
  replacePerson,
  STATUS_TEXT,
  searchFromParams,
  searchToParams,
} from './people-rules';
import { PersonActions, type PersonBusy } from './person-actions';
import { EnabledText, GroupTags } from './person-parts';
import { useGroupList } from './use-group-list';
import './people.css';

/**
 * `/admin/people` (staff): everyone, by e-mail prefix, by first and last name, or by group; each person's
 * status, groups and the staff controls. The search lives in the address, so it survives a reload and a
 * link to it can be shared.
 */
export const PeoplePage = () => {
  const users = useApi('users');
  const [params, setParams] = useSearchParams();
  const search = useMemo(() => searchFromParams(params), [params]);
  const [form, setForm] = useState<PeopleSearch>(search);
  const { busy, error, run } = useAction<PersonBusy>();
  // A person deleted on their page comes back here with a note saying so.
  const arrival = useLocation().state as { note?: string } | null;
  const [note, setNote] = useState<string | undefined>(arrival?.note);
  const [groupsOf, setGroupsOf] = useState<Map<string, string[]>>();
  const [groupsError, setGroupsError] = useState<string>();
  const groupList = useGroupList();

  useEffect(() => setForm(search), [search]);

  const query = useMemo(() => peopleQuery(search), [search]);
  const load = useCallback<ListLoader<IdentityUser>>(
    async (cursor) => {
      switch (query.kind) {
        case 'group':
          return users.listUsersInGroup({
            params: { group: query.group },
            query: { limit: DEFAULT_PAGE_SIZE, cursor },
          });
        case 'name':
          // The name filter answers in one go (no cursor).
          return users.filterUsersByFirstLast({ params: { first: query.first, last: query.last } });
        default:
          return users.listUsers({ query: { limit: DEFAULT_PAGE_SIZE, cursor, search: query.search } });
      }
    },
    [users, query],
  );
  const people = usePagedList(load);

  // List reads carry no groups (one more call per person); one read of every group's members fills them in.
  useEffect(() => {
    let active = true;
    users.usersByGroups({}).then(
      ({ groups }) => {
        if (!active) return;
        const map = new Map<string, string[]>();
        for (const [group, members] of Object.entries(groups)) {
          for (const member of members) map.set(member.id, [...(map.get(member.id) ?? []), group]);
        }
        setGroupsOf(map);
      },
      () => active && setGroupsError('Groups could not be read; open a person to see theirs.'),
    );
    return () => {
      active = false;
    };
  }, [users]);

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

  const groupsFor = (person: IdentityUser) => person.groups ?? groupsOf?.get(person.id);

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

      <TableScroll label="People">
        <table className="table" aria-label="People" aria-busy={people.loading === 'first'}>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">E-mail</th>
              <th scope="col">Status</th>
              <th scope="col">Groups</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {people.items.map((person) => (
              <tr key={person.id} data-testid={`people-row-${person.id}`}>
                <th scope="row">
                  <Link to={`/admin/people/${encodeURIComponent(person.id)}`} data-testid={`people-link-${person.id}`}>
                    {personName(person)}
                  </Link>
                </th>
                <td data-label="E-mail">{person.email ?? <span className="muted">—</span>}</td>
                <td data-label="Status">
                  <EnabledText enabled={person.enabled} testId={`people-enabled-${person.id}`} />
                  <div className="muted small">{STATUS_TEXT[person.status]}</div>
                </td>
                <td data-label="Groups">
                  {groupsFor(person) ? (
                    <GroupTags groups={groupsFor(person)} testId={`people-groups-${person.id}`} />
                  ) : (
                    <span className="muted">…</span>
                  )}
                </td>
                <td data-label="Actions">
                  <PersonActions
                    person={person}
                    busy={busy}
                    run={run}
                    onDone={({ enabled, note: text }) => {
                      if (enabled !== undefined) {
                        people.update((shown) => replacePerson(shown, person.id, (p) => ({ ...p, enabled })));
                      }
                      setNote(`${personName(person)}: ${text}`);
                    }}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {people.loading === 'first' && <p className="muted">{PEOPLE_MESSAGES.loading}</p>}
      {people.loaded && people.items.length === 0 && !people.nextCursor && (
        <p className="muted" data-testid="people-empty">
          {PEOPLE_MESSAGES.noPeople}
        </p>
      )}
      <LoadMoreButton list={people} testId="people-load-more" />
    </section>
  );
};
