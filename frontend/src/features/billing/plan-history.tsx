import type { Subscription } from '../../../../shared/contracts/api-subscriptions';
import { formatDay } from './plan-change-text';
import { formatCents } from './plan-rules';
import { SubscriptionBadge } from './status-badge';

/**
 * The subscriptions a device had before the one it has now, newest first (the API lists them, current first):
 * what was bought, how it ended, over which period, and its last invoice.
 */
export const PlanHistory = ({ subscriptions, currentId }: { subscriptions: Subscription[]; currentId?: string }) => {
  const past = subscriptions.filter((subscription) => subscription.id !== currentId);
  if (past.length === 0) return null;
  return (
    <details className="plan-history" data-testid="plans-history">
      <summary>Plan history ({past.length})</summary>
      <ul>
        {past.map((subscription) => (
          <li key={subscription.id} data-testid={`plans-history-${subscription.id}`}>
            <SubscriptionBadge status={subscription.status} /> {subscription.productName}
            <span className="muted small">
              {' · '}
              {formatCents(subscription.amount, subscription.currency ?? 'usd')} per {subscription.interval ?? 'period'}
              {subscription.currentPeriodStart !== undefined && subscription.currentPeriodEnd !== undefined && (
                <>
                  {' · '}
                  {formatDay(subscription.currentPeriodStart)} – {formatDay(subscription.currentPeriodEnd)}
                </>
              )}
            </span>
            {subscription.invoiceUrl && (
              <>
                {' · '}
                <a href={subscription.invoiceUrl} target="_blank" rel="noreferrer">
                  Invoice {subscription.invoiceNumber ?? ''}
                </a>
              </>
            )}
          </li>
        ))}
      </ul>
    </details>
  );
};
