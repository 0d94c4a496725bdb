import type { Page } from 'playwright-core';
import { loginUrl, submitSignIn } from '../support/browser';
import { freshUser } from '../support/people';
import { apiAs, stack, tokenOf } from '../support/stack';

/**
 * What the people and invite tests share. Every person they change is a fresh one (test/support/people.ts),
 * never a demo account.
 */

/** Letters only, so a name survives the API's sanitising unchanged, and unique to this run (for name search). */
export const uniqueName = (prefix: string) =>
  `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.replace(/\d/g, (d) =>
    String.fromCharCode(97 + Number(d)),
  );

/** A fresh person in Authenticated_users with a first and last name no one else has. */
export const freshPerson = () =>
  freshUser({ groups: ['Authenticated_users'], givenName: uniqueName('Pat'), familyName: uniqueName('Tester') });

/** Signs a fresh person (or a demo account, with its password) in through the login page that leads on to `destination`. */
export const signInPerson = async (page: Page, person: { email: string; password: string }, destination: string) => {
  await page.goto(loginUrl(destination));
  await submitSignIn(page, person.email, person.password);
};

/** The demo administrator's users client, for checking what the screens did. */
export const adminUsers = async () => apiAs('users', await tokenOf('admin@example.com'));

interface StoredMail {
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
}

/** Waits for an e-mail to `address` in the local SES store that `matches`; returns it. */
export const waitForMail = async (
  address: string,
  matches: (mail: StoredMail) => boolean,
  timeoutMs = 15_000,
): Promise<StoredMail> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { emails } = (await (await fetch(`${stack().endpoints.ses}/store`)).json()) as { emails: StoredMail[] };
    const found = emails.find(
      (mail) => mail.destination.to.some((to) => to.toLowerCase() === address.toLowerCase()) && matches(mail),
    );
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`No matching e-mail to ${address} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

export const mailText = (mail: StoredMail) => `${mail.subject}\n${mail.body.text ?? ''}\n${mail.body.html ?? ''}`;
