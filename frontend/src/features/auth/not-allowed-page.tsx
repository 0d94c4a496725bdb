import { Link } from 'react-router-dom';
import { UI_MESSAGES } from '../../lib/ui-messages';

export const NotAllowedPage = () => (
  <section className="page" data-testid="not-allowed">
    <h1>Not allowed</h1>
    <p>{UI_MESSAGES.notAllowed}</p>
    <p>
      <Link to="/dashboard">Back to the dashboard</Link>
    </p>
  </section>
);
