import { Link } from 'react-router-dom';
import { ErrorAlert } from '../../components/form-parts';
import { errorOf } from '../../lib/query';
import { useSignedInUser } from '../../lib/session';
import { CART_PATH } from './add-to-cart';
import { useCart } from './cart-api';

/** Stripe's webhook takes the bought items out of the cart a moment after the payment: ask once a second till then. */
const POLL_MS = 1_000;

/**
 * The checkout return of a cart (`cart=1`): paid, the items for the checkout's devices leave the cart once Stripe's
 * webhook records the payment (docs/billing.md, "Cart"), so the cart is read again until they have; the header's
 * count follows, as it reads the same query. Cancelled, the cart is as it was.
 */
export const CartReturn = ({ deviceIds, paid }: { deviceIds: readonly string[]; paid: boolean }) => {
  const user = useSignedInUser();
  const holdsBought = (items: { deviceId: string }[] | undefined) =>
    items?.some((item) => deviceIds.includes(item.deviceId)) ?? true;
  const query = useCart(user.id, { pollMs: (items) => (paid && holdsBought(items) ? POLL_MS : false) });
  return (
    <>
      <ErrorAlert testId="billing-cart-error" error={errorOf(query)} />
      <p aria-live="polite" data-testid="billing-cart-state">
        {!paid ? (
          'Your cart is as you left it.'
        ) : query.data && !holdsBought(query.data) ? (
          'What you bought has left your cart.'
        ) : (
          <span className="muted">Taking what you bought out of your cart…</span>
        )}{' '}
        <Link to={CART_PATH} data-testid="billing-cart-link">
          View cart
        </Link>
      </p>
    </>
  );
};
