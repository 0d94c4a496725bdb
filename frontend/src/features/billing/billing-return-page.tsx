import { Link, useSearchParams } from 'react-router-dom';
import { grantsTier } from '../../../../shared/billing/subscription-status';
import { ErrorAlert } from '../../components/form-parts';
import { errorOf } from '../../lib/query';
import { useDeviceSubscriptions } from './billing-api';
import { CartReturn } from './cart-return';
import { currentSubscription, tierName } from './plan-rules';
import { SubscriptionBadge } from './status-badge';
import './billing.css';

/** Stripe's webhook usually lands within a second or two: ask once a second until the device's record shows it. */
const POLL_MS = 1_000;

/**
 * `/billing/return`: where Stripe Checkout sends the person back (the Plans panel's success and cancel URLs).
 * Paid: the device's tier applies once Stripe's webhook records it, so the page reads the device's subscription
 * every second until one grants a tier. Cancelled: nothing was charged.
 */
export const BillingReturnPage = () => {
  const [search] = useSearchParams();
  const deviceId = search.get('device') ?? '';
  const cancelled = search.get('cancelled') === '1';
  const sessionId = search.get('session_id');
  // A checkout of the cart (cart-rules.ts cartReturns) names each of its devices; the first is shown here.
  const cart = search.get('cart') === '1';
  const devicePath = `/dashboard/devices/${encodeURIComponent(deviceId)}`;

  return (
    <section className="page">
      <h1>Checkout</h1>
      <div className="card section-card" data-testid="billing-return">
        {cancelled ? (
          <p data-testid="billing-cancelled">Checkout cancelled: nothing was charged.</p>
        ) : sessionId && deviceId ? (
          <PaidDevice deviceId={deviceId} />
        ) : (
          <p className="error" role="alert" data-testid="billing-return-unknown">
            This address names no checkout. Open the device's page to see its plan.
          </p>
        )}
        {cart && (cancelled || sessionId) && <CartReturn deviceIds={search.getAll('device')} paid={!cancelled} />}
        {deviceId && (
          <p>
            <Link to={devicePath} data-testid="billing-back">
              Back to the device
            </Link>
          </p>
        )}
      </div>
    </section>
  );
};

const PaidDevice = ({ deviceId }: { deviceId: string }) => {
  const query = useDeviceSubscriptions(deviceId, {
    pollMs: (q) => (q.state.data?.items.some((s) => grantsTier(s, Date.now())) ? false : POLL_MS),
  });
  const subscription = query.data && currentSubscription(query.data.items, Date.now());
  const active = subscription && grantsTier(subscription, Date.now()) ? subscription : undefined;
  return (
    <>
      <p data-testid="billing-paid">Payment received. Your device's new tier applies as soon as Stripe confirms it.</p>
      <ErrorAlert testId="billing-return-error" error={errorOf(query)} />
      <p aria-live="polite" data-testid="billing-tier-state">
        {active ? (
          <>
            <SubscriptionBadge status={active.status} testId="billing-status" />{' '}
            <strong data-testid="billing-tier-active">{tierName(active.tier)} is active</strong>
          </>
        ) : (
          <span className="muted">Waiting for Stripe's confirmation…</span>
        )}
      </p>
    </>
  );
};
