import { MESSAGES } from '../../../shared/messages';
import { payAt, subscriptionRecord, until } from '../../support/billing';
import { freshUser } from '../../support/people';
import { freshDevice } from '../../support/sensor-data';
import { apiAs, apiRejection, stack, tokenOf } from '../../support/stack';

/**
 * Spec §5's cart through the gateway: one atomic change of the person's record per call (self or staff), and a paid
 * checkout of the cart → the local Stripe server's signed webhook → the bought items leave the cart.
 */

const users = (token?: string) => apiAs('users', token);
const web = () => stack().endpoints.web ?? 'http://localhost:5173';

describe('billing: the cart (spec §5)', () => {
  it('adds, refuses a duplicate with 409 "Item already in cart", changes a quantity and removes; only self or staff', async () => {
    const person = await freshUser({ prefix: 'cart-owner' });
    const stranger = await freshUser({ prefix: 'cart-stranger' });
    const device = await freshDevice({ productLine: 'sd1', ownerToken: person.token });
    const mine = users(person.token);
    const tier2 = { productId: 'prod_sd1_tier2', deviceId: device.id, quantity: 1 };
    const cellular = { productId: 'prod_cellular_data_service', deviceId: device.id, quantity: 1 };

    await expect(mine.addCartItem({ params: { id: person.id }, body: tier2 })).resolves.toEqual({ items: [tier2] });
    await expect(mine.addCartItem({ params: { id: person.id }, body: cellular })).resolves.toEqual({
      items: [tier2, cellular],
    });
    const duplicate = await apiRejection(
      mine.addCartItem({ params: { id: person.id }, body: { ...tier2, quantity: 5 } }),
    );
    expect([duplicate.status, duplicate.message]).toEqual([409, 'Item already in cart']);

    const key = { id: person.id, productId: 'prod_cellular_data_service', deviceId: device.id };
    await expect(mine.updateCartItem({ params: key, body: { quantity: 3 } })).resolves.toEqual({
      items: [tier2, { ...cellular, quantity: 3 }],
    });
    // The cart is on the record: what the record answers is what the cart routes changed.
    expect((await mine.getUserRecord({ params: { id: person.id } })).cartItems).toEqual([
      tier2,
      { ...cellular, quantity: 3 },
    ]);

    // Someone else's cart: 403, for every change; the cart is as it was.
    const theirs = users(stranger.token);
    for (const call of [
      theirs.addCartItem({ params: { id: person.id }, body: { ...tier2, productId: 'prod_sd1_tier1' } }),
      theirs.updateCartItem({ params: key, body: { quantity: 9 } }),
      theirs.removeCartItem({ params: key }),
    ]) {
      expect(await apiRejection(call)).toMatchObject({ status: 403, message: MESSAGES.selfOrStaffOnly });
    }
    expect((await mine.getUserRecord({ params: { id: person.id } })).cartItems).toHaveLength(2);

    // Staff may change anyone's cart.
    const staff = users(await tokenOf('employee@example.com'));
    await expect(staff.updateCartItem({ params: key, body: { quantity: 2 } })).resolves.toEqual({
      items: [tier2, { ...cellular, quantity: 2 }],
    });
    await expect(staff.removeCartItem({ params: key })).resolves.toEqual({ items: [tier2] });

    // What is not in the cart cannot be changed or removed; the whole-cart PUT still replaces it.
    const gone = await apiRejection(mine.removeCartItem({ params: key }));
    expect([gone.status, gone.message]).toEqual([404, MESSAGES.cartItemMissing]);
    await expect(mine.updateUserRecord({ params: { id: person.id }, body: { cartItems: [] } })).resolves.toMatchObject({
      cartItems: [],
    });
  });

  it('a paid checkout of the cart → signed webhook → the bought items leave the cart, what was added since stays', async () => {
    const person = await freshUser({ prefix: 'cart-buyer' });
    const device = await freshDevice({ productLine: 'sd1', ownerToken: person.token });
    const other = await freshDevice({ productLine: 'sd1', ownerToken: person.token });
    const mine = users(person.token);
    const tier2 = { productId: 'prod_sd1_tier2', deviceId: device.id, quantity: 1 };
    const cellular = { productId: 'prod_cellular_data_service', deviceId: device.id, quantity: 1 };
    await mine.addCartItem({ params: { id: person.id }, body: tier2 });
    const { items } = await mine.addCartItem({ params: { id: person.id }, body: cellular });

    const session = await apiAs('api', person.token).checkout({
      body: { items, successUrl: `${web()}/billing/return`, cancelUrl: `${web()}/billing/return?cancelled=1` },
    });
    // Put in the cart while paying: not part of the checkout, so it stays.
    const later = { productId: 'prod_sd1_tier1', deviceId: other.id, quantity: 1 };
    await mine.addCartItem({ params: { id: person.id }, body: later });
    expect((await payAt(session.url, '4242 4242 4242 4242')).status).toBe(303);

    const record = await until(
      () => mine.getUserRecord({ params: { id: person.id } }),
      (r) => r.cartItems.length === 1,
      'the bought items to leave the cart',
    );
    expect(record.cartItems).toEqual([later]);
    expect(await subscriptionRecord(device.id)).toMatchObject({ productId: 'prod_sd1_tier2', status: 'active' });
    // The checkout's completion worked once: a second look finds the cart as the webhook left it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await mine.getUserRecord({ params: { id: person.id } })).cartItems).toEqual([later]);
  });
});
