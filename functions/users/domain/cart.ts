import type { CartItem } from '../../../shared/contracts/users';
import { MESSAGES } from '../../../shared/messages';
import { BadRequest, Conflict, NotFound } from '../../_shared/errors';

/** As many as PUT /user-ddb/{id} accepts, so a cart built item by item can still be replaced whole. */
export const MAX_CART_ITEMS = 100;

type ItemKey = Pick<CartItem, 'productId' | 'deviceId'>;

const same = (a: ItemKey, b: ItemKey) => a.productId === b.productId && a.deviceId === b.deviceId;

/**
 * Spec §5's cart rules on the items of a record, without storage: one item per product and device (a second is
 * a 409 "Item already in cart", whether added alone or in a whole new cart), and a change or removal names an item
 * that is there (404 otherwise).
 */
export const withItem = (items: readonly CartItem[], item: CartItem): CartItem[] => {
  if (items.some((held) => same(held, item))) throw new Conflict(MESSAGES.itemAlreadyInCart);
  if (items.length >= MAX_CART_ITEMS) throw new BadRequest(MESSAGES.cartFull(MAX_CART_ITEMS));
  return [...items, item];
};

export const withQuantity = (items: readonly CartItem[], key: ItemKey, quantity: number): CartItem[] => {
  if (!items.some((held) => same(held, key))) throw new NotFound(MESSAGES.cartItemMissing);
  return items.map((held) => (same(held, key) ? { ...held, quantity } : held));
};

export const withoutItem = (items: readonly CartItem[], key: ItemKey): CartItem[] => {
  if (!items.some((held) => same(held, key))) throw new NotFound(MESSAGES.cartItemMissing);
  return items.filter((held) => !same(held, key));
};

/** The first item of a whole new cart that repeats an earlier one's product and device, if any. */
export const repeatedItem = (items: readonly CartItem[]): CartItem | undefined =>
  items.find((item, index) => items.slice(0, index).some((held) => same(held, item)));
