import { useParams } from 'react-router-dom';
import { MembersPanel } from '../relations/members-panel';
import { RELATIONS_MESSAGES } from '../relations/relations-messages';

/** `/dashboard/campaigns/:id`: a placeholder until the campaigns area's own page; for now its members. */
export const CampaignPage = () => {
  const id = useParams().id ?? '';
  return (
    <section className="page">
      <h1>
        Campaign{' '}
        <span className="mono" data-testid="object-id">
          {id}
        </span>
      </h1>
      <p className="notice" data-testid="object-placeholder">
        {RELATIONS_MESSAGES.placeholder('campaign')}
      </p>
      <MembersPanel key={id} kind="campaign" objectId={id} />
    </section>
  );
};
