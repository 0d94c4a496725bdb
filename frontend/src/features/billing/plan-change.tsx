import { useQueryClient } from '@tanstack/react-query';
import type { Subscription } from '../../../../shared/contracts/api-subscriptions';
import type { Device } from '../../../../shared/contracts/devices';
import { ErrorAlert } from '../../components/form-parts';
import { apiClient } from '../../lib/api';
import { areaKey, routeKey, useChanges } from '../../lib/query';
import { useProducts } from './billing-api';
import { type PlanChoice, planChoices, whatHappens, withoutShownUpgrades } from './plan-change-text';
import './plan-change.css';

/** Stripe's webhook writes the device's record (which every read of its data obeys) a moment after the change. */
const RECORD_LAG_MS = 2_000;

const testIdOf = (choice: PlanChoice) =>
  choice.kind === 'upgrade' || choice.kind === 'downgrade'
    ? `plan-change-${choice.kind}-${choice.product.tier}`
    : `plan-change-${choice.kind}`;

/**
 * On the Plans panel (docs/billing.md, "Changing a plan"): what happens to the device's plan when, and for those
 * who may manage the device the changes it allows: an upgrade now (prorated, charged at once), a switch to a lower
 * tier or a cancellation from the period's end, and keeping the plan as it is.
 */
export const PlanChange = ({
  device,
  subscription,
  mayChange,
  shownTier,
}: {
  device: Pick<Device, 'id' | 'productLine'>;
  subscription: Subscription | undefined;
  mayChange: boolean;
  /** The tier the panel shows now (the subscription's, or the one the device's record applies, whichever is higher). */
  shownTier?: string;
}) => {
  const client = useQueryClient();
  const products = useProducts();
  const { busy, error, run } = useChanges<string>();
  const when = subscription && whatHappens(subscription, device.productLine);
  if (!subscription || !when) return null;
  const shared = subscription.deviceIds.length > 1;
  const choices =
    mayChange && !shared
      ? withoutShownUpgrades(planChoices(subscription, products.data?.items ?? [], device.productLine), shownTier)
      : [];

  const change = (choice: PlanChoice) =>
    void run(testIdOf(choice), async () => {
      const api = apiClient('api');
      const body = { deviceId: device.id };
      if (choice.kind === 'upgrade' || choice.kind === 'downgrade') {
        await api.subscriptionsChangeTier({ body: { ...body, productId: choice.product.id } });
      } else if (choice.kind === 'cancel') await api.subscriptionsCancel({ body });
      else await api.subscriptionsResume({ body });
      // The charts read the tier from the record the webhook writes: read them again once it has landed.
      setTimeout(() => void client.invalidateQueries({ queryKey: areaKey('sensor-data') }), RECORD_LAG_MS);
    }, [routeKey('api', 'subscriptionsListByDevice', { body: { deviceId: device.id } }), areaKey('sensor-data')]);

  return (
    <div className="plan-change" data-testid="plan-change">
      <p data-testid="plan-change-when">
        <strong>{when}</strong>
      </p>
      {mayChange && shared && (
        <p className="muted small" data-testid="plan-change-shared">
          This subscription pays for {subscription.deviceIds.length} devices: change it in Manage billing.
        </p>
      )}
      {choices.length > 0 && (
        <ul className="plan-change-choices" aria-label="Change the plan">
          {choices.map((choice) => (
            <li key={testIdOf(choice)}>
              <button
                type="button"
                className={choice.kind === 'upgrade' ? 'primary' : undefined}
                data-testid={testIdOf(choice)}
                disabled={busy !== undefined}
                onClick={() => change(choice)}
              >
                {busy === testIdOf(choice) ? 'Changing…' : choice.label}
              </button>
              {choice.kind === 'upgrade' && <span className="muted small"> {choice.note}</span>}
            </li>
          ))}
        </ul>
      )}
      <ErrorAlert testId="plan-change-error" error={error} />
    </div>
  );
};
