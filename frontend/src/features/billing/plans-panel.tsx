import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { Device } from '../../../../shared/contracts/devices';
import { ErrorAlert } from '../../components/form-parts';
import { errorOf, routeQuery, useChanges } from '../../lib/query';
import { useSignedInUser } from '../../lib/session';
import { AddToCart } from './add-to-cart';
import { billingPortalUrl, startCheckout, useDeviceSubscriptions, usePricesOf, useProducts } from './billing-api';
import { CellularOffer } from './cellular-offer';
import { useLineTiers } from './line-tiers';
import { PlanChange } from './plan-change';
import { formatDay } from './plan-change-text';
import { PlanHistory } from './plan-history';
import {
  changesInApp,
  currentSubscription,
  currentTier,
  featureLines,
  formatCents,
  monthlyPrice,
  periodText,
  plansForLine,
  tierRank,
} from './plan-rules';
import { SubscriptionBadge } from './status-badge';
import './billing.css';

/**
 * The device page's plans (docs/frontend-registry.md, "Billing"): the device's subscription and tier, and the
 * tiers its product line sells with their monthly price and what each unlocks. Those who may manage the device
 * buy a higher tier through Stripe Checkout; the webhook records it, and the return page waits for it.
 */
export const PlansPanel = ({ device, mayBuy }: { device: Pick<Device, 'id' | 'productLine'>; mayBuy: boolean }) => {
  const user = useSignedInUser();
  const subscriptionsQuery = useDeviceSubscriptions(device.id);
  // What the platform applies to the device's reads: the same query as the Sensor data panel's.
  const summaryQuery = useQuery(routeQuery('sensor-data', 'dataSummary', { params: { id: device.id } }));
  const productsQuery = useProducts();
  const { rows: lineTiers, query: tiersQuery } = useLineTiers(device.productLine);
  const plans = useMemo(
    () => plansForLine(productsQuery.data?.items ?? [], device.productLine, lineTiers ?? []),
    [productsQuery.data, device.productLine, lineTiers],
  );
  const prices = usePricesOf(plans.map((plan) => plan.product));
  const { busy, error, run } = useChanges<`buy:${string}` | 'portal'>();
  // The product whose checkout the browser is leaving for: its button keeps waiting until the page goes.
  const [leaving, setLeaving] = useState<string>();

  const now = Date.now();
  const subscription = subscriptionsQuery.data && currentSubscription(subscriptionsQuery.data.items, now);
  const applied = summaryQuery.data?.tier.tier;
  const tier = subscriptionsQuery.data && lineTiers ? currentTier(lineTiers, subscription, now, applied) : undefined;
  const rank = tier && lineTiers ? tierRank(lineTiers, tier.tier) : -1;
  const upgradeInstead = changesInApp(subscription, now);

  const buy = (productId: string) =>
    void run(`buy:${productId}`, async () => {
      const url = await startCheckout(device.id, productId);
      setLeaving(productId);
      window.location.assign(url);
    });

  const manage = () =>
    void run('portal', async () => {
      const url = await billingPortalUrl();
      setLeaving('portal');
      window.location.assign(url);
    });

  return (
    <section className="card section-card" aria-labelledby="plans-heading" data-testid="plans-panel">
      <h2 id="plans-heading">Plans</h2>
      <ErrorAlert testId="plans-subscription-error" error={errorOf(subscriptionsQuery)} />
      {tier && (
        <dl className="facts" data-testid="plans-current">
          <dt>Tier</dt>
          <dd data-testid="plans-tier">{tier.name}</dd>
          <dt>Subscription</dt>
          <dd data-testid="plans-subscription">
            {subscription ? (
              <>
                <SubscriptionBadge status={subscription.status} testId="plans-status" /> {subscription.productName}
                {periodText(subscription, formatDay) && (
                  <span className="muted small" data-testid="plans-period">
                    {' '}
                    · {periodText(subscription, formatDay)}
                  </span>
                )}
              </>
            ) : (
              <span className="muted">
                {tier && lineTiers && tierRank(lineTiers, tier.tier) > 0
                  ? `None: ${tier.name} is granted by the platform`
                  : "None: the product line's base tier"}
              </span>
            )}
          </dd>
        </dl>
      )}
      <PlanChange device={device} subscription={subscription} mayChange={mayBuy} shownTier={tier?.tier} />
      {subscriptionsQuery.data && (
        <PlanHistory subscriptions={subscriptionsQuery.data.items} currentId={subscription?.id} />
      )}
      {subscription && mayBuy && (
        <p className="actions">
          <button type="button" data-testid="plans-manage" onClick={manage} disabled={busy !== undefined}>
            {busy === 'portal' || leaving === 'portal' ? 'Opening billing…' : 'Manage billing'}
          </button>
          <span className="muted small"> Card, invoices and cancelling, on Stripe's billing portal.</span>
        </p>
      )}

      <ErrorAlert testId="plans-catalogue-error" error={errorOf(productsQuery)} />
      <ErrorAlert testId="plans-tiers-error" error={errorOf(tiersQuery)} />
      {productsQuery.data && lineTiers && plans.length === 0 && (
        <p className="muted" data-testid="plans-none">
          No tiers are on sale for this product line.
        </p>
      )}
      {plans.length > 0 && (
        <ul className="plan-list" aria-label="Tiers on sale">
          {plans.map(({ product, row }, i) => {
            const price = monthlyPrice(prices[i]?.data?.items ?? [], product.defaultPriceId);
            const above = tier !== undefined && tierRank(lineTiers ?? [], row.tier) > rank;
            const current = tier?.tier === row.tier;
            return (
              <li
                key={product.id}
                className={current ? 'plan plan-current' : 'plan'}
                data-testid={`plan-${row.tier}`}
                aria-current={current || undefined}
              >
                <h3 id={`plan-name-${row.tier}`}>{product.name}</h3>
                <p className="plan-price" data-testid={`plan-price-${row.tier}`}>
                  {price ? (
                    <>
                      {formatCents(price.unitAmount, price.currency)}
                      <span className="muted small"> a month</span>
                    </>
                  ) : (
                    <span className="muted small">
                      {prices[i]?.isError ? 'Price unavailable' : 'Loading the price…'}
                    </span>
                  )}
                </p>
                <ul className="plan-features">
                  {featureLines(row.features).map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
                {current && <p className="muted small">Your current tier</p>}
                {mayBuy && above && upgradeInstead && (
                  <p className="muted small" data-testid={`plan-upgrade-hint-${row.tier}`}>
                    Upgrade above: you pay only the prorated difference.
                  </p>
                )}
                {mayBuy && above && !upgradeInstead && (
                  <button
                    type="button"
                    className="primary"
                    data-testid={`plan-buy-${row.tier}`}
                    disabled={busy !== undefined || leaving !== undefined}
                    onClick={() => buy(product.id)}
                    aria-describedby={`plan-name-${row.tier}`}
                  >
                    {busy === `buy:${product.id}` || leaving === product.id ? 'Opening checkout…' : 'Buy'}
                  </button>
                )}
                {mayBuy && above && !upgradeInstead && (
                  <AddToCart
                    userId={user.id}
                    item={{ productId: product.id, deviceId: device.id }}
                    testId={`plan-cart-${row.tier}`}
                    describedBy={`plan-name-${row.tier}`}
                  />
                )}
              </li>
            );
          })}
        </ul>
      )}
      {mayBuy && <CellularOffer userId={user.id} deviceId={device.id} />}
      <ErrorAlert testId="plans-buy-error" error={error} />
    </section>
  );
};
