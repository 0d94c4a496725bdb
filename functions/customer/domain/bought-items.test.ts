import type { CartItem } from '../../../shared/contracts/users';
import { silentLog } from '../../../test/support/log';
import { deviceMetadata } from '../../_shared/billing/subscription-devices';
import { type CartStore, removeBoughtItems } from './bought-items';

const item = (productId: string, deviceId: string, quantity = 1): CartItem => ({ productId, deviceId, quantity });

/** One person's cart in memory; `interfere` changes it between a read and the write that follows, n times. */
const memoryCarts = (items: CartItem[], interfere = 0) => {
  const state = { items, version: 1, writes: 0 };
  const carts: CartStore = {
    read: async (userId) => (userId === 'ann' ? { items: state.items, version: state.version } : undefined),
    write: async (_userId, next, readVersion, now) => {
      if (interfere > 0) {
        interfere -= 1;
        state.version += 1;
        return false;
      }
      if (readVersion !== state.version) return false;
      state.items = next;
      state.version = Math.max(now, readVersion + 1);
      state.writes += 1;
      return true;
    },
  };
  return { carts, state };
};

const subscription = (userId: string | undefined, pairs: { productId: string; deviceId: string }[]) => ({
  id: 'sub_1',
  metadata: { ...(userId ? { userId } : {}), ...deviceMetadata(pairs) },
});

describe('removeBoughtItems: a paid checkout empties the cart of what it bought', () => {
  it('takes out exactly the product and device pairs the subscription names, whatever their quantity', async () => {
    const { carts, state } = memoryCarts([
      item('prod_sd1_tier2', 'dev-1', 3),
      item('prod_cellular', 'dev-1'),
      item('prod_sd1_tier2', 'dev-2'),
    ]);
    const bought = [
      { productId: 'prod_sd1_tier2', deviceId: 'dev-1' },
      { productId: 'prod_cellular', deviceId: 'dev-1' },
    ];
    await expect(removeBoughtItems(carts, subscription('ann', bought), () => 10, silentLog)).resolves.toBe(2);
    expect(state.items).toEqual([item('prod_sd1_tier2', 'dev-2')]);
  });

  it('writes nothing when nothing bought is in the cart, or the buyer is unknown or gone', async () => {
    const { carts, state } = memoryCarts([item('prod_sd1_tier1', 'dev-1')]);
    const bought = [{ productId: 'prod_sd1_tier2', deviceId: 'dev-1' }];
    await expect(removeBoughtItems(carts, subscription('ann', bought), () => 10, silentLog)).resolves.toBe(0);
    await expect(removeBoughtItems(carts, subscription(undefined, bought), () => 10, silentLog)).resolves.toBe(0);
    await expect(removeBoughtItems(carts, subscription('gone', bought), () => 10, silentLog)).resolves.toBe(0);
    expect(state.writes).toBe(0);
  });

  it('reads again when the cart changed in between, and fails (for Stripe to retry) when it keeps changing', async () => {
    const bought = [{ productId: 'p', deviceId: 'd' }];
    const once = memoryCarts([item('p', 'd'), item('q', 'd')], 1);
    await expect(removeBoughtItems(once.carts, subscription('ann', bought), () => 10, silentLog)).resolves.toBe(1);
    expect(once.state.items).toEqual([item('q', 'd')]);

    const busy = memoryCarts([item('p', 'd')], 5);
    await expect(removeBoughtItems(busy.carts, subscription('ann', bought), () => 10, silentLog)).rejects.toThrow(
      /kept changing/,
    );
  });
});
