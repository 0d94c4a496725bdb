import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createStripeClient } from '../../functions/_shared/billing/stripe-client';
import { deviceMetadata } from '../../functions/_shared/billing/subscription-devices';
import { LOCAL_STRIPE_SECRET_KEY } from '../../infra/local/emulators/stripe';
import type { FreshUser } from './people';
import { documentClient, stack } from './stack';

/** The real `stripe` SDK against the test stack's local Stripe server. */
export const stripe = () => createStripeClient(LOCAL_STRIPE_SECRET_KEY, stack().endpoints.stripe);

/** A device's subscription record, as every tier check reads it. */
export const subscriptionRecord = async (deviceId: string) =>
  (
    await documentClient().send(
      new GetCommand({ TableName: stack().tables.deviceSubscriptions!, Key: { deviceId }, ConsistentRead: true }),
    )
  ).Item;

/** Reads until `done` holds: webhooks arrive a moment after what caused them. */
export const until = async <T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  timeoutMs = 15_000,
) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
};

/** What the checkout endpoint does for a cart of one item: one session, the device named in the metadata. */
export const checkoutSession = async (person: FreshUser, deviceId: string, productId: string) => {
  const product = await stripe().products.retrieve(productId);
  return stripe().checkout.sessions.create({
    mode: 'subscription',
    customer_email: person.email,
    line_items: [{ price: product.default_price as string, quantity: 1 }],
    success_url: 'http://web.test/billing/return?session={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://web.test/billing/return?cancelled=1',
    subscription_data: { metadata: { userId: person.id, ...deviceMetadata([{ productId, deviceId }]) } },
  });
};

/** The local hosted checkout page, as a person's browser posts it. */
export const payAt = (sessionUrl: string, card: string) =>
  fetch(sessionUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `card=${encodeURIComponent(card)}`,
    redirect: 'manual',
  });

/** A device's subscription bought and paid with the test card; answers its id once the webhook recorded it. */
export const buyTier = async (person: FreshUser, deviceId: string, productId: string): Promise<string> => {
  const session = await checkoutSession(person, deviceId, productId);
  const paid = await payAt(session.url!, '4242 4242 4242 4242');
  if (paid.status !== 303) throw new Error(`The local checkout answered ${paid.status}`);
  const recorded = await until(
    () => subscriptionRecord(deviceId),
    (item) => item?.productId === productId && item?.status === 'active',
    `the subscription record of ${productId}`,
  );
  return recorded!.id as string;
};
