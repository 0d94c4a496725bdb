import { soldPerDevice } from '../../../../shared/billing/per-device';
import type { Product } from '../../../../shared/contracts/api-subscriptions';
import type { CartItem } from '../../../../shared/contracts/users';
import type { DeviceState } from './cart-rules';

/**
 * The cart page's own rules for one item (issue 36), apart from cart-rules.ts: that module is shared by every page
 * offering "Add to cart" (the device page among them), and what only the cart page reads stays off those pages.
 */

/** Whether an item's quantity is the buyer's to choose: not for what is sold per device (`soldPerDevice`). */
export const quantityChoosable = (product: Product | undefined): boolean =>
  product !== undefined && !soldPerDevice(product);

/** An item as a person reads it, for its buttons' names: "SD1 Tier 2 for Roof station". */
export const itemInWords = (
  item: Pick<CartItem, 'productId' | 'deviceId'>,
  product: Pick<Product, 'name'> | undefined,
  device: DeviceState | undefined,
): string => {
  const named = device && 'device' in device ? device.device.name || device.device.serial : undefined;
  return `${product?.name ?? 'A product no longer on sale'} for ${named || `device ${item.deviceId}`}`;
};
