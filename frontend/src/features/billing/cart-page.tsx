import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { isStaff } from '../../../../shared/auth/groups';
import { boughtQuantity } from '../../../../shared/billing/per-device';
import type { Price, Product } from '../../../../shared/contracts/api-subscriptions';
import type { CartItem } from '../../../../shared/contracts/users';
import { ErrorAlert } from '../../components/form-parts';
import { type Column, ListTable } from '../../components/list-table';
import { errorMessage } from '../../lib/error-message';
import { errorOf, useChanges } from '../../lib/query';
import { useSignedInUser } from '../../lib/session';
import { usePricesOf, useProducts } from './billing-api';
import { cartKeys, checkoutCart, removeCartItem, setCartQuantity, useCart, useCartDevices } from './cart-api';
import { itemInWords, quantityChoosable } from './cart-item-words';
import {
  chargedPrice,
  type DeviceState,
  intervalText,
  itemProblem,
  itemTierText,
  totalsPerInterval,
} from './cart-rules';
import { formatCents } from './plan-rules';
import './billing.css';
import './cart.css';

interface Line {
  item: CartItem;
  key: string;
  product?: Product;
  price?: Price;
  device?: DeviceState;
  problem?: string;
}

const MAX_QUANTITY = 1000;

/**
 * `/dashboard/cart` (docs/frontend-registry.md, "Billing"): the signed-in person's cart, each item with its product,
 * tier, device, price and quantity, the totals per billing interval, and Checkout, which opens one Stripe Checkout
 * session for the whole cart. An item whose product is no longer on sale or whose device the person no longer
 * manages says so, and the cart cannot be checked out until it is removed.
 */
export const CartPage = () => {
  const user = useSignedInUser();
  const staff = isStaff(user.groups);
  const cartQuery = useCart(user.id);
  const items = cartQuery.data;
  const productsQuery = useProducts();
  const products = productsQuery.data?.items;
  const inCart = useMemo(
    () => (products ?? []).filter((product) => items?.some((item) => item.productId === product.id)),
    [products, items],
  );
  const prices = usePricesOf(inCart);
  const deviceIds = useMemo(() => [...new Set((items ?? []).map((item) => item.deviceId))], [items]);
  const devices = useCartDevices(deviceIds);
  const { busy, error, run } = useChanges<`quantity:${string}` | `remove:${string}` | 'checkout'>();
  // The checkout page the browser is leaving for: the button keeps waiting until the page goes.
  const [leaving, setLeaving] = useState(false);

  const lines: Line[] = (items ?? []).map((item) => {
    const key = `${item.productId}|${item.deviceId}`;
    const at = inCart.findIndex((product) => product.id === item.productId);
    const product = at >= 0 ? inCart[at] : undefined;
    const priceList = at >= 0 ? prices[at]?.data?.items : undefined;
    const deviceQuery = devices[deviceIds.indexOf(item.deviceId)];
    const device: DeviceState | undefined = deviceQuery?.data
      ? { device: deviceQuery.data }
      : deviceQuery?.error
        ? { error: errorMessage(deviceQuery.error) }
        : undefined;
    return {
      item,
      key,
      product,
      price: product && priceList ? chargedPrice(product, priceList) : undefined,
      device,
      // Until the catalogue is read, no product is known to be off sale.
      problem: products ? itemProblem(product, device, staff) : undefined,
    };
  });
  const blocked = lines.some((line) => line.problem);
  // Every item bought one per device, once each (all the catalogue sells): no Quantity column to read.
  const quantities = lines.some(
    (line) => quantityChoosable(line.product) || boughtQuantity(line.product, line.item.quantity) !== 1,
  );
  const ready = products !== undefined && lines.every((line) => line.device !== undefined);

  const change = (what: `quantity:${string}` | `remove:${string}`, action: () => Promise<unknown>) =>
    void run(what, action, cartKeys(user.id));

  const checkout = () =>
    void run('checkout', async () => {
      const url = await checkoutCart(items ?? []);
      setLeaving(true);
      window.location.assign(url);
    });

  const columns: Column<Line>[] = [
    {
      header: 'Product',
      cell: ({ item, product, problem, key }) => (
        <>
          <span data-testid={`cart-product-${key}`}>{product?.name ?? item.productId}</span>
          {problem && (
            <span className="cart-problem" data-testid={`cart-problem-${key}`}>
              {problem}
            </span>
          )}
        </>
      ),
    },
    { header: 'Tier', cell: ({ product }) => itemTierText(product) },
    {
      header: 'Device',
      cell: ({ item, device }) => (
        <Link to={`/dashboard/devices/${encodeURIComponent(item.deviceId)}`}>
          {device && 'device' in device ? device.device.name || device.device.serial || item.deviceId : item.deviceId}
        </Link>
      ),
    },
    {
      header: 'Price',
      cell: ({ price }) =>
        price ? (
          <>
            {formatCents(price.unitAmount, price.currency)} <span className="muted small">{intervalText(price)}</span>
          </>
        ) : (
          <span className="muted small">—</span>
        ),
    },
    {
      header: 'Quantity',
      cell: ({ item, key, product, device }) =>
        quantityChoosable(product) ? (
          <QuantityStepper
            item={item}
            words={itemInWords(item, product, device)}
            disabled={busy !== undefined}
            onChange={(quantity) => change(`quantity:${key}`, () => setCartQuantity(user.id, item, quantity))}
          />
        ) : (
          // Bought for one device: a number to read, not to choose, and what checkout charges.
          <span data-testid={`cart-quantity-${key}`}>{boughtQuantity(product, item.quantity)}</span>
        ),
    },
    {
      header: 'Remove',
      cell: ({ item, key, product, device }) => (
        <button
          type="button"
          data-testid={`cart-remove-${key}`}
          aria-label={`Remove ${itemInWords(item, product, device)}`}
          disabled={busy !== undefined}
          onClick={() => change(`remove:${key}`, () => removeCartItem(user.id, item))}
        >
          {busy === `remove:${key}` ? 'Removing…' : 'Remove'}
        </button>
      ),
    },
  ];

  return (
    <section className="page">
      <h1>Cart</h1>
      <div className="card section-card" data-testid="cart">
        <ErrorAlert testId="cart-read-error" error={errorOf(cartQuery)} />
        <ErrorAlert testId="cart-catalogue-error" error={errorOf(productsQuery)} />
        {!items && !cartQuery.error && <p className="muted">Loading your cart…</p>}
        {items?.length === 0 && (
          <p data-testid="cart-empty">
            Your cart is empty. Add a tier or the cellular data service from a device's Plans panel.
          </p>
        )}
        {items && items.length > 0 && (
          <>
            <ListTable
              label="Cart"
              testId="cart-items"
              columns={quantities ? columns : columns.filter((column) => column.header !== 'Quantity')}
              rows={lines}
              rowKey={(line) => line.key}
              rowTestId={(line) => `cart-item-${line.key}`}
            />
            <dl className="facts cart-totals" data-testid="cart-totals">
              <dt>Total</dt>
              <dd>
                {totalsPerInterval(lines).map((total) => (
                  <span key={total} className="cart-total" data-testid="cart-total">
                    {total}
                  </span>
                ))}
              </dd>
            </dl>
            {blocked && (
              <p className="cart-blocked" data-testid="cart-blocked">
                Remove the items marked above to check out: they cannot be bought.
              </p>
            )}
            <p className="actions">
              <button
                type="button"
                className="primary"
                data-testid="cart-checkout"
                disabled={busy !== undefined || leaving || blocked || !ready}
                onClick={checkout}
              >
                {busy === 'checkout' || leaving ? 'Opening checkout…' : 'Checkout'}
              </button>
              <span className="muted small"> Paid on Stripe's checkout page; you come back here after.</span>
            </p>
          </>
        )}
        <ErrorAlert testId="cart-error" error={error} />
      </div>
    </section>
  );
};

/** − and + for an item sold by the unit, named in words for a screen reader ("One more Spare sensor caps for Roof"). */
const QuantityStepper = ({
  item,
  words,
  disabled,
  onChange,
}: {
  item: CartItem;
  words: string;
  disabled: boolean;
  onChange: (quantity: number) => void;
}) => {
  const key = `${item.productId}|${item.deviceId}`;
  return (
    <span className="cart-quantity">
      <button
        type="button"
        aria-label={`One fewer ${words}`}
        data-testid={`cart-less-${key}`}
        disabled={disabled || item.quantity <= 1}
        onClick={() => onChange(item.quantity - 1)}
      >
        −
      </button>
      <output data-testid={`cart-quantity-${key}`} aria-live="polite">
        {item.quantity}
      </output>
      <button
        type="button"
        aria-label={`One more ${words}`}
        data-testid={`cart-more-${key}`}
        disabled={disabled || item.quantity >= MAX_QUANTITY}
        onClick={() => onChange(item.quantity + 1)}
      >
        +
      </button>
    </span>
  );
};
