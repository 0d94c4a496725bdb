import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { isStaff } from '../../../../shared/auth/groups';
import type { NamedKind, Relation } from '../../../../shared/contracts/relations';
import { RELATION_TYPE_INFO, type RelationType } from '../../../../shared/relations/relation-types';
import { ErrorAlert, SubmitButton } from '../../components/form-parts';
import { ListTable } from '../../components/list-table';
import { ObjectPicker } from '../../components/object-picker';
import { PagedList } from '../../components/paged-list';
import { PersonName } from '../../components/person-name';
import type { PickedPerson } from '../../components/person-picker';
import { PersonPicker } from '../../components/person-picker-lazy';
import { usePickableObjects } from '../../components/use-pickable-objects';
import { type NamedObjectRef, nameKey, useObjectNames } from '../../lib/object-names';
import { errorOf, routeQuery } from '../../lib/query';
import { useSignedInUser } from '../../lib/session';
import { checkId, checkNewRelation, factsOnReferrer } from './member-controls';
import { type BrowseFilter, filterFromSearch, searchFromFilter } from './relation-browse';
import { IdField, SelectField, TypeOptions } from './relation-fields';
import { DangerButton, ObjectLink } from './relation-table';
import { browseList, useRelationList } from './relations-api';
import { RELATIONS_MESSAGES } from './relations-messages';
import { useRelationChanges } from './use-relation-changes';

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
      <SelectField id="relations-filter-type" label="Type" value={type} onChange={setType}>
        <option value="">All types</option>
        <TypeOptions types={types} />
      </SelectField>
      <IdField id="relations-filter-referrer" label="Referrer id" value={referrer} onChange={setReferrer} />
      <IdField id="relations-filter-referent" label="Referent id" value={referent} onChange={setReferent} />
      <button type="submit" className="primary" data-testid="relations-filter-submit">
        Apply
      </button>
      <button type="button" data-testid="relations-filter-clear" onClick={() => onApply({})}>
        Clear
      </button>
    </form>
  );
};

const isNamedKind = (kind: string): kind is NamedKind =>
  kind === 'device' || kind === 'organization' || kind === 'campaign';

/** An end of the new relation: picked by name when it is a device, organization or campaign, else a typed id. */
const EndField = ({
  id,
  label,
  pickable,
  value,
  onChange,
}: {
  id: string;
  label: string;
  pickable: ReturnType<typeof usePickableObjects>;
  value: string;
  onChange: (value: string) => void;
}) =>
  pickable ? (
    <ObjectPicker
      id={id}
      label={label.replace(/ id \(/, ' (')}
      value={value}
      onChange={onChange}
      options={pickable.options}
      loading={pickable.loading}
    />
  ) : (
    <IdField id={id} label={label} value={value} onChange={onChange} />
  );

const NO_TYPES: RelationType[] = [];
const typesOf = (infos: { type: RelationType }[]) => infos.map((info) => info.type);

/**
 * `/admin/relations` (staff): every relation, or those of one type, referrer or referent, paged; delete
 * any of them and create new ones. The filter lives in the address (`?type=&referrer=&referent=`), so
 * other pages can link to a filtered view.
 */
export const RelationsPage = () => {
  const user = useSignedInUser();
  const [search, setSearch] = useSearchParams();
  const filter = useMemo(() => filterFromSearch(search), [search]);
  const list = useRelationList(browseList(filter));
  const changes = useRelationChanges();
  const { busy, setError } = changes;
  const typeList = useQuery({
    ...routeQuery('relations', 'listTypes', {}),
    select: typesOf,
    // The types are the contract's: read once.
    staleTime: Number.POSITIVE_INFINITY,
    refetchInterval: false,
  });
  const types = typeList.data ?? NO_TYPES;

  const [newType, setNewType] = useState<RelationType>();
  const [newReferrer, setNewReferrer] = useState('');
  const [newReferent, setNewReferent] = useState('');
  // Where an end is a person, they are picked by name (the directory is staff's to search), never typed as an id.
  const [pickedReferrer, setPickedReferrer] = useState<PickedPerson>();
  const [pickedReferent, setPickedReferent] = useState<PickedPerson>();
  const [pickerKey, setPickerKey] = useState(0);

  const apply = (next: BrowseFilter) => {
    setError(undefined);
    setSearch(searchFromFilter(next));
  };

  const createType = newType ?? types[0];
  const referrerOptions = usePickableObjects(createType && RELATION_TYPE_INFO[createType].referrer);
  const referentOptions = usePickableObjects(createType && RELATION_TYPE_INFO[createType].referent);
  const names = useObjectNames(
    list.items.flatMap(({ type, referrerId, referentId }) => {
      const ends: NamedObjectRef[] = [];
      const { referrer, referent } = RELATION_TYPE_INFO[type];
      if (isNamedKind(referrer)) ends.push({ kind: referrer, id: referrerId });
      if (isNamedKind(referent)) ends.push({ kind: referent, id: referentId });
      return ends;
    }),
  );
  const nameOf = (kind: string, id: string) => (isNamedKind(kind) ? names.get(nameKey(kind, id)) : undefined);
  const endCell = (relation: Relation, end: 'referrer' | 'referent') => {
    const kind = RELATION_TYPE_INFO[relation.type][end];
    const id = end === 'referrer' ? relation.referrerId : relation.referentId;
    return kind === 'user' ? <PersonName id={id} /> : <ObjectLink kind={kind} id={id} name={nameOf(kind, id)} />;
  };
  const endLabel = (end: 'referrer' | 'referent', text: string) =>
    createType ? `${text} (${RELATION_TYPE_INFO[createType][end]})` : text;
  const personEnd = (end: 'referrer' | 'referent') =>
    createType !== undefined && RELATION_TYPE_INFO[createType][end] === 'user';
  const create = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!createType) return;
    const facts = factsOnReferrer(user.id, isStaff(user.groups), []);
    const idOf = (end: 'referrer' | 'referent', typed: string, picked: PickedPerson | undefined) =>
      personEnd(end) ? (picked?.kind === 'person' ? picked.id : '') : typed;
    const ends = [
      idOf('referrer', newReferrer, pickedReferrer),
      idOf('referent', newReferent, pickedReferent),
    ] as const;
    changes.create('create', checkNewRelation(createType, ends[0], ends[1], facts), () => {
      setNewReferrer('');
      setNewReferent('');
      setPickedReferrer(undefined);
      setPickedReferent(undefined);
      setPickerKey((key) => key + 1);
    });
  };

  return (
    <section className="page">
      <h1>Relations</h1>

      <ErrorAlert testId="relations-error" error={changes.error ?? list.error ?? errorOf(typeList)} />

      <FilterForm key={search.toString()} initial={filter} types={types} onApply={apply} onInvalid={setError} />

      <form className="card create-form" onSubmit={create} noValidate aria-labelledby="relations-create-heading">
        <h2 id="relations-create-heading">New relation</h2>
        <SelectField
          id="relations-create-type"
          label="Type"
          value={createType ?? ''}
          onChange={(type) => setNewType(type as RelationType)}
        >
          <TypeOptions types={types} />
        </SelectField>
        {personEnd('referrer') ? (
          <PersonPicker
            key={`referrer-${pickerKey}`}
            id="relations-create-referrer"
            label={endLabel('referrer', 'Referrer')}
            value={pickedReferrer}
            onChange={setPickedReferrer}
          />
        ) : (
          <EndField
            id="relations-create-referrer"
            label={endLabel('referrer', 'Referrer id')}
            pickable={referrerOptions}
            value={newReferrer}
            onChange={setNewReferrer}
          />
        )}
        {personEnd('referent') ? (
          <PersonPicker
            key={`referent-${pickerKey}`}
            id="relations-create-referent"
            label={endLabel('referent', 'Referent')}
            value={pickedReferent}
            onChange={setPickedReferent}
          />
        ) : (
          <EndField
            id="relations-create-referent"
            label={endLabel('referent', 'Referent id')}
            pickable={referentOptions}
            value={newReferent}
            onChange={setNewReferent}
          />
        )}
        <SubmitButton
          testId="relations-create-submit"
          busy={busy === 'create'}
          busyText="Creating…"
          disabled={!createType}
        >
          Create
        </SubmitButton>
      </form>

      <PagedList
        list={list}
        name="relations"
        errorShownAbove
        loadingText="Loading relations…"
        empty={RELATIONS_MESSAGES.noRelations}
      >
        <ListTable
          label="Relations"
          rows={list.items}
          rowKey={(relation) => relation.id}
          rowTestId={(relation) => `relations-row-${relation.id}`}
          columns={[
            { header: 'Type', cell: (relation) => relation.type },
            { header: 'Referrer', className: 'mono', cell: (relation) => endCell(relation, 'referrer') },
            { header: 'Referent', className: 'mono', cell: (relation) => endCell(relation, 'referent') },
            {
              header: 'Created',
              cell: ({ created, createdBy }) => (
                <>
                  {created ? (
                    <time dateTime={new Date(created).toISOString()}>{new Date(created).toLocaleString()}</time>
                  ) : (
                    <span className="muted">unknown</span>
                  )}
                  {createdBy && (
                    <span className="small muted">
                      {' by '}
                      <PersonName id={createdBy} withEmail={false} />
                    </span>
                  )}
                </>
              ),
            },
            {
              header: 'Actions',
              cell: (relation) => (
                <DangerButton
                  testId={`relations-delete-${relation.id}`}
                  action="Delete"
                  subject={relation.id}
                  onClick={() => changes.remove(relation, RELATIONS_MESSAGES.deleteConfirm(relation.id))}
                  disabled={busy === relation.id}
                />
              ),
            },
          ]}
        />
      </PagedList>
    </section>
  );
};
