import type { Relation } from '../../../../shared/contracts/relations';
import type { RelationEnds } from '../../../../shared/relations/relation-rules';
import { useApi } from '../../lib/api';
import { useAction } from '../../lib/use-action';
import type { Checked } from './member-controls';
import { removeRelation, upsertRelation } from './relation-list';
import type { PagedRelations } from './use-paged-relations';

export interface RelationChanges {
  /** The change under way (a relation's id, or a form's name such as "create"): its controls wait. */
  busy?: string;
  /** Why the last change failed (the API's message as it comes) or a check refused it. */
  error?: string;
  setError: (error: string | undefined) => void;
  /** Runs one change; its failure is shown in `error`. */
  run: (what: string, action: () => Promise<void>) => Promise<void>;
  /** Creates a checked relation and shows it first in `list`; a refused check is shown and nothing sent. */
  create: (what: string, checked: Checked<RelationEnds>, list: PagedRelations, done: () => void) => void;
  /** Deletes a relation once the person confirms `question`, and takes it out of `list`. */
  remove: (relation: Relation, list: PagedRelations, question: string, done?: () => void) => void;
}

/** The changes a relations screen makes, one at a time, with their progress and failure. */
export const useRelationChanges = (): RelationChanges => {
  const relations = useApi('relations');
  const { busy, error, setError, run } = useAction();

  const create: RelationChanges['create'] = (what, checked, list, done) => {
    if (!checked.ok) return setError(checked.error);
    void run(what, async () => {
      const created = await relations.create({ body: checked.value });
      list.update((shown) => upsertRelation(shown, created));
      done();
    });
  };

  const remove: RelationChanges['remove'] = (relation, list, question, done) => {
    if (!window.confirm(question)) return;
    void run(relation.id, async () => {
      await relations.delete({ params: { id: relation.id } });
      list.update((shown) => removeRelation(shown, relation.id));
      done?.();
    });
  };

  return { busy, error, setError, run, create, remove };
};
