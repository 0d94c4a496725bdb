import type { Device } from '../../../../shared/contracts/devices';
import type { TierRow } from '../../../../shared/sensor-data/tiers';
import { mayManage } from '../../lib/device-access';
import { useOptionalUser } from '../../lib/session';
import { AddToCart, changesInApp, currentSubscription, useDeviceSubscriptions, useProducts } from '../billing';
import { productOfTier } from './lock-band-rules';

/**
 * One click from something a tier locks to the tier that unlocks it, for those who may buy for the device: the
 * tier's product into the cart, or, for a device on a plan of its own (which upgrades prorated on the Plans panel
 * instead of buying a second one), a link to Plans. Nothing for others, or when no product sells the tier.
 */
export const TierOffer = ({
  device,
  unlocks,
  testIdPrefix,
}: {
  device: Pick<Device, 'id' | 'productLine' | 'access'>;
  unlocks: Pick<TierRow, 'tier' | 'name'> | undefined;
  testIdPrefix: string;
}) => {
  const user = useOptionalUser();
  const mayBuy = user !== undefined && mayManage(device) && unlocks !== undefined;
  const productsQuery = useProducts({ enabled: mayBuy });
  const subscriptionsQuery = useDeviceSubscriptions(device.id, { enabled: mayBuy });
  const product = mayBuy
    ? productOfTier(productsQuery.data?.items ?? [], device.productLine, unlocks?.tier)
    : undefined;
  if (!user || !unlocks || !product || !subscriptionsQuery.data) return null;
  if (changesInApp(currentSubscription(subscriptionsQuery.data.items, Date.now()), Date.now())) {
    return (
      <p className="sensor-lock-offer">
        <a href="#plans-heading" data-testid={`${testIdPrefix}-upgrade`}>
          Upgrade to {unlocks.name} under Plans
        </a>
      </p>
    );
  }
  return (
    <div className="sensor-lock-offer">
      <AddToCart
        userId={user.id}
        item={{ productId: product.id, deviceId: device.id }}
        label={`Add ${unlocks.name} to cart`}
        testId={`${testIdPrefix}-add`}
        className="primary"
      />
    </div>
  );
};
