import type { Relation } from '../../../../shared/contracts/relations';
import type { ChangeFacts } from '../../../../shared/relations/relation-rules';
import { type GuardedKind, RELATION_TYPE_INFO, type RelationType } from '../../../../shared/relations/relation-types';
import { ListTable } from '../../components/list-table';
import { PagedList } from '../../components/paged-list';
import { PersonName } from '../../components/person-name';
import { PersonSignIn } from '../../components/person-sign-in';
import { nameKey } from '../../lib/object-names';
import { personLabel, usePersonName } from '../../lib/person-names';
import { rowControls } from './member-controls';
import { TypeOptions } from './relation-fields';
import { DangerButton, ObjectLink } from './relation-table';
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
  /** Names the list's parts: the test ids `{name}-error`, `{name}-empty`, `{name}-load-more`. */
  name: string;
  /** The panel shows the list's failure in its own alert, above. */
  errorShownAbove?: boolean;
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
  name,
  errorShownAbove,
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
  const endOf = (relation: Relation) => (end === 'referrer' ? relation.referrerId : relation.referentId);
  return (
    <section className="panel" aria-labelledby={headingId} data-testid={testId}>
      <h2 id={headingId}>{title}</h2>
      <PagedList list={list} name={name} errorShownAbove={errorShownAbove} empty={empty}>
        <ListTable
          labelledBy={headingId}
          rows={list.items}
          rowKey={(relation) => relation.id}
          rowTestId={(relation) => `members-row-${relation.id}`}
          columns={[
            {
              header: endHeading,
              cell: (relation) => {
                const endId = endOf(relation);
                return (
                  <>
                    {personAt(relation) ? (
                      <PersonName id={endId} />
                    ) : (
                      <span className="mono">
                        <ObjectLink kind={endKind} id={endId} name={endKind && names?.get(nameKey(endKind, endId))} />
                      </span>
                    )}
                    {endId === facts.callerId && (
                      <span className="you" data-testid="members-you">
                        you
                      </span>
                    )}
                  </>
                );
              },
            },
            showRole && {
              header: 'Role',
              cell: (relation) => {
                const { id } = relation;
                const endId = endOf(relation);
                const controls = rowControls(relation, facts);
                return controls.roles.length > 1 ? (
                  <>
                    <label className="visually-hidden" htmlFor={`members-role-${id}`}>
                      Role of {personAt(relation) ? <PersonText id={endId} /> : endId}
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
                );
              },
            },
            showSignIn && {
              header: SIGNS_IN_WITH,
              cell: (relation) =>
                personAt(relation) && <PersonSignIn id={endOf(relation)} testId={`members-sign-in-${relation.id}`} />,
            },
            {
              header: 'Actions',
              cell: (relation) =>
                rowControls(relation, facts).canRemove && (
                  <SubjectButton
                    personId={personAt(relation) ? endOf(relation) : undefined}
                    testId={`members-remove-${relation.id}`}
                    action="Remove"
                    subject={endOf(relation)}
                    onClick={() => onRemove(relation)}
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
