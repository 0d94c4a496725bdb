import type { LocalPrice, LocalProduct, LocalRecurring, StripeStore } from './stripe-state';
import {
  boolField,
  type FormObject,
  intField,
  invalid,
  metadataOf,
  missing,
  nowSeconds,
  objectField,
  randomId,
  requiredString,
  StripeHttpError,
  stringField,
  stringList,
} from './stripe-wire';

/** Products and prices of the local Stripe server: Stripe's catalogue objects and their create/update rules. */

const INTERVALS = ['day', 'week', 'month', 'year'] as const;

/** Where a period that starts at `from` ends, months clamped to the month's last day as Stripe bills. */
export const addInterval = (from: number, recurring: Pick<LocalRecurring, 'interval' | 'interval_count'>): number => {
  const count = recurring.interval_count;
  if (recurring.interval === 'day') return from + count * 86_400;
  if (recurring.interval === 'week') return from + count * 7 * 86_400;
  const months = recurring.interval === 'year' ? 12 * count : count;
  const date = new Date(from * 1000);
  const target = new Date(date);
  target.setUTCDate(1);
  target.setUTCMonth(date.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return Math.floor(target.getTime() / 1000);
};

export const formatMoney = (amount: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(amount / 100);

/** "$19.00 / month", "$190.00 / year", "$5.00 every 3 months", "$5.00" (one-off). */
export const priceLabel = (price: LocalPrice) => {
  const money = formatMoney(price.unit_amount, price.currency);
  if (!price.recurring) return money;
  const { interval, interval_count: count } = price.recurring;
  return count === 1 ? `${money} / ${interval}` : `${money} every ${count} ${interval}s`;
};

const recurringOf = (value: FormObject | null): LocalRecurring | null => {
  if (!value) return null;
  const interval = stringField(value, 'interval');
  if (!interval || !(INTERVALS as readonly string[]).includes(interval)) {
    throw invalid(`Invalid recurring[interval]: must be one of ${INTERVALS.join(', ')}`, {
      param: 'recurring[interval]',
    });
  }
  const count = intField(value, 'interval_count', { min: 1 }) ?? 1;
  const maxCount = { day: 1095, week: 156, month: 36, year: 3 }[interval as LocalRecurring['interval']];
  if (count > maxCount) {
    throw invalid(`The maximum interval_count for a ${interval} interval is ${maxCount}.`, {
      param: 'recurring[interval_count]',
    });
  }
  return {
    interval: interval as LocalRecurring['interval'],
    interval_count: count,
    meter: null,
    trial_period_days: intField(value, 'trial_period_days', { min: 1 }),
    usage_type: 'licensed',
  };
};

const unitAmountOf = (form: FormObject): number => {
  const amount = intField(form, 'unit_amount');
  if (amount !== null) return amount;
  const decimal = stringField(form, 'unit_amount_decimal');
  if (decimal !== null && Number.isInteger(Number(decimal)) && Number(decimal) >= 0) return Number(decimal);
  throw invalid('Missing required param: unit_amount.', { param: 'unit_amount' });
};

export const createCatalogue = (store: StripeStore) => {
  const { state } = store;

  const findProduct = (id: string, param = 'id') => {
    const product = state.products.find((p) => p.id === id);
    if (!product) throw missing('product', id, param);
    return product;
  };
  const findPrice = (id: string, param = 'id') => {
    const price = state.prices.find((p) => p.id === id);
    if (!price) throw missing('price', id, param);
    return price;
  };

  const newPrice = (form: FormObject, product: string, livemode: boolean): LocalPrice => {
    const currency = requiredString(form, 'currency').toLowerCase();
    const unitAmount = unitAmountOf(form);
    const recurring = recurringOf(objectField(form, 'recurring'));
    const lookupKey = stringField(form, 'lookup_key');
    if (lookupKey) {
      const holder = state.prices.find((p) => p.lookup_key === lookupKey);
      if (holder && stringField(form, 'transfer_lookup_key') !== 'true') {
        throw invalid(
          `A price (\`${holder.id}\`) already uses that lookup key. Set \`transfer_lookup_key\` to move it.`,
          { param: 'lookup_key' },
        );
      }
      if (holder) holder.lookup_key = null;
    }
    return {
      id: randomId('price_', 24),
      object: 'price',
      active: boolField(form, 'active') ?? true,
      billing_scheme: 'per_unit',
      created: nowSeconds(),
      currency,
      custom_unit_amount: null,
      livemode,
      lookup_key: lookupKey,
      metadata: metadataOf(form),
      nickname: stringField(form, 'nickname'),
      product,
      recurring,
      tax_behavior: 'unspecified',
      tiers_mode: null,
      transform_quantity: null,
      type: recurring ? 'recurring' : 'one_time',
      unit_amount: unitAmount,
      unit_amount_decimal: String(unitAmount),
    };
  };

  const createProduct = async (form: FormObject, livemode: boolean): Promise<LocalProduct> => {
    const name = requiredString(form, 'name');
    const id = stringField(form, 'id') ?? randomId('prod_');
    if (state.products.some((p) => p.id === id)) {
      throw new StripeHttpError(400, 'invalid_request_error', `Product already exists.`, {
        code: 'resource_already_exists',
        param: 'id',
      });
    }
    const now = nowSeconds();
    const features = Array.isArray(form.marketing_features) ? (form.marketing_features as FormObject[]) : [];
    const product: LocalProduct = {
      id,
      object: 'product',
      active: boolField(form, 'active') ?? true,
      created: now,
      updated: now,
      default_price: null,
      description: stringField(form, 'description'),
      images: stringList(form, 'images'),
      livemode,
      marketing_features: features.map((f) => ({ name: requiredString(f, 'name') })),
      metadata: metadataOf(form),
      name,
      package_dimensions: null,
      shippable: null,
      statement_descriptor: null,
      tax_code: null,
      type: 'service',
      unit_label: stringField(form, 'unit_label'),
      url: stringField(form, 'url'),
    };
    const priceData = objectField(form, 'default_price_data');
    const price = priceData ? newPrice(priceData, id, livemode) : undefined;
    state.products.push(product);
    if (price) {
      state.prices.push(price);
      product.default_price = price.id;
    }
    await store.save();
    return product;
  };

  const updateProduct = async (id: string, form: FormObject): Promise<LocalProduct> => {
    const product = findProduct(id);
    const defaultPrice = stringField(form, 'default_price');
    if (defaultPrice !== null && findPrice(defaultPrice, 'default_price').product !== id) {
      throw invalid(`The price ${defaultPrice} does not belong to the product ${id}.`, { param: 'default_price' });
    }
    Object.assign(product, {
      name: stringField(form, 'name') ?? product.name,
      active: boolField(form, 'active') ?? product.active,
      description: form.description === undefined ? product.description : stringField(form, 'description'),
      metadata: metadataOf(form, product.metadata),
      default_price: defaultPrice ?? product.default_price,
      updated: nowSeconds(),
    });
    await store.save();
    return product;
  };

  const createPrice = async (form: FormObject, livemode: boolean): Promise<LocalPrice> => {
    const productData = objectField(form, 'product_data');
    let product = stringField(form, 'product');
    if (product) findProduct(product, 'product');
    else if (productData) product = (await createProduct(productData, livemode)).id;
    else throw invalid('Missing required param: product.', { param: 'product' });
    const price = newPrice(form, product, livemode);
    state.prices.push(price);
    await store.save();
    return price;
  };

  const updatePrice = async (id: string, form: FormObject): Promise<LocalPrice> => {
    const price = findPrice(id);
    Object.assign(price, {
      active: boolField(form, 'active') ?? price.active,
      nickname: form.nickname === undefined ? price.nickname : stringField(form, 'nickname'),
      metadata: metadataOf(form, price.metadata),
    });
    await store.save();
    return price;
  };

  return { findProduct, findPrice, createProduct, updateProduct, createPrice, updatePrice };
};

export type Catalogue = ReturnType<typeof createCatalogue>;
