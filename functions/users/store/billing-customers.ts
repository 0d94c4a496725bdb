import { log } from '../../_shared/logger';

/** What the lookup needs of the `stripe` SDK: the real client fits, and so does a test's fake. */
export interface CustomerSearchClient {
  customers: {
    search(params: { query: string; limit?: number }): PromiseLike<{ data: readonly { id: string }[] }>;
  };
}

/**
 * Stripe's search query for one e-mail: `email:'…'`, with quotes (and the backslash that escapes them) escaped by
 * a backslash, as Stripe's search query language reads them. An e-mail such as `o'brien@example.com` stays one
 * value instead of ending the string early.
 */
export const emailQuery = (email: string): string => `email:'${email.replace(/[\\']/g, (c) => `\\${c}`)}'`;

/** Refusals that mean our configuration is wrong (a bad or revoked key), not that Stripe is briefly away. */
const CONFIGURATION_ERRORS = new Set([
  'StripeAuthenticationError',
  'StripePermissionError',
  'StripeInvalidRequestError',
]);

/**
 * The billing customers the users area reads (spec §3, §7 "customers/search-by-email"): the first customer Stripe
 * finds for an e-mail. Billing is not needed to read a user record, so a failure here (Stripe or the key's secret
 * unreachable) is logged and answered as "none found": the record is read without `subscriptionId`, and the next
 * read asks again.
 *
 * Stripe's search is eventually consistent (a new customer may take up to a minute to be found); the next read of
 * the record finds it. The local server finds it at once.
 */
export const createBillingCustomers = ({ stripe }: { stripe: () => Promise<CustomerSearchClient> }) => {
  /** @returns the first customer's id, or undefined when Stripe has none or cannot be asked */
  const findCustomerIdByEmail = async (email: string): Promise<string | undefined> => {
    try {
      const client = await stripe();
      const result = await client.customers.search({ query: emailQuery(email), limit: 1 });
      return result.data[0]?.id;
    } catch (error) {
      const { name, type, code, statusCode } = error as {
        name?: string;
        type?: string;
        code?: string;
        statusCode?: number;
      };
      const level = CONFIGURATION_ERRORS.has(type ?? '') ? 'error' : 'warn';
      // Neither the e-mail nor the error's message: the message of a key error quotes part of the key.
      log(level, 'Billing customer lookup failed; the user record is answered without subscriptionId', {
        errorName: name,
        errorType: type,
        code,
        statusCode,
      });
      return undefined;
    }
  };
  return { findCustomerIdByEmail };
};
