import { useQueries, useQuery } from '@tanstack/react-query';
import type { Product, Subscription } from '../../../../shared/contracts/api-subscriptions';
import { apiClient } from '../../lib/api';
import { routeQuery } from '../../lib/query';
import { checkoutReturns } from './plan-rules';

/** The catalogue changes rarely: read once an hour at most. */
const CATALOGUE_STALE_MS = 60 * 60_000;

/** Every product on sale (guest route); `enabled: false` reads nothing yet. */
export const useProducts = ({ enabled = true }: { enabled?: boolean } = {}) =>
  useQuery({ ...routeQuery('api', 'productsList', {}), staleTime: CATALOGUE_STALE_MS, enabled });

/** The prices of each product, in the products' order. */
export const usePricesOf = (products: readonly Product[]) =>
  useQueries({
    queries: products.map((product) => ({
      ...routeQuery('api', 'pricesListByProduct', { body: { productId: product.id } }),
      staleTime: CATALOGUE_STALE_MS,
    })),
  });

/** A device's subscription (members and staff); `pollMs` reads it again that often (the checkout return). */
export const useDeviceSubscriptions = (
  deviceId: string,
  {
    pollMs,
    enabled = true,
  }: { pollMs?: (query: { state: { data?: { items: Subscription[] } } }) => number | false; enabled?: boolean } = {},
) =>
  useQuery({
    ...routeQuery('api', 'subscriptionsListByDevice', { body: { deviceId } }),
    ...(pollMs ? { refetchInterval: pollMs } : {}),
    enabled,
  });

/** Spec §6's billing URL for the caller: their Stripe billing portal (back to this page), or staff's dashboard. */
export const billingPortalUrl = async (): Promise<string> =>
  (await apiClient('api').billingPortal({ body: { returnUrl: window.location.href } })).url;

/**
 * A Checkout session for one device and product, returning to the web app; answers the page to pay on. Nothing
 * in the cache changes until Stripe's webhook records the payment, so nothing is invalidated here.
 */
export const startCheckout = async (deviceId: string, productId: string): Promise<string> => {
  const { url } = await apiClient('api').checkout({
    body: { items: [{ productId, deviceId, quantity: 1 }], ...checkoutReturns(window.location.origin, deviceId) },
  });
  return url;
};
