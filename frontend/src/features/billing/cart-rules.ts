import { boughtQuantity, isCellular } from '../../../../shared/billing/per-device';
import type { Price, Product } from '../../../../shared/contracts/api-subscriptions';
import type { Device } from '../../../../shared/contracts/devices';
import type { CartItem } from '../../../../shared/contracts/users';
import { productLineName } from '../../../../shared/text/product-words';
import { formatCents, monthlyPrice, tierName } from './plan-rules';

/**
 * The cart page's rules, without React: what each item is (product, tier, device, price), why an item cannot be
 * checked out, the totals per billing interval, and where a checkout of the cart returns.
 */

/** The cellular data service on sale, if any. */
export const cellularProduct = (products: readonly Product[]): Product | undefined =>
  products.find((product) => product.active && isCellular(product));

/** The price checkout charges: the product's default (monthly) price, else its first monthly one. */
export const chargedPrice = (product: Pick<Product, 'defaultPriceId'>, prices: readonly Price[]): Price | undefined =>
  prices.find((price) => price.active && price.id === product.defaultPriceId) ??
  monthlyPrice(prices, product.defaultPriceId);

/** "a month", "a year", "every 3 months". */
export const intervalText = (price: Pick<Price, 'interval' | 'intervalCount'>): string => {
  const count = price.intervalCount ?? 1;
  if (!price.interval) return 'once';
  return count === 1 ? `a ${price.interval}` : `every ${count} ${price.interval}s`;
};

/** What the cart knows of an item's device: its record, or why it could not be read. */
export type DeviceState =
  | { device: Pick<Device, 'id' | 'name' | 'serial' | 'productLine' | 'access'> }
  | { error: string };

/**
 * Why an item cannot be checked out, or undefined when it can (checkout checks the same, and its message is shown
 * when it refuses anyway). `products` are those on sale; `staff` may buy for any device.
 */
export const itemProblem = (
  product: Product | undefined,
  device: DeviceState | undefined,
  staff: boolean,
): string | undefined => {
  if (!product) return 'No longer on sale';
  if (!device) return undefined;
  if ('error' in device) return 'This device is no longer yours to manage';
  if (!staff && device.device.access !== 'manage' && device.device.access !== 'own') {
    return 'This device is no longer yours to manage';
  }
  if (product.productLine && product.productLine !== device.device.productLine) {
    return `${product.name} is for ${productLineName(product.productLine)} devices`;
  }
  return undefined;
};

/** The tier an item buys as people read it ("Tier 2"), or the service's kind for a product without one. */
export const itemTierText = (product: Product | undefined): string =>
  product?.tier ? tierName(product.tier) : product && isCellular(product) ? 'Service' : '—';

export interface PricedItem {
  item: CartItem;
  price?: Price;
  product?: Pick<Product, 'name' | 'tier'>;
}

/**
 * Each billing interval's total ("$23.00 a month"), in the cart's order of first appearance; unpriced items left out.
 * A quantity counts as checkout counts it (`boughtQuantity`).
 */
export const totalsPerInterval = (lines: readonly PricedItem[], locale?: string): string[] => {
  const totals = new Map<string, { cents: number; currency: string; price: Price }>();
  for (const { item, price, product } of lines) {
    if (!price) continue;
    const key = `${price.currency}|${price.interval ?? ''}|${price.intervalCount ?? 1}`;
    const total = totals.get(key) ?? { cents: 0, currency: price.currency, price };
    total.cents += price.unitAmount * boughtQuantity(product, item.quantity);
    totals.set(key, total);
  }
  return [...totals.values()].map(
    ({ cents, currency, price }) => `${formatCents(cents, currency, locale)} ${intervalText(price)}`,
  );
};

/** The contract's limit on a return URL: devices past it are left out of the return page's list. */
const MAX_URL = 2048;

/**
 * Where Stripe sends the person back after a checkout of the cart: the return page, told it was the cart's and
 * which devices it was for (as many as fit the URL's limit), with Stripe's `{CHECKOUT_SESSION_ID}` placeholder.
 */
export const cartReturns = (origin: string, items: readonly Pick<CartItem, 'deviceId'>[]) => {
  const base = `${origin}/billing/return?cart=1`;
  const tail = '&session_id={CHECKOUT_SESSION_ID}';
  let devices = '';
  for (const deviceId of new Set(items.map((item) => item.deviceId))) {
    const next = `${devices}&device=${encodeURIComponent(deviceId)}`;
    if (base.length + next.length + tail.length > MAX_URL) break;
    devices = next;
  }
  return { successUrl: `${base}${devices}${tail}`, cancelUrl: `${base}${devices}&cancelled=1` };
};
