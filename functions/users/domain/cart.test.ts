import type { CartItem } from '../../../shared/contracts/users';
import { MAX_CART_ITEMS, withItem, withoutItem, withQuantity } from './cart';

const item = (productId: string, deviceId: string, quantity = 1): CartItem => ({ productId, deviceId, quantity });

describe('cart rules (spec §5)', () => {
  it('adds an item after the others; the same product for another device, or another product, is a new item', () => {
    const cart = withItem([item('p', 'd1')], item('p', 'd2'));
    expect(withItem(cart, item('q', 'd1'))).toEqual([item('p', 'd1'), item('p', 'd2'), item('q', 'd1')]);
  });

  it('refuses a second item of the same product and device with 409 "Item already in cart", whatever its quantity', () => {
    expect(() => withItem([item('p', 'd1')], item('p', 'd1', 4))).toThrow(
      expect.objectContaining({ status: 409, message: 'Item already in cart' }),
    );
  });

  it('holds at most as many items as the whole-cart PUT accepts', () => {
    const full = Array.from({ length: MAX_CART_ITEMS }, (_, i) => item('p', `d${i}`));
    expect(() => withItem(full, item('p', 'one-more'))).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('changes the quantity of one item and removes one item, leaving the others as they were', () => {
    const cart = [item('p', 'd1'), item('p', 'd2', 2)];
    expect(withQuantity(cart, { productId: 'p', deviceId: 'd2' }, 5)).toEqual([item('p', 'd1'), item('p', 'd2', 5)]);
    expect(withoutItem(cart, { productId: 'p', deviceId: 'd1' })).toEqual([item('p', 'd2', 2)]);
  });

  it('answers 404 for a change or removal of an item that is not in the cart', () => {
    expect(() => withQuantity([item('p', 'd1')], { productId: 'q', deviceId: 'd1' }, 2)).toThrow(
      expect.objectContaining({ status: 404, message: 'This item is not in the cart' }),
    );
    expect(() => withoutItem([], { productId: 'p', deviceId: 'd1' })).toThrow(expect.objectContaining({ status: 404 }));
  });
});
