import type { Relation } from '../../../../shared/contracts/relations';
import type { RelationEnds } from '../../../../shared/relations/relation-rules';
import type { RelationType } from '../../../../shared/relations/relation-types';
import { useApi } from '../../lib/api';
import { useChanges } from '../../lib/query';
import { useSignedInUser } from '../../lib/session';
import type { Checked } from './member-controls';
import { relationChangeKeys } from './relations-api';

export interface RelationChanges {
  /** The change under way (a relation's id, or a form's name such as "create"): its controls wait. */
  busy?: string;
  /** Why the last change failed (the API's message as it comes) or a check refused it. */
  error?: string;
  setError: (error: string | undefined) => void;
  /** Creates a checked relation; a refused check is shown and nothing sent. */
  create: (what: string, checked: Checked<RelationEnds>, done: () => void) => void;
  /** Deletes a relation once the person confirms `question`. */
  remove: (relation: Relation, question: string) => void;
  /** Gives a relation another role of its family (a new relation id). */
  changeRole: (relation: Relation, to: RelationType) => void;
}

/**
 * The changes a relations screen makes, one at a time, with their progress and failure. Each invalidates the
 * reads that may hold the relation (relationChangeKeys), so every list showing it reads it again.
 */
export const useRelationChanges = (): RelationChanges => {
  const relations = useApi('relations');
  const caller = useSignedInUser().id;
  const { busy, error, setError, run } = useChanges();
  const touched = (...changed: RelationEnds[]) => changed.flatMap((relation) => relationChangeKeys(relation, caller));

  const create: RelationChanges['create'] = (what, checked, done) => {
    if (!checked.ok) return setError(checked.error);
    void run(
      what,
      async () => {
        await relations.create({ body: checked.value });
        done();
      },
      touched(checked.value),
    );
  };

  const remove: RelationChanges['remove'] = (relation, question) => {
    if (!window.confirm(question)) return;
    void run(relation.id, () => relations.delete({ params: { id: relation.id } }), touched(relation));
  };

  const changeRole: RelationChanges['changeRole'] = (relation, to) =>
    void run(
      relation.id,
      () => relations.update({ params: { id: relation.id }, body: { type: to } }),
      touched(relation, { ...relation, type: to }),
    );

  return { busy, error, setError, create, remove, changeRole };
};
