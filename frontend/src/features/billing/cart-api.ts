import { type QueryKey, useQueries, useQuery } from '@tanstack/react-query';
import type { CartItem, UserRecord } from '../../../../shared/contracts/users';
import { apiClient } from '../../lib/api';
import { routeKey, routeQuery } from '../../lib/query';
import { cartReturns } from './cart-rules';

/**
 * The cart (spec §3 User.cartItems): it lives on the person's record, so it is read with the record's route and a
 * change invalidates the record (its local-cache copy included: that key starts with the route's).
 */

const recordRequest = (userId: string) => ({ params: { id: userId } });

const itemsOf = (record: UserRecord): CartItem[] => record.cartItems;

/** What a change of the cart invalidates: the person's record, wherever it is shown. */
export const cartKeys = (userId: string): QueryKey[] => [routeKey('users', 'getUserRecord', recordRequest(userId))];

/** The read a person's cart comes from: their record. */
export const cartQuery = (userId: string) => routeQuery('users', 'getUserRecord', recordRequest(userId));

/** A person's cart; `pollMs` reads it again that often while it says so (the checkout return). */
export const useCart = (
  userId: string,
  { pollMs }: { pollMs?: (items: CartItem[] | undefined) => number | false } = {},
) =>
  useQuery({
    ...cartQuery(userId),
    select: itemsOf,
    ...(pollMs
      ? {
          refetchInterval: (query: { state: { data?: UserRecord } }) =>
            pollMs(query.state.data && itemsOf(query.state.data)),
        }
      : {}),
  });

/** The devices of the cart's items, each as its viewer may see it (`access` says whether they still manage it). */
export const useCartDevices = (deviceIds: readonly string[]) =>
  useQueries({ queries: deviceIds.map((id) => routeQuery('devices', 'get', { params: { id } })) });

export const addCartItem = (userId: string, item: CartItem) =>
  apiClient('users').addCartItem({ params: { id: userId }, body: item });

export const setCartQuantity = (userId: string, item: Pick<CartItem, 'productId' | 'deviceId'>, quantity: number) =>
  apiClient('users').updateCartItem({
    params: { id: userId, productId: item.productId, deviceId: item.deviceId },
    body: { quantity },
  });

export const removeCartItem = (userId: string, item: Pick<CartItem, 'productId' | 'deviceId'>) =>
  apiClient('users').removeCartItem({ params: { id: userId, productId: item.productId, deviceId: item.deviceId } });

/**
 * A Checkout session for the whole cart, returning to the web app; answers the page to pay on. The cart changes
 * only when Stripe's webhook records the payment (docs/billing.md, "Cart"), so nothing is invalidated here.
 */
export const checkoutCart = async (items: readonly CartItem[]): Promise<string> => {
  const { url } = await apiClient('api').checkout({
    body: { items: [...items], ...cartReturns(window.location.origin, items) },
  });
  return url;
};
