import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { AdminListGroupsForUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../infra/local/demo-data';
import { DEMO_IDP_PASSWORD } from '../../infra/local/emulators/demo-idp-accounts';
import { DEMO_IDENTITY_PROVIDER } from '../../shared/auth/demo-identity-provider';
import { FEDERATED_ACCOUNT_EXISTS } from '../../shared/auth/federated-sign-in';
import {
  keepScreenshot,
  loginUrl,
  NARROW,
  pagePerTest,
  signOutInHeader,
  WIDE,
  waitForHeaderUser,
  web,
} from '../support/browser';
import { cognitoClient, stack } from '../support/stack';

const ROSA = 'rosa.rivera@northside-air.example.com';

const testPage = pagePerTest();
const ARTIFACTS = path.resolve(import.meta.dirname, 'artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

const SESSION_COOKIE = 'ddp.session-started';
const hostedOrigin = () => stack().endpoints.cognito;

/** Every URL the page's main frame asked for, redirects included, in order. */
const navigationsOf = (page: Page): string[] => {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) seen.push(request.url());
  });
  return seen;
};

describe('end to end: the hosted sign-in (spec §7, issue 21)', () => {
  it('signs in on the hosted page, lands on the destination asked for, and signs out through the hosted logout', async () => {
    const page = testPage();
    const navigations = navigationsOf(page);
    const destination = '/dashboard/cart?from=hosted#summary';
    await page.goto(loginUrl(destination));
    await page.getByTestId('login-hosted-page').click();

    // The hosted page is the identity layer's own, on its own origin, with the app's PKCE request.
    await page.waitForURL((url) => url.origin === hostedOrigin() && url.pathname === '/oauth2/authorize');
    const authorize = new URL(page.url()).searchParams;
    expect([authorize.get('code_challenge_method'), authorize.get('scope')]).toEqual([
      'S256',
      'openid email profile aws.cognito.signin.user.admin',
    ]);
    expect(authorize.get('redirect_uri')).toBe(web('/auth/callback'));
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBeTruthy();
    await page.setViewportSize(NARROW);
    await keepScreenshot(page, path.join(ARTIFACTS, 'hosted-sign-in-375.png'));
    await page.setViewportSize(WIDE);
    await keepScreenshot(page, path.join(ARTIFACTS, 'hosted-sign-in-1280.png'));
    await page.getByLabel('E-mail').fill('user@example.com');
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.waitForURL(web(destination));
    await waitForHeaderUser(page, 'user@example.com');
    expect(navigations.some((url) => url.startsWith(web('/auth/callback?code=')))).toBe(true);
    // A hosted session is a session like any other (spec §9): the 7-day session cookie and the token cookies.
    const cookies = await page.context().cookies();
    expect(cookies.some((c) => c.name === SESSION_COOKIE)).toBe(true);
    expect(cookies.some((c) => c.name.endsWith('.refreshToken'))).toBe(true);
    // The callback is spent: the code is not left in the address bar's history to be replayed.
    await page.goBack().catch(() => undefined);
    expect(page.url()).not.toContain('code=');

    await page.goto(web(destination));
    await waitForHeaderUser(page, 'user@example.com');
    const logout = page.waitForRequest((request) => request.url().startsWith(`${hostedOrigin()}/logout?`));
    await signOutInHeader(page);
    expect(new URL((await logout).url()).searchParams.get('logout_uri')).toBe(web('/login'));
    // The hosted logout sends the browser back to the sign-in page.
    await page.waitForURL(web('/login'));
    // Signed out here too: a page behind the session sends the person to sign in again.
    // (The app may redirect before the page's load event: only the navigation's start is awaited.)
    await page.goto(web('/dashboard/cart'), { waitUntil: 'commit' }).catch((error: Error) => {
      if (!error.message.includes('interrupted by another navigation')) throw error;
    });
    await page.waitForURL(
      (url) => url.pathname === '/login' && url.searchParams.get('destination') === '/dashboard/cart',
    );
  });

  it('signs a person of the demo organization in through its own OpenID provider, into Authenticated_users and their dashboard', async () => {
    const page = testPage();
    await page.goto(loginUrl('/dashboard'));
    await page.getByRole('button', { name: 'Sign in with Northside Air Network' }).click();

    // The layer sends the browser on to the organization's provider, whose own page asks for its own password.
    await page.waitForURL((url) => url.origin === stack().endpoints.demoIdp);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Sign in to Northside Air Network',
    );
    await page.getByLabel('E-mail').fill(ROSA);
    await page.getByLabel('Password').fill(DEMO_IDP_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.waitForURL(web('/dashboard'));
    await waitForHeaderUser(page, ROSA);
    const groups = await cognitoClient().send(
      new AdminListGroupsForUserCommand({
        UserPoolId: stack().auth.userPoolId,
        Username: `${DEMO_IDENTITY_PROVIDER.name}_nsa-rosa-rivera`,
      }),
    );
    expect((groups.Groups ?? []).map((group) => group.GroupName)).toContain('Authenticated_users');
  });

  it('tells a person whose e-mail already has an account, unverified by the provider, what to do, and signs nobody in', async () => {
    const page = testPage();
    await page.goto(loginUrl('/dashboard'));
    await page.getByTestId(`login-provider-${DEMO_IDENTITY_PROVIDER.name}`).click();
    await page.waitForURL((url) => url.origin === stack().endpoints.demoIdp);
    // The provider's account of this e-mail does not assert it verified: the platform's account of it stays apart.
    await page.getByLabel('E-mail').fill('user@example.com');
    await page.getByLabel('Password').fill(DEMO_IDP_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.waitForURL((url) => url.pathname === '/auth/callback');
    await expect(page.getByTestId('hosted-callback-error').textContent()).resolves.toBe(FEDERATED_ACCOUNT_EXISTS);
    expect((await page.context().cookies()).some((c) => c.name.endsWith('.accessToken'))).toBe(false);
  });

  it('offers the hosted page beside the password form, and says so when a callback was not started in this tab', async () => {
    const page = testPage();
    await page.goto(loginUrl('/dashboard'));
    await expect(page.getByTestId('login-hosted-page').textContent()).resolves.toBe('Use the hosted sign-in page');
    await keepScreenshot(page, path.join(ARTIFACTS, 'login-with-hosted-1280.png'), { fullPage: true });

    // A forged or replayed callback exchanges nothing and tells the person what to do.
    await page.goto(web('/auth/callback?code=forged&state=not-mine'));
    await expect(page.getByTestId('hosted-callback-error').textContent()).resolves.toBe(
      'This sign-in was not started in this tab or has already been used. Please sign in again.',
    );
    expect((await page.context().cookies()).some((c) => c.name.endsWith('.accessToken'))).toBe(false);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
  });
});
