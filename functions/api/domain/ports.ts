import type Stripe from 'stripe';
import type { Invoice, Price, Product, Subscription } from '../../../shared/contracts/api-subscriptions';

export interface BillingCatalogue {
  products: () => Promise<Product[]>;
  product: (id: string) => Promise<Stripe.Product | undefined>;
  toProduct: (product: Stripe.Product) => Product;
  prices: (productId: string) => Promise<Price[]>;
  price: (id: string) => Promise<Price | undefined>;
  invoice: (id: string) => Promise<Invoice | undefined>;
  customersByEmail: (email: string) => Promise<
    {
      id: string;
      email?: string | undefined;
      name?: string | undefined;
    }[]
  >;
  subscriptionsOf: (customerId: string) => Promise<Subscription[]>;
  subscription: (id: string) => Promise<Subscription>;
  /** Stripe's own subscription (items expanded to their price and product), for a change to it. */
  stripeSubscription: (id: string) => Promise<Stripe.Subscription>;
  updateSubscription: (id: string, params: Stripe.SubscriptionUpdateParams) => Promise<void>;
  /** The schedule managing a subscription, made from it when it has none (Stripe's way to change at period end). */
  scheduleOf: (subscription: Stripe.Subscription) => Promise<Stripe.SubscriptionSchedule>;
  updateSchedule: (id: string, params: Stripe.SubscriptionScheduleUpdateParams) => Promise<void>;
  releaseSchedule: (id: string) => Promise<void>;
  /** A customer's invoices, newest first, one Stripe page (`cursor` is the last invoice of the page before). */
  invoicesOf: (
    customerId: string,
    page: {
      limit: number;
      cursor?: string;
    },
  ) => Promise<{
    items: Invoice[];
    nextCursor?: string;
  }>;
  entitlements: (customerId: string) => Promise<
    {
      id: string;
      lookupKey: string;
      featureId: string;
    }[]
  >;
  portal: (customer: string, returnUrl: string) => Promise<string>;
  /** Whether the key is a live one: Stripe marks every object it answers with its mode. */
  livemode: () => Promise<boolean>;
  checkout: (session: Stripe.Checkout.SessionCreateParams) => Promise<{
    sessionId: string;
    url: string;
  }>;
}
