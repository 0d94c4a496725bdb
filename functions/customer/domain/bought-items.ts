import type Stripe from 'stripe';
import type { CartItem } from '../../../shared/contracts/users';
import { devicesOf } from '../../_shared/billing/subscription-devices';
import type { Log } from '../../_shared/logger';

/** The person's cart as billing needs it: the items and the record's version they were read at. */
export interface CartStore {
  read: (userId: string) => Promise<{ items: CartItem[]; version: number } | undefined>;
  /** @returns false when the record changed since `readVersion` (nothing was written) */
  write: (userId: string, items: CartItem[], readVersion: number, now: number) => Promise<boolean>;
}

/** A cart that changes this often while one webhook works is someone's script; Stripe's retry tries again. */
const ATTEMPTS = 3;

/**
 * After a paid checkout, the items it bought leave the buyer's cart (docs/billing.md, "Cart"): those the
 * subscription's metadata names (`d{n}` = product|device, written by checkout with `userId`). Only on
 * `checkout.session.completed`: a later event of the same subscription (a renewal) must not take out an item
 * the person put in the cart again since. Items added during checkout for other devices or products stay.
 */
export const removeBoughtItems = async (
  carts: CartStore,
  subscription: Pick<Stripe.Subscription, 'id' | 'metadata'>,
  now: () => number,
  log: Log,
): Promise<number> => {
  const userId = subscription.metadata?.userId;
  const bought = devicesOf(subscription.metadata);
  if (!userId || !bought.length) return 0;
  const wasBought = (item: CartItem) =>
    bought.some((pair) => pair.productId === item.productId && pair.deviceId === item.deviceId);
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const cart = await carts.read(userId);
    // The buyer's account was deleted since: nothing to clear.
    if (!cart) return 0;
    const kept = cart.items.filter((item) => !wasBought(item));
    if (kept.length === cart.items.length) return 0;
    if (await carts.write(userId, kept, cart.version, now())) {
      const removed = cart.items.length - kept.length;
      log('info', 'Bought items left the cart', { subscriptionId: subscription.id, userId, removed });
      return removed;
    }
  }
  throw new Error(`The cart of ${userId} kept changing while subscription ${subscription.id} was recorded`);
};
