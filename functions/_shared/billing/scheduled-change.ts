import type Stripe from 'stripe';

/** What a subscription's schedule changes at its next phase: the product a device's item moves to, and when. */
export interface ScheduledChange {
  scheduledProductId: string;
  scheduledProductName: string;
  /** When the next phase starts, in milliseconds (spec §9). */
  scheduledAt: number;
}

/** Deep enough for the next phase's product names: a subscription's own expand would need five levels. */
export const SCHEDULE_EXPAND = ['phases.items.price.product'];

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? undefined);

/** The schedule that manages a subscription, read with its phases' products; undefined without one. */
export const readSchedule = async (
  stripe: Stripe,
  subscription: Pick<Stripe.Subscription, 'schedule'>,
): Promise<Stripe.SubscriptionSchedule | undefined> => {
  const id = idOf(subscription.schedule as string | { id: string } | null);
  return id ? stripe.subscriptionSchedules.retrieve(id, { expand: SCHEDULE_EXPAND }) : undefined;
};

/**
 * The change a schedule (phases' prices expanded to their products) makes when its next phase starts, for the item
 * of a product line (`line`; else the phase's only item); undefined when nothing comes after the running phase or
 * that item keeps its product.
 */
export const scheduledChangeOf = (
  schedule: Stripe.SubscriptionSchedule | undefined,
  currentProductId: string,
  line?: string,
): ScheduledChange | undefined => {
  if (!schedule || (schedule.status !== 'active' && schedule.status !== 'not_started')) return undefined;
  const running = schedule.current_phase;
  const index = running
    ? schedule.phases.findIndex((p) => p.start_date === running.start_date && p.end_date === running.end_date)
    : -1;
  const next = schedule.phases[index + 1];
  if (!next) return undefined;
  const products = next.items
    .map((item) => (typeof item.price === 'object' ? (item.price as Stripe.Price).product : undefined))
    .filter((product): product is Stripe.Product => typeof product === 'object' && product !== null);
  const product =
    (line ? products.find((p) => p.metadata?.productLine === line) : undefined) ??
    (products.length === 1 ? products[0] : undefined);
  if (!product || product.id === currentProductId) return undefined;
  return { scheduledProductId: product.id, scheduledProductName: product.name, scheduledAt: next.start_date * 1000 };
};
