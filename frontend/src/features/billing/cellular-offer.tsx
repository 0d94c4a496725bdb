import { AddToCart } from './add-to-cart';
import { usePricesOf, useProducts } from './billing-api';
import { cellularProduct, chargedPrice, intervalText } from './cart-rules';
import { formatCents } from './plan-rules';

/**
 * The cellular data service on the Plans panel (spec §5): bought per device, with any tier, through the cart.
 * Shows nothing while no such product is on sale.
 */
export const CellularOffer = ({ userId, deviceId }: { userId: string; deviceId: string }) => {
  const products = useProducts().data?.items ?? [];
  const product = cellularProduct(products);
  const [prices] = usePricesOf(product ? [product] : []);
  if (!product) return null;
  const price = prices?.data ? chargedPrice(product, prices.data.items) : undefined;
  return (
    <div className="plan cellular-offer" data-testid="plan-cellular">
      <h3 id="plan-name-cellular">{product.name}</h3>
      {product.description && <p className="muted small">{product.description}</p>}
      <p className="plan-price" data-testid="plan-price-cellular">
        {price ? (
          <>
            {formatCents(price.unitAmount, price.currency)}
            <span className="muted small"> {intervalText(price)}</span>
          </>
        ) : (
          <span className="muted small">{prices?.isError ? 'Price unavailable' : 'Loading the price…'}</span>
        )}
      </p>
      <p className="muted small">Per device, with any tier.</p>
      <AddToCart
        userId={userId}
        item={{ productId: product.id, deviceId }}
        testId="plan-cart-cellular"
        describedBy="plan-name-cellular"
      />
    </div>
  );
};
