import { Link } from 'react-router-dom';
import { UI_MESSAGES } from '../lib/ui-messages';

export const NotFoundPage = () => (
  <section className="page" data-testid="not-found">
    <h1>Page not found</h1>
    <p>{UI_MESSAGES.notFound}</p>
    <p>
      <Link to="/dashboard">Go to the dashboard</Link>
    </p>
  </section>
);
