import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Delivery } from '../../../../shared/contracts/integrations';
import { ListTable } from '../../components/list-table';
import { PagedList } from '../../components/paged-list';
import { When } from '../../components/when';
import { useApi } from '../../lib/api';
import { useChanges, useRoutePages } from '../../lib/query';
import { DELIVERY_STATUS, eventLabel, lastAnswer } from './integration-rules';
import { deliveriesKey, LOG_PAGE, webhookKeys } from './integrations-api';
import './integrations.css';

/** A delivery's status as a badge: the word and its colour. */
export const DeliveryStatusBadge = ({ delivery }: { delivery: Delivery }) => (
  <span
    className={`badge badge-${DELIVERY_STATUS[delivery.status].tone}`}
    data-testid={`delivery-status-${delivery.id}`}
    data-status={delivery.status}
  >
    {DELIVERY_STATUS[delivery.status].text}
  </span>
);

/** Each attempt: when, what came back, how long it took, and the first 1 KB of the answer. */
const Attempts = ({ delivery }: { delivery: Delivery }) => (
  <details>
    <summary>
      {delivery.attemptCount} attempt{delivery.attemptCount === 1 ? '' : 's'}
      {delivery.nextAttemptAt !== undefined && (
        <span className="muted small">
          {' '}
          · next <When ms={delivery.nextAttemptAt} />
        </span>
      )}
    </summary>
    <ol className="delivery-attempts">
      {delivery.attempts.map((attempt) => (
        <li key={attempt.at}>
          <When ms={attempt.at} />
          {' — '}
          {attempt.statusCode !== undefined ? `HTTP ${attempt.statusCode}` : (attempt.error ?? 'No answer')},{' '}
          {attempt.durationMs} ms{attempt.manual ? ' (sent again by hand)' : ''}
          {attempt.response && <pre>{attempt.response}</pre>}
        </li>
      ))}
    </ol>
  </details>
);

/**
 * A webhook's delivery log, newest first: each delivery's event, status (coloured and in words), attempts with their
 * answers, and a replay. While something is being sent or retried it is read again every few seconds.
 */
export const DeliveryLog = ({
  webhookId,
  enabled,
  refreshKey,
}: {
  webhookId: string;
  enabled: boolean;
  refreshKey?: number;
}) => {
  const integrations = useApi('integrations');
  const log = useRoutePages('integrations', 'listDeliveries', {
    params: { id: webhookId },
    query: { limit: LOG_PAGE },
  });
  const { busy, error, run } = useChanges<`replay:${string}`>();
  const sending = log.items.some((delivery) => delivery.status === 'pending');
  const client = useQueryClient();

  // What was just asked for (a test, a replay) shows within seconds: the log is read again until it has settled.
  useEffect(() => {
    if (refreshKey === undefined) return;
    const timers = [1_000, 2_500, 5_000, 9_000].map((ms) =>
      setTimeout(() => void client.invalidateQueries({ queryKey: deliveriesKey(webhookId) }), ms),
    );
    return () => timers.forEach(clearTimeout);
  }, [refreshKey, client, webhookId]);
  useEffect(() => {
    if (!sending) return;
    const timer = setInterval(() => void client.invalidateQueries({ queryKey: deliveriesKey(webhookId) }), 3_000);
    return () => clearInterval(timer);
  }, [sending, client, webhookId]);

  const replay = (delivery: Delivery) =>
    void run(
      `replay:${delivery.id}`,
      () => integrations.replayDelivery({ params: { id: delivery.id } }),
      webhookKeys(webhookId),
    );

  return (
    <div data-testid={`delivery-log-${webhookId}`}>
      <PagedList
        list={log}
        name={`delivery-log-${webhookId}`}
        error={error}
        empty="Nothing sent yet. Send a test to see one here."
      >
        <ListTable
          label="Deliveries"
          testId={`delivery-log-table-${webhookId}`}
          rows={log.items}
          rowKey={(delivery) => delivery.id}
          rowTestId={(delivery) => `delivery-row-${delivery.id}`}
          columns={[
            { header: 'Made', cell: (delivery) => <When ms={delivery.created} /> },
            {
              header: 'Event',
              cell: (delivery) => (
                <>
                  {eventLabel(delivery.eventType)}
                  {delivery.batches !== undefined && (
                    <span className="muted small">
                      {' '}
                      · {delivery.batches} batch{delivery.batches === 1 ? '' : 'es'}
                    </span>
                  )}
                </>
              ),
            },
            { header: 'Status', cell: (delivery) => <DeliveryStatusBadge delivery={delivery} /> },
            {
              header: 'Last answer',
              cell: (delivery) => <span data-testid={`delivery-answer-${delivery.id}`}>{lastAnswer(delivery)}</span>,
            },
            { header: 'Attempts', cell: (delivery) => <Attempts delivery={delivery} /> },
            {
              header: 'Actions',
              cell: (delivery) => (
                <button
                  type="button"
                  data-testid={`delivery-replay-${delivery.id}`}
                  onClick={() => replay(delivery)}
                  disabled={!enabled || busy !== undefined}
                  title={enabled ? 'Send it again now, with the same webhook-id' : 'Turn the webhook on to send again'}
                >
                  {busy === `replay:${delivery.id}` ? 'Sending…' : 'Send again'}
                </button>
              ),
            },
          ]}
        />
      </PagedList>
    </div>
  );
};
