import type { Relation } from '../../../../shared/contracts/relations';
import type { ChangeFacts } from '../../../../shared/relations/relation-rules';
import { type GuardedKind, RELATION_TYPE_INFO, type RelationType } from '../../../../shared/relations/relation-types';
import { PersonName } from '../../components/person-name';
import { PersonSignIn } from '../../components/person-sign-in';
import { nameKey } from '../../lib/object-names';
import { personLabel, usePersonName } from '../../lib/person-names';
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
  /** Names of the shown ends, by lib/object-names' key; an end without one shows its id. */
  names?: ReadonlyMap<string, string>;
  list: PagedRelations;
  loadMoreTestId: string;
  empty: string;
  facts: ChangeFacts;
  showRole: boolean;
  /**
   * Adds "Signs in with" for the people listed: set where the viewer is told it (an organization's managers and
   * staff), so others see no column of blanks.
   */
  showSignIn?: boolean;
  /** The relation whose change is under way: its controls wait. */
  busy?: string;
  onRemove: (relation: Relation) => void;
  onChangeRole: (relation: Relation, to: RelationType) => void;
}

const SIGNS_IN_WITH = 'Signs in with';

/** One list of the members panel: a row per relation, its role and the controls the rules allow. */
export const RelationRows = ({
  testId,
  title,
  endHeading,
  end,
  endKind,
  names,
  list,
  loadMoreTestId,
  empty,
  facts,
  showRole,
  showSignIn = false,
  busy,
  onRemove,
  onChangeRole,
}: RelationRowsProps) => {
  const headingId = `${testId}-heading`;
  const personAt = (relation: Relation) => RELATION_TYPE_INFO[relation.type][end] === 'user';
  return (
    <section className="panel" aria-labelledby={headingId} data-testid={testId}>
      <h2 id={headingId}>{title}</h2>
      <PagedTable
        list={list}
        labelledBy={headingId}
        columns={[endHeading, showRole && 'Role', showSignIn && SIGNS_IN_WITH, 'Actions']}
        loadingText="Loading…"
        empty={empty}
        loadMoreTestId={loadMoreTestId}
        row={(relation) => {
          const { id } = relation;
          const endId = end === 'referrer' ? relation.referrerId : relation.referentId;
          const controls = rowControls(relation, facts);
          const you = endId === facts.callerId;
          const person = personAt(relation);
          return (
            <tr key={id} data-testid={`members-row-${id}`}>
              <th scope="row" className={person ? undefined : 'mono'}>
                {person ? (
                  <PersonName id={endId} />
                ) : (
                  <ObjectLink kind={endKind} id={endId} name={endKind && names?.get(nameKey(endKind, endId))} />
                )}
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
                        Role of {person ? <PersonText id={endId} /> : endId}
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
              {showSignIn && (
                <td data-label={SIGNS_IN_WITH}>
                  {person && <PersonSignIn id={endId} testId={`members-sign-in-${id}`} />}
                </td>
              )}
              <td data-label="Actions">
                {controls.canRemove && (
                  <SubjectButton
                    personId={person ? endId : undefined}
                    testId={`members-remove-${id}`}
                    action="Remove"
                    subject={endId}
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

/** A person's name as plain text (for labels read by screen readers); the names of a list come in one request. */
const PersonText = ({ id }: { id: string }) => personLabel(usePersonName(id).name);

/** A row's destructive action, named with the person's name where the row is a person, never their id. */
const SubjectButton = ({
  personId,
  subject,
  ...button
}: Parameters<typeof DangerButton>[0] & { personId?: string }) => {
  const { name } = usePersonName(personId);
  return <DangerButton {...button} subject={personId ? personLabel(name) : subject} />;
};
