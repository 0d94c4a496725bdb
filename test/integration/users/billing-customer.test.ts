import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createStripeClient } from '../../../functions/_shared/billing/stripe-client';
import { DEMO_CUSTOMER_EMAILS } from '../../../infra/local/demo-data';
import { LOCAL_STRIPE_SECRET_KEY } from '../../../infra/local/emulators/stripe';
import { freshUser } from '../../support/people';
import { apiAs, documentClient, stack, subOf, tokenOf } from '../../support/stack';

/**
 * The user record's subscriptionId (spec §3): the billing customer of the person's e-mail, looked up through the
 * real `stripe` SDK when missing (spec §7 customers/search-by-email, first result) and saved on the record.
 */

const stripe = () => createStripeClient(LOCAL_STRIPE_SECRET_KEY, stack().endpoints.stripe);
const users = (token: string) => apiAs('users', token);
const storedRecord = async (id: string) =>
  (await documentClient().send(new GetCommand({ TableName: stack().tables.users, Key: { id } }))).Item;

describe("the user record's subscriptionId", () => {
  it("is the customer of the person's e-mail, found at the first read and saved on the record", async () => {
    const person = await freshUser({ prefix: 'billing' });
    expect((await storedRecord(person.id))?.subscriptionId).toBeUndefined();
    const customer = await stripe().customers.create({ email: person.email, name: 'Billing Person' });

    const record = await users(person.token).getUserRecord({ params: { id: person.id } });
    expect(record.subscriptionId).toBe(customer.id);
    expect((await storedRecord(person.id))?.subscriptionId).toBe(customer.id);

    // Saved, so not looked up again: a newer customer with the same e-mail does not replace it.
    await stripe().customers.create({ email: person.email, name: 'Billing Person (second)' });
    expect((await users(person.token).getUserRecord({ params: { id: person.id } })).subscriptionId).toBe(customer.id);
  });

  it('is absent, and nothing is saved, when billing has no customer with the e-mail', async () => {
    const person = await freshUser({ prefix: 'nobilling' });
    const record = await users(person.token).getUserRecord({ params: { id: person.id } });
    expect(record.subscriptionId).toBeUndefined();
    expect(await storedRecord(person.id)).not.toHaveProperty('subscriptionId');
  });

  it('is found for the demo accounts that have a demo customer', async () => {
    const email = DEMO_CUSTOMER_EMAILS[0];
    const { data } = await stripe().customers.search({ query: `email:'${email}'` });
    expect(data).toHaveLength(1);
    const id = await subOf(email);
    expect((await users(await tokenOf(email)).getUserRecord({ params: { id } })).subscriptionId).toBe(data[0]!.id);
  });
});
