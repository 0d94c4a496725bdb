import { NavLink } from 'react-router-dom';
import { CART_PATH } from './add-to-cart';
import { useCart } from './cart-api';
import './cart.css';

/** The header's link to the cart, with how many items it holds (for signed-in people: the cart is on their record). */
export const CartLink = ({ userId }: { userId: string }) => {
  const { data: items } = useCart(userId);
  const count = items?.length ?? 0;
  return (
    <NavLink to={CART_PATH} data-testid="nav-cart" aria-label={`Cart, ${count} ${count === 1 ? 'item' : 'items'}`}>
      Cart
      {count > 0 && (
        <span className="cart-count" data-testid="nav-cart-count">
          {count}
        </span>
      )}
    </NavLink>
  );
};
