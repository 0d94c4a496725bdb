/** Spec §5: the cellular data service is the active product whose name contains this. */
export const CELLULAR_NAME_PART = 'ellular data service';

export const isCellular = (product: { name: string }): boolean => product.name.includes(CELLULAR_NAME_PART);

/**
 * A tier and the cellular data service are each bought for the one device an item names, so a quantity above one buys
 * nothing more (issue 36): checkout charges such an item once and the cart offers no quantity for it. Only a product
 * sold by the unit, which the catalogue does not hold today, has a quantity that counts.
 */
export const soldPerDevice = (product: { name: string; tier?: string | undefined }): boolean =>
  Boolean(product.tier) || isCellular(product);

/** What checkout charges for an item of `quantity`: once for a product sold per device. */
export const boughtQuantity = (product: { name: string; tier?: string | undefined } | undefined, quantity: number) =>
  product !== undefined && soldPerDevice(product) ? 1 : quantity;
