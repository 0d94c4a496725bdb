import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { isStaff } from '../../../../shared/auth/groups';
import type { Relation } from '../../../../shared/contracts/relations';
import { RELATION_TYPE_INFO, type RelationType } from '../../../../shared/relations/relation-types';
import { useApi } from '../../lib/api';
import { errorMessage } from '../../lib/error-message';
import { useSignedInUser } from '../../lib/session';
import { checkId, checkNewRelation, factsOnReferrer } from './member-controls';
import { type BrowseFilter, browseLoader, filterFromSearch, searchFromFilter } from './relation-browse';
import { guardedKindOf, objectPath } from './relation-groups';
import { removeRelation, upsertRelation } from './relation-list';
import { RELATIONS_MESSAGES } from './relations-messages';
import { usePagedRelations } from './use-paged-relations';

/** An end of a relation, linked to its object's page when it has one. */
const End = ({ kind, id }: { kind: string; id: string }) => {
  const guarded = guardedKindOf(kind);
  return guarded ? <Link to={objectPath(guarded, id)}>{id}</Link> : id;
};

const TypeOptions = ({ types }: { types: readonly RelationType[] }) =>
  types.map((type) => (
    <option key={type} value={type}>
      {type}
    </option>
  ));

interface FilterFormProps {
  initial: BrowseFilter;
  types: readonly RelationType[];
  onApply: (filter: BrowseFilter) => void;
  onInvalid: (message: string) => void;
}

/** The filter being typed; applied (into the address) on submit. */
const FilterForm = ({ initial, types, onApply, onInvalid }: FilterFormProps) => {
  const [type, setType] = useState<string>(initial.type ?? '');
  const [referrer, setReferrer] = useState(initial.referrerId ?? '');
  const [referent, setReferent] = useState(initial.referentId ?? '');

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const filter: BrowseFilter = type ? { type: type as RelationType } : {};
    for (const [text, key] of [
      [referrer, 'referrerId'],
      [referent, 'referentId'],
    ] as const) {
      if (!text.trim()) continue;
      const checked = checkId(text);
      if (!checked.ok) return onInvalid(checked.error);
      filter[key] = checked.value;
    }
    onApply(filter);
  };

  return (
    <form className="inline-form filters" onSubmit={submit} noValidate aria-label="Filter relations">
      <div className="field">
        <label htmlFor="relations-filter-type">Type</label>
        <select
          id="relations-filter-type"
          data-testid="relations-filter-type"
          value={type}
          onChange={(e) => setType(e.target.value)}
        >
          <option value="">All types</option>
          <TypeOptions types={types} />
        </select>
      </div>
      <div className="field">
        <label htmlFor="relations-filter-referrer">Referrer id</label>
        <input
          id="relations-filter-referrer"
          data-testid="relations-filter-referrer"
          className="mono"
          value={referrer}
          onChange={(e) => setReferrer(e.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
      </div>
      <div className="field">
        <label htmlFor="relations-filter-referent">Referent id</label>
        <input
          id="relations-filter-referent"
          data-testid="relations-filter-referent"
          className="mono"
          value={referent}
          onChange={(e) => setReferent(e.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
      </div>
      <button type="submit" className="primary" data-testid="relations-filter-submit">
        Apply
      </button>
      <button type="button" data-testid="relations-filter-clear" onClick={() => onApply({})}>
        Clear
      </button>
    </form>
  );
};

/**
 * `/admin/relations` (staff): every relation, or those of one type, referrer or referent, paged; delete
 * any of them and create new ones. The filter lives in the address (`?type=&referrer=&referent=`), so
 * other pages can link to a filtered view.
 */
export const RelationsPage = () => {
  const relations = useApi('relations');
  const user = useSignedInUser();
  const [search, setSearch] = useSearchParams();
  const filter = useMemo(() => filterFromSearch(search), [search]);
  const list = usePagedRelations(useMemo(() => browseLoader(relations, filter), [relations, filter]));

  const [types, setTypes] = useState<RelationType[]>([]);
  const [newType, setNewType] = useState<RelationType>();
  const [newReferrer, setNewReferrer] = useState('');
  const [newReferent, setNewReferent] = useState('');
  const [busy, setBusy] = useState<string>();
  const [actionError, setActionError] = useState<string>();

  useEffect(() => {
    let active = true;
    relations.listTypes({}).then(
      (infos) => active && setTypes(infos.map((info) => info.type)),
      (failure: unknown) => active && setActionError(errorMessage(failure)),
    );
    return () => {
      active = false;
    };
  }, [relations]);

  const run = async (what: string, action: () => Promise<void>) => {
    setBusy(what);
    setActionError(undefined);
    try {
      await action();
    } catch (failure) {
      setActionError(errorMessage(failure));
    } finally {
      setBusy(undefined);
    }
  };

  const apply = (next: BrowseFilter) => {
    setActionError(undefined);
    setSearch(searchFromFilter(next));
  };

  const createType = newType ?? types[0];
  const create = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!createType) return;
    const facts = factsOnReferrer(user.id, isStaff(user.groups), []);
    const checked = checkNewRelation(createType, newReferrer, newReferent, facts);
    if (!checked.ok) return setActionError(checked.error);
    void run('create', async () => {
      const created = await relations.create({ body: checked.value });
      list.update((shown) => upsertRelation(shown, created));
      setNewReferrer('');
      setNewReferent('');
    });
  };

  const remove = ({ id }: Relation) => {
    if (!window.confirm(RELATIONS_MESSAGES.deleteConfirm(id))) return;
    void run(id, async () => {
      await relations.delete({ params: { id } });
      list.update((shown) => removeRelation(shown, id));
    });
  };

  const error = actionError ?? list.error;

  return (
    <section className="page">
      <h1>Relations</h1>

      {error && (
        <p className="error" role="alert" data-testid="relations-error">
          {error}
        </p>
      )}

      <FilterForm key={search.toString()} initial={filter} types={types} onApply={apply} onInvalid={setActionError} />

      <form className="card create-form" onSubmit={create} noValidate aria-labelledby="relations-create-heading">
        <h2 id="relations-create-heading">New relation</h2>
        <div className="field">
          <label htmlFor="relations-create-type">Type</label>
          <select
            id="relations-create-type"
            data-testid="relations-create-type"
            value={createType ?? ''}
            onChange={(e) => setNewType(e.target.value as RelationType)}
          >
            <TypeOptions types={types} />
          </select>
        </div>
        <div className="field">
          <label htmlFor="relations-create-referrer">
            Referrer id{createType && ` (${RELATION_TYPE_INFO[createType].referrer})`}
          </label>
          <input
            id="relations-create-referrer"
            data-testid="relations-create-referrer"
            className="mono"
            value={newReferrer}
            onChange={(e) => setNewReferrer(e.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
        </div>
        <div className="field">
          <label htmlFor="relations-create-referent">
            Referent id{createType && ` (${RELATION_TYPE_INFO[createType].referent})`}
          </label>
          <input
            id="relations-create-referent"
            data-testid="relations-create-referent"
            className="mono"
            value={newReferent}
            onChange={(e) => setNewReferent(e.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
        </div>
        <button
          type="submit"
          className="primary"
          data-testid="relations-create-submit"
          disabled={!createType || busy === 'create'}
        >
          {busy === 'create' ? 'Creating…' : 'Create'}
        </button>
      </form>

      <div className="table-wrap">
        <table className="table" aria-busy={list.loading === 'first'} aria-label="Relations">
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col">Referrer</th>
              <th scope="col">Referent</th>
              <th scope="col">Created</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((relation) => {
              const { id, type, referrerId, referentId, created, createdBy } = relation;
              const info = RELATION_TYPE_INFO[type];
              return (
                <tr key={id} data-testid={`relations-row-${id}`}>
                  <th scope="row">{type}</th>
                  <td data-label="Referrer" className="mono">
                    <End kind={info.referrer} id={referrerId} />
                  </td>
                  <td data-label="Referent" className="mono">
                    <End kind={info.referent} id={referentId} />
                  </td>
                  <td data-label="Created" title={createdBy ? `by ${createdBy}` : undefined}>
                    {created ? (
                      <time dateTime={new Date(created).toISOString()}>{new Date(created).toLocaleString()}</time>
                    ) : (
                      <span className="muted">unknown</span>
                    )}
                  </td>
                  <td data-label="Actions">
                    <button
                      type="button"
                      className="danger"
                      data-testid={`relations-delete-${id}`}
                      aria-label={`Delete ${id}`}
                      onClick={() => remove(relation)}
                      disabled={busy === id}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>

      {list.loading === 'first' && <p className="muted">Loading relations…</p>}
      {list.loaded && list.items.length === 0 && !list.nextCursor && (
        <p className="muted" data-testid="relations-empty">
          {RELATIONS_MESSAGES.noRelations}
        </p>
      )}
      {list.nextCursor && (
        <button
          type="button"
          className="load-more"
          data-testid="relations-load-more"
          onClick={() => void list.loadMore()}
          disabled={list.loading !== undefined}
        >
          {list.loading === 'more' ? 'Loading…' : 'Load more'}
        </button>
      )}
    </section>
  );
};
