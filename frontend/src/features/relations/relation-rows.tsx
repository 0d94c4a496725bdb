import type { Relation } from '../../../../shared/contracts/relations';
import type { ChangeFacts } from '../../../../shared/relations/relation-rules';
import { type GuardedKind, RELATION_TYPE_INFO, type RelationType } from '../../../../shared/relations/relation-types';
import { PersonName } from '../../components/person-name';
import { personLabel, usePersonNames } from '../../lib/person-names';
import { rowControls } from './member-controls';
import { TypeOptions } from './relation-fields';
import { DangerButton, ObjectLink, PagedTable } from './relation-table';
import type { PagedRelations } from './relations-api';

export interface RelationRowsProps {
  testId: string;
  title: string;
  /** Heading of the column naming the other end, e.g. "Member" or "Device". */
  endHeading: string;
  /** Which end of each relation the row names: the object on screen is the other one. */
  end: 'referrer' | 'referent';
  /** Set when the shown end has a page to link to. */
  endKind?: GuardedKind;
  list: PagedRelations;
  loadMoreTestId: string;
  empty: string;
  facts: ChangeFacts;
  showRole: boolean;
  /** The relation whose change is under way: its controls wait. */
  busy?: string;
  onRemove: (relation: Relation) => void;
  onChangeRole: (relation: Relation, to: RelationType) => void;
}

/** One list of the members panel: a row per relation, its role and the controls the rules allow. */
export const RelationRows = ({
  testId,
  title,
  endHeading,
  end,
  endKind,
  list,
  loadMoreTestId,
  empty,
  facts,
  showRole,
  busy,
  onRemove,
  onChangeRole,
}: RelationRowsProps) => {
  const headingId = `${testId}-heading`;
  const personAt = (relation: Relation) => RELATION_TYPE_INFO[relation.type][end] === 'user';
  // One request for the whole list's names; a row's controls are named with the person's name, never their id.
  const names = usePersonNames(
    list.items.filter(personAt).map((relation) => (end === 'referrer' ? relation.referrerId : relation.referentId)),
  );
  return (
    <section className="panel" aria-labelledby={headingId} data-testid={testId}>
      <h2 id={headingId}>{title}</h2>
      <PagedTable
        list={list}
        labelledBy={headingId}
        columns={[endHeading, showRole && 'Role', 'Actions']}
        loadingText="Loading…"
        empty={empty}
        loadMoreTestId={loadMoreTestId}
        row={(relation) => {
          const { id } = relation;
          const endId = end === 'referrer' ? relation.referrerId : relation.referentId;
          const controls = rowControls(relation, facts);
          const you = endId === facts.callerId;
          const person = personAt(relation);
          const subject = person ? personLabel(names.get(endId)) : endId;
          return (
            <tr key={id} data-testid={`members-row-${id}`}>
              <th scope="row" className={person ? undefined : 'mono'}>
                {person ? <PersonName id={endId} /> : <ObjectLink kind={endKind} id={endId} />}
                {you && (
                  <span className="you" data-testid="members-you">
                    you
                  </span>
                )}
              </th>
              {showRole && (
                <td data-label="Role">
                  {controls.roles.length > 1 ? (
                    <>
                      <label className="visually-hidden" htmlFor={`members-role-${id}`}>
                        Role of {subject}
                      </label>
                      <select
                        id={`members-role-${id}`}
                        data-testid={`members-role-${id}`}
                        value={relation.type}
                        onChange={(e) => onChangeRole(relation, e.target.value as RelationType)}
                        disabled={busy === id}
                      >
                        <TypeOptions types={controls.roles} />
                      </select>
                    </>
                  ) : (
                    <span data-testid={`members-role-${id}`}>{relation.type}</span>
                  )}
                </td>
              )}
              <td data-label="Actions">
                {controls.canRemove && (
                  <DangerButton
                    testId={`members-remove-${id}`}
                    action="Remove"
                    subject={subject}
                    onClick={() => onRemove(relation)}
                    disabled={busy === id}
                  />
                )}
              </td>
            </tr>
          );
        }}
      />
    </section>
  );
};
