import type { Page } from 'playwright-core';
import { loginUrl, submitSignIn } from '../support/browser';
import { freshUser } from '../support/people';
import { apiAs, tokenOf } from '../support/stack';

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
