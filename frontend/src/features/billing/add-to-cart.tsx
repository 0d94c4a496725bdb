import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import type { CartItem } from '../../../../shared/contracts/users';
import { ErrorAlert } from '../../components/form-parts';
import { takeLostFocus } from '../../lib/lost-focus';
import { useChanges } from '../../lib/query';
import { addCartItem, cartKeys } from './cart-api';
import './cart.css';

export const CART_PATH = '/dashboard/cart';

/**
 * One button that puts an item in the signed-in person's cart, then says so with a link to the cart; a refusal
 * shows the API's message (a second item of the same product and device: "Item already in cart").
 */
export const AddToCart = ({
  userId,
  item,
  label = 'Add to cart',
  testId,
  describedBy,
  className,
}: {
  userId: string;
  item: Omit<CartItem, 'quantity'>;
  label?: string;
  testId: string;
  describedBy?: string;
  className?: string;
}) => {
  const { busy, error, run } = useChanges<'add'>();
  const [added, setAdded] = useState(false);
  const viewCart = useRef<HTMLAnchorElement>(null);
  // The button leaves once the item is in: its link to the cart takes the focus the button held.
  useEffect(() => {
    if (added) takeLostFocus(viewCart.current);
  }, [added]);
  const add = () =>
    void run(
      'add',
      async () => {
        await addCartItem(userId, { ...item, quantity: 1 });
        setAdded(true);
      },
      cartKeys(userId),
    );

  return (
    <div className="add-to-cart">
      {added ? (
        <span role="status" data-testid={`${testId}-added`}>
          In cart —{' '}
          <Link to={CART_PATH} ref={viewCart}>
            View cart
          </Link>
        </span>
      ) : (
        <button
          type="button"
          className={className}
          data-testid={testId}
          disabled={busy !== undefined}
          aria-describedby={describedBy}
          onClick={add}
        >
          {busy ? 'Adding…' : label}
        </button>
      )}
      <ErrorAlert testId={`${testId}-error`} error={error} />
    </div>
  );
};
