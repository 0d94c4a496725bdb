import { useParams } from 'react-router-dom';
import { MembersPanel } from '../relations/members-panel';
import { RELATIONS_MESSAGES } from '../relations/relations-messages';

/** `/dashboard/devices/:id`: a placeholder until the devices area's own page; for now its members. */
export const DevicePage = () => {
  const id = useParams().id ?? '';
  return (
    <section className="page">
      <h1>
        Device{' '}
        <span className="mono" data-testid="object-id">
          {id}
        </span>
      </h1>
      <p className="notice" data-testid="object-placeholder">
        {RELATIONS_MESSAGES.placeholder('device')}
      </p>
      <MembersPanel key={id} kind="device" objectId={id} />
    </section>
  );
};
