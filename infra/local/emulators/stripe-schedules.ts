import { addInterval, type Catalogue } from './stripe-catalogue';
import type {
  LocalPrice,
  LocalSchedulePhase,
  LocalSubscription,
  LocalSubscriptionSchedule,
  StripeStore,
} from './stripe-state';
import {
  arrayField,
  type FormObject,
  intField,
  invalid,
  metadataOf,
  missing,
  nowSeconds,
  objectField,
  randomId,
  requiredString,
  stringField,
} from './stripe-wire';

/**
 * Subscription schedules, as far as a downgrade at period end needs them: made from a subscription (one phase, the
 * current period), given later phases, read, released; the subscription's period end moves it into the next phase.
 */

const CREATE_PARAMS = ['from_subscription', 'metadata', 'expand'];
const UPDATE_PARAMS = ['phases', 'end_behavior', 'proration_behavior', 'metadata', 'expand'];
const PRORATION_BEHAVIORS = ['create_prorations', 'always_invoice', 'none'] as const;

const refuseUnknown = (form: FormObject, allowed: readonly string[], what: string) => {
  const unknown = Object.keys(form).find((key) => !allowed.includes(key));
  if (unknown) {
    throw invalid(
      `The local Stripe server does not implement the subscription schedule ${what} parameter: ${unknown}. It takes ${allowed.join(', ')}.`,
      { param: unknown },
    );
  }
};

/** A time parameter: seconds, or `now`. */
const timeField = (form: FormObject, name: string, now: number): number | null =>
  form[name] === 'now' ? now : intField(form, name);

export const createSchedules = ({
  store,
  catalogue,
  emit,
  changed,
  findSubscription,
  setItems,
}: {
  store: StripeStore;
  catalogue: Catalogue;
  emit: (type: string, object: unknown, previous?: Record<string, unknown>) => void;
  changed: (before: object, after: object) => Record<string, unknown>;
  findSubscription: (id: string) => LocalSubscription;
  /** Gives the subscription these items (same cycle, no proration: a phase starts at a period's end). */
  setItems: (subscription: LocalSubscription, items: { price: LocalPrice; quantity: number }[]) => void;
}) => {
  const { state } = store;
  const clone = <T>(value: T): T => structuredClone(value);

  const findSchedule = (id: string) => {
    const schedule = state.subscriptionSchedules.find((s) => s.id === id);
    if (!schedule) throw missing('subscription_schedule', id);
    return schedule;
  };

  const phaseOf = (
    start: number,
    end: number,
    currency: string,
    items: { price: string; quantity: number; metadata?: Record<string, string> }[],
    prorationBehavior: LocalSchedulePhase['proration_behavior'] = 'create_prorations',
  ): LocalSchedulePhase => ({
    add_invoice_items: [],
    application_fee_percent: null,
    billing_cycle_anchor: null,
    billing_thresholds: null,
    collection_method: null,
    currency,
    default_payment_method: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    end_date: end,
    invoice_settings: null,
    items: items.map((item) => ({
      billing_thresholds: null,
      discounts: [],
      metadata: item.metadata ?? {},
      plan: item.price,
      price: item.price,
      quantity: item.quantity,
      tax_rates: [],
    })),
    metadata: {},
    on_behalf_of: null,
    proration_behavior: prorationBehavior,
    start_date: start,
    transfer_data: null,
    trial_end: null,
  });

  const periodOf = (subscription: LocalSubscription) => {
    const item = subscription.items.data[0]!;
    return { start: item.current_period_start, end: item.current_period_end };
  };

  /** `subscriptionSchedules.create({from_subscription})`: one phase, the subscription's items until its period ends. */
  const createSchedule = async (form: FormObject, livemode: boolean): Promise<LocalSubscriptionSchedule> => {
    refuseUnknown(form, CREATE_PARAMS, 'create');
    const subscriptionId = stringField(form, 'from_subscription');
    if (!subscriptionId) {
      throw invalid(
        'The local Stripe server creates subscription schedules from an existing subscription only (from_subscription).',
        { param: 'from_subscription' },
      );
    }
    const subscription = findSubscription(subscriptionId);
    if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') {
      throw invalid(`You cannot create a subscription schedule from a ${subscription.status} subscription.`, {
        param: 'from_subscription',
      });
    }
    if (subscription.schedule) {
      throw invalid(
        `You cannot migrate a subscription that is already attached to a schedule: \`${subscription.schedule}\`.`,
        { param: 'from_subscription' },
      );
    }
    const { start, end } = periodOf(subscription);
    const now = nowSeconds();
    const schedule: LocalSubscriptionSchedule = {
      id: randomId('sub_sched_', 24),
      object: 'subscription_schedule',
      application: null,
      billing_mode: { type: 'classic', flexible: null },
      canceled_at: null,
      completed_at: null,
      created: now,
      current_phase: { start_date: start, end_date: end },
      customer: subscription.customer,
      customer_account: null,
      default_settings: {
        application_fee_percent: null,
        billing_cycle_anchor: 'automatic',
        billing_thresholds: null,
        collection_method: 'charge_automatically',
        default_payment_method: null,
        description: null,
        invoice_settings: { account_tax_ids: null, days_until_due: null, issuer: { type: 'self' } },
        on_behalf_of: null,
        transfer_data: null,
      },
      end_behavior: 'release',
      livemode,
      metadata: metadataOf(form),
      phases: [
        phaseOf(
          start,
          end,
          subscription.currency,
          subscription.items.data.map((item) => ({ price: item.price.id, quantity: item.quantity })),
        ),
      ],
      released_at: null,
      released_subscription: null,
      status: 'active',
      subscription: subscription.id,
      test_clock: null,
    };
    state.subscriptionSchedules.push(schedule);
    const before = clone(subscription);
    subscription.schedule = schedule.id;
    await store.save();
    emit('subscription_schedule.created', schedule);
    emit('customer.subscription.updated', subscription, changed(before, subscription));
    return schedule;
  };

  const assertEditable = (schedule: LocalSubscriptionSchedule) => {
    if (schedule.status !== 'active' && schedule.status !== 'not_started') {
      throw invalid(
        `You cannot update a subscription schedule that is currently in the \`${schedule.status}\` status.`,
      );
    }
  };

  /**
   * `subscriptionSchedules.update`: the phases from the current one on (its start date and items as they are: the
   * local server does not change the running phase), each ending at `end_date` or after `duration`; the last one
   * without either lasts one billing interval, as Stripe's default of one iteration.
   */
  const updateSchedule = async (id: string, form: FormObject): Promise<LocalSubscriptionSchedule> => {
    refuseUnknown(form, UPDATE_PARAMS, 'update');
    const schedule = findSchedule(id);
    assertEditable(schedule);
    const subscription = findSubscription(schedule.subscription!);
    const prorationBehavior = stringField(form, 'proration_behavior') ?? 'create_prorations';
    if (!(PRORATION_BEHAVIORS as readonly string[]).includes(prorationBehavior)) {
      throw invalid(`Invalid proration_behavior: ${prorationBehavior}`, { param: 'proration_behavior' });
    }
    const endBehavior = stringField(form, 'end_behavior') ?? schedule.end_behavior;
    if (endBehavior !== 'release' && endBehavior !== 'cancel') {
      throw invalid(`The local Stripe server implements end_behavior release and cancel only; got ${endBehavior}.`, {
        param: 'end_behavior',
      });
    }
    const now = nowSeconds();
    const given = form.phases === undefined ? null : arrayField(form, 'phases');
    if (given !== null) {
      if (given.length === 0) throw invalid('A subscription schedule needs at least one phase.', { param: 'phases' });
      const cycle = subscription.items.data[0]!.price.recurring!;
      const phases: LocalSchedulePhase[] = [];
      let start = schedule.current_phase?.start_date ?? now;
      given.forEach((phase, index) => {
        const param = `phases[${index}]`;
        const startDate = timeField(phase, 'start_date', now);
        if (index === 0 && startDate !== null && startDate !== start) {
          throw invalid('You can not modify the start date of the current phase.', { param: `${param}[start_date]` });
        }
        if (index > 0 && startDate !== null && startDate !== start) {
          throw invalid(`The start_date of a phase must equal the end_date of the phase before it.`, {
            param: `${param}[start_date]`,
          });
        }
        const items = arrayField(phase, 'items').map((item, i) => {
          const price = catalogue.findPrice(requiredString(item, 'price'), `${param}[items][${i}][price]`);
          if (!price.recurring) {
            throw invalid('A subscription item needs a recurring price.', { param: `${param}[items][${i}][price]` });
          }
          if (!price.active) {
            throw invalid(`The price specified is inactive: ${price.id}.`, { param: `${param}[items][${i}][price]` });
          }
          if (price.recurring.interval !== cycle.interval || price.recurring.interval_count !== cycle.interval_count) {
            throw invalid(
              'The local Stripe server schedules prices within one billing interval only (month to month, year to year).',
              { param: `${param}[items][${i}][price]` },
            );
          }
          return { price: price.id, quantity: intField(item, 'quantity', { min: 1 }) ?? 1, metadata: metadataOf(item) };
        });
        if (items.length === 0) throw invalid('Missing required param: items.', { param: `${param}[items]` });
        const duration = objectField(phase, 'duration');
        const endDate = timeField(phase, 'end_date', now);
        if (endDate !== null && duration) {
          throw invalid('You may only specify one of end_date and duration.', { param: `${param}[duration]` });
        }
        const isLast = index === given.length - 1;
        if (endDate === null && !duration && !isLast) {
          throw invalid('Every phase but the last needs an end_date or a duration.', { param: `${param}[end_date]` });
        }
        const end =
          endDate ??
          addInterval(
            start,
            duration
              ? {
                  interval: requiredString(duration, 'interval') as never,
                  interval_count: intField(duration, 'interval_count', { min: 1 }) ?? 1,
                }
              : cycle,
          );
        if (end <= start) throw invalid('A phase must end after it starts.', { param: `${param}[end_date]` });
        if (index > 0 && start < now) {
          throw invalid('A phase after the current one cannot start in the past.', { param: `${param}[start_date]` });
        }
        if (index === 0 && schedule.status === 'active') {
          const running = subscription.items.data.map((i) => `${i.price.id}×${i.quantity}`).join(',');
          if (items.map((i) => `${i.price}×${i.quantity}`).join(',') !== running) {
            throw invalid(
              "The local Stripe server does not change the current phase's items; update the subscription for a change now.",
              { param: `${param}[items]` },
            );
          }
        }
        phases.push(
          phaseOf(
            start,
            end,
            subscription.currency,
            items,
            (stringField(phase, 'proration_behavior') ?? prorationBehavior) as LocalSchedulePhase['proration_behavior'],
          ),
        );
        start = end;
      });
      schedule.phases = phases;
      if (schedule.status === 'active') {
        schedule.current_phase = { start_date: phases[0]!.start_date, end_date: phases[0]!.end_date };
      }
    }
    schedule.end_behavior = endBehavior;
    schedule.metadata = metadataOf(form, schedule.metadata);
    await store.save();
    emit('subscription_schedule.updated', schedule);
    return schedule;
  };

  /** `subscriptionSchedules.release`: the subscription goes on as it is now, no longer managed by the schedule. */
  const releaseSchedule = async (id: string): Promise<LocalSubscriptionSchedule> => {
    const schedule = findSchedule(id);
    if (schedule.status !== 'active' && schedule.status !== 'not_started') {
      throw invalid(
        `You cannot release a subscription schedule that is currently in the \`${schedule.status}\` status.`,
      );
    }
    const subscription = schedule.subscription ? findSubscription(schedule.subscription) : undefined;
    const before = subscription && clone(subscription);
    Object.assign(schedule, {
      status: 'released',
      released_at: nowSeconds(),
      released_subscription: schedule.subscription,
      subscription: null,
      current_phase: null,
    } satisfies Partial<LocalSubscriptionSchedule>);
    if (subscription) subscription.schedule = null;
    await store.save();
    emit('subscription_schedule.released', schedule);
    if (subscription && before) emit('customer.subscription.updated', subscription, changed(before, subscription));
    return schedule;
  };

  /**
   * The subscription's period ends now (the `advance` test route): its schedule moves into the next phase, whose
   * items the subscription takes for the new period (the phases' dates move with the clock); after the last phase
   * the schedule is released (or, with `end_behavior: cancel`, completes and the subscription is to be canceled).
   * Answers whether the subscription is to be canceled.
   */
  const atPeriodEnd = (subscription: LocalSubscription, now: number): { cancel: boolean } => {
    if (!subscription.schedule) return { cancel: false };
    const schedule = findSchedule(subscription.schedule);
    if (schedule.status !== 'active') return { cancel: false };
    const index = schedule.phases.findIndex(
      (p) => p.start_date === schedule.current_phase?.start_date && p.end_date === schedule.current_phase?.end_date,
    );
    const current = schedule.phases[index];
    const next = schedule.phases[index + 1];
    if (current) {
      // The clock jumped: the plan's later dates move by as much.
      const shift = now - current.end_date;
      current.end_date = now;
      for (const later of schedule.phases.slice(index + 1)) {
        later.start_date += shift;
        later.end_date += shift;
      }
    }
    if (next) {
      setItems(
        subscription,
        next.items.map((item) => ({ price: catalogue.findPrice(item.price), quantity: item.quantity })),
      );
      schedule.current_phase = { start_date: next.start_date, end_date: next.end_date };
      emit('subscription_schedule.updated', schedule);
      return { cancel: false };
    }
    if (schedule.end_behavior === 'cancel') {
      Object.assign(schedule, { status: 'completed', completed_at: now, current_phase: null });
      emit('subscription_schedule.completed', schedule);
      return { cancel: true };
    }
    Object.assign(schedule, {
      status: 'released',
      released_at: now,
      released_subscription: subscription.id,
      subscription: null,
      current_phase: null,
    } satisfies Partial<LocalSubscriptionSchedule>);
    subscription.schedule = null;
    emit('subscription_schedule.released', schedule);
    return { cancel: false };
  };

  /** A canceled subscription's schedule is canceled with it. */
  const cancelWith = (subscription: LocalSubscription, now: number) => {
    if (!subscription.schedule) return;
    const schedule = findSchedule(subscription.schedule);
    if (schedule.status === 'active' || schedule.status === 'not_started') {
      Object.assign(schedule, { status: 'canceled', canceled_at: now, current_phase: null });
      emit('subscription_schedule.canceled', schedule);
    }
  };

  return { findSchedule, createSchedule, updateSchedule, releaseSchedule, atPeriodEnd, cancelWith };
};

export type Schedules = ReturnType<typeof createSchedules>;
