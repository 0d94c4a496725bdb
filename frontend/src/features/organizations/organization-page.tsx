import { useParams } from 'react-router-dom';
import { MembersPanel } from '../relations/members-panel';
import { RELATIONS_MESSAGES } from '../relations/relations-messages';

/** `/dashboard/organizations/:id`: a placeholder until the organizations area's own page; for now its members. */
export const OrganizationPage = () => {
  const id = useParams().id ?? '';
  return (
    <section className="page">
      <h1>
        Organization{' '}
        <span className="mono" data-testid="object-id">
          {id}
        </span>
      </h1>
      <p className="notice" data-testid="object-placeholder">
        {RELATIONS_MESSAGES.placeholder('organization')}
      </p>
      <MembersPanel key={id} kind="organization" objectId={id} />
    </section>
  );
};
