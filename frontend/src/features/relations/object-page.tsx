import { useParams } from 'react-router-dom';
import type { GuardedKind } from '../../../../shared/relations/relation-types';
import { MembersPanel } from './members-panel';
import { KIND_NAME } from './relation-groups';
import { RELATIONS_MESSAGES } from './relations-messages';

/**
 * The page of one device, organization or campaign (`…/:id`): a placeholder until each area has its own
 * page, showing for now who belongs to the object.
 */
export const ObjectPage = ({ kind }: { kind: GuardedKind }) => {
  const id = useParams().id ?? '';
  return (
    <section className="page">
      <h1>
        {KIND_NAME[kind]}{' '}
        <span className="mono" data-testid="object-id">
          {id}
        </span>
      </h1>
      <p className="notice" data-testid="object-placeholder">
        {RELATIONS_MESSAGES.placeholder(kind)}
      </p>
      <MembersPanel key={id} kind={kind} objectId={id} />
    </section>
  );
};
