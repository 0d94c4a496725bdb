import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { ErrorAlert } from '../../components/form-parts';
import { sectionOf } from '../../lib/navigation';
import { ObjectIdLine } from '../../lib/object-id-line';
import { errorOf } from '../../lib/query';
import { targetPath } from './integration-rules';
import { useWebhook } from './integrations-api';
import { WebhookCard } from './webhook-card';

/**
 * `/dashboard/webhooks/:id` (and `/admin/webhooks/:id`): one webhook with its delivery log open, where a notice that
 * it was turned off links to. Who may see it: whoever manages its target, and staff.
 */
export const WebhookPage = () => {
  const id = useParams().id ?? '';
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const query = useWebhook(id);
  const webhook = query.data;
  const section = sectionOf(pathname);
  return (
    <section className="page">
      <h1>Webhook</h1>
      <ObjectIdLine id={id} />
      {!webhook && !query.error && <p className="muted">Loading the webhook…</p>}
      <ErrorAlert testId="webhook-page-error" error={errorOf(query)} />
      {webhook && (
        <>
          <p>
            Events of{' '}
            <Link to={targetPath(section, webhook.target.kind, webhook.target.id)} data-testid="webhook-target">
              {webhook.target.kind} {webhook.target.id}
            </Link>
            .
          </p>
          <WebhookCard
            webhook={webhook}
            logOpen
            headingLevel={2}
            onDeleted={() => navigate(targetPath(section, webhook.target.kind, webhook.target.id))}
          />
        </>
      )}
    </section>
  );
};
