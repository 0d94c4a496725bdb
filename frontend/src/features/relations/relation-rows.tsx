import { Link } from 'react-router-dom';
import type { Relation } from '../../../../shared/contracts/relations';
import type { ChangeFacts } from '../../../../shared/relations/relation-rules';
import type { GuardedKind, RelationType } from '../../../../shared/relations/relation-types';
import { rowControls } from './member-controls';
import { objectPath } from './relation-groups';
import type { PagedRelations } from './use-paged-relations';

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
  return (
    <section className="panel" aria-labelledby={headingId} data-testid={testId}>
      <h2 id={headingId}>{title}</h2>
      <div className="table-wrap">
        <table className="table" aria-labelledby={headingId} aria-busy={list.loading === 'first'}>
          <thead>
            <tr>
              <th scope="col">{endHeading}</th>
              {showRole && <th scope="col">Role</th>}
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((relation) => {
              const { id } = relation;
              const endId = end === 'referrer' ? relation.referrerId : relation.referentId;
              const controls = rowControls(relation, facts);
              const you = endId === facts.callerId;
              return (
                <tr key={id} data-testid={`members-row-${id}`}>
                  <th scope="row" className="mono">
                    {endKind ? <Link to={objectPath(endKind, endId)}>{endId}</Link> : endId}
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
                            Role of {endId}
                          </label>
                          <select
                            id={`members-role-${id}`}
                            data-testid={`members-role-${id}`}
                            value={relation.type}
                            onChange={(e) => onChangeRole(relation, e.target.value as RelationType)}
                            disabled={busy === id}
                          >
                            {controls.roles.map((type) => (
                              <option key={type} value={type}>
                                {type}
                              </option>
                            ))}
                          </select>
                        </>
                      ) : (
                        <span data-testid={`members-role-${id}`}>{relation.type}</span>
                      )}
                    </td>
                  )}
                  <td data-label="Actions">
                    {controls.canRemove && (
                      <button
                        type="button"
                        className="danger"
                        data-testid={`members-remove-${id}`}
                        aria-label={`Remove ${endId}`}
                        onClick={() => onRemove(relation)}
                        disabled={busy === id}
                      >
                        Remove
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {list.loading === 'first' && <p className="muted">Loading…</p>}
      {list.loaded && list.items.length === 0 && !list.nextCursor && <p className="muted">{empty}</p>}
      {list.nextCursor && (
        <button
          type="button"
          className="load-more"
          data-testid={loadMoreTestId}
          onClick={() => void list.loadMore()}
          disabled={list.loading !== undefined}
        >
          {list.loading === 'more' ? 'Loading…' : 'Load more'}
        </button>
      )}
    </section>
  );
};
