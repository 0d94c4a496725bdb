import { GetTokensFromRefreshTokenCommand } from '@aws-sdk/client-cognito-identity-provider';
import {
  NARROW,
  onScreen,
  pagePerTest,
  signInAs,
  signOutInHeader,
  submitSignIn,
  waitForHeaderUser,
  web,
} from '../support/browser';
import { freshUser } from '../support/people';
import { freshDevice } from '../support/sensor-data';
import { cognitoClient, stack } from '../support/stack';
import { signInPerson } from './people-fixtures';

const testPage = pagePerTest();

const SESSION_COOKIE = 'ddp.session-started';
const DAY_MS = 24 * 60 * 60 * 1000;

describe('end to end: sessions (spec §2, §9)', () => {
  it('keeps tokens in 1-year cookies and marks the session start with a 7-day cookie', async () => {
    const page = testPage();
    await signInAs(page, 'user@example.com', '/dashboard');
    await waitForHeaderUser(page);
    const cookies = await page.context().cookies();
    const now = Date.now() / 1000;

    const session = cookies.find((c) => c.name === SESSION_COOKIE)!;
    expect(session).toMatchObject({ path: '/', sameSite: 'Lax', secure: false });
    expect(session.expires - now).toBeGreaterThan(7 * 86400 - 120);
    expect(session.expires - now).toBeLessThanOrEqual(7 * 86400);

    const refresh = cookies.find((c) => c.name.endsWith('.refreshToken'))!;
    expect(refresh).toMatchObject({ path: '/', sameSite: 'Lax', secure: false });
    expect(refresh.expires - now).toBeGreaterThan(364 * 86400);
  });

  it('ends a session whose session cookie is gone: login with the reason, then back to the page', async () => {
    const page = testPage();
    await signInAs(page, 'user@example.com', '/dashboard');
    await waitForHeaderUser(page);

    await page.context().clearCookies({ name: SESSION_COOKIE });
    const destination = '/dashboard/devices/demo-device-1?view=members&from=e2e#holders';
    await page.goto(web(destination));

    await page.waitForURL(
      (url) =>
        url.pathname === '/login' &&
        url.searchParams.get('destination') === destination &&
        url.searchParams.get('reason') === 'session-expired',
    );
    expect(await page.getByTestId('login-reason').textContent()).toBe('Your session expired. Please sign in again.');
    // The tokens were cleared with the session: the user is a guest until they sign in again.
    expect((await page.context().cookies()).some((c) => c.name.endsWith('.accessToken'))).toBe(false);

    await submitSignIn(page, 'user@example.com', 'Local-Demo-Passw0rd');
    await page.waitForURL(web(destination));
    await waitForHeaderUser(page);
  });

  it('ends a session that started more than 7 days ago', async () => {
    const page = testPage();
    await signInAs(page, 'user@example.com', '/dashboard');
    await waitForHeaderUser(page);
    const url = new URL(web());
    await page
      .context()
      .addCookies([{ name: SESSION_COOKIE, value: String(Date.now() - 8 * DAY_MS), domain: url.hostname, path: '/' }]);

    await page.goto(web('/dashboard?again=1'));
    await page.waitForURL((u) => u.pathname === '/login' && u.searchParams.get('reason') === 'session-expired');
    expect(new URL(page.url()).searchParams.get('destination')).toBe('/dashboard?again=1');
  });

  it('signing out revokes the refresh token: it can no longer mint tokens (spec §7, token revocation)', async () => {
    const page = testPage();
    await signInAs(page, 'user@example.com', '/dashboard');
    await waitForHeaderUser(page);
    const cookie = (await page.context().cookies()).find((c) => c.name.endsWith('.refreshToken'))!;
    const refreshToken = decodeURIComponent(cookie.value);
    const refresh = () =>
      cognitoClient().send(
        new GetTokensFromRefreshTokenCommand({ ClientId: stack().auth.clientId, RefreshToken: refreshToken }),
      );
    await expect(refresh()).resolves.toHaveProperty('AuthenticationResult.AccessToken');

    // It waits until the token cookies are gone, which Amplify does once the revocation has answered.
    await signOutInHeader(page);
    await page.getByTestId('header-sign-in').waitFor();
    await expect(refresh()).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Refresh Token has been revoked',
    });
  });

  // The device page reads its device again as the guest (a new first read, docs/frontend-layout.md): that wait once hid
  // the whole shell behind "Loading…" for its length, and the hidden header's menu folded with Sign in inside it.
  it.each(['private', 'public'] as const)(
    'signing out on a %s device page on a phone: the header stays, its open menu offers Sign in, the page turns to the guest’s',
    async (visibility) => {
      const person = await freshUser({ groups: ['Authenticated_users'], prefix: `signout-${visibility}` });
      const device = await freshDevice({ productLine: 'sd1', ownerToken: person.token, visibility });
      const devicePath = `/dashboard/devices/${device.id}`;
      const page = testPage();
      await page.setViewportSize(NARROW);
      await signInPerson(page, person, devicePath);
      await page.getByRole('heading', { name: 'Relations' }).waitFor();
      await page.getByTestId('menu-toggle').click();
      await page.getByTestId('sign-out').waitFor();
      // Every moment the shell (header, page, footer) was off the screen or drawn anew, as the browser went through it.
      await page.evaluate(() => {
        const shell = document.querySelector('.shell')!;
        const gaps: string[] = [];
        Object.assign(window, { shellGaps: gaps });
        new MutationObserver(() => {
          if (document.querySelector('.shell') !== shell) gaps.push('the shell was replaced');
          else if (!shell.checkVisibility())
            gaps.push(
              `the shell was hidden, the loading page ${document.querySelector('body > * > .loading') ? 'shown' : 'not shown'}`,
            );
        }).observe(document.body, { subtree: true, childList: true, attributes: true });
      });

      // The identity provider answers RevokeToken late, as under load: Amplify holds the tokens until it has, while
      // the page, drawn for the guest at once, reads the device again.
      await page.route(
        () => true,
        async (route) => {
          if (!route.request().headers()['x-amz-target']?.endsWith('.RevokeToken')) return route.fallback();
          await new Promise((resolve) => setTimeout(resolve, 2_000));
          await route.fallback();
        },
      );
      await signOutInHeader(page);
      if (visibility === 'public') await page.getByTestId('device-guest-unlocks').waitFor();
      else {
        // Read as the guest: a private device is not shown, only what signing in may unlock.
        await page.getByText('Sign in to see this device if it is shared with you.').waitFor();
        expect(await page.getByTestId('device-guest-unlocks').count()).toBe(0);
      }
      expect(await page.evaluate(() => (window as unknown as { shellGaps: string[] }).shellGaps)).toEqual([]);
      expect(await page.getByRole('heading', { name: 'Relations' }).count()).toBe(0);
      // The menu the person opened stays open, with Sign in where Sign out was.
      expect(await page.getByTestId('menu-toggle').getAttribute('aria-expanded')).toBe('true');
      const signIn = page.getByTestId('header-sign-in');
      expect(await signIn.isVisible()).toBe(true);
      expect(await onScreen(signIn)).toBe(true);
      // The focus is where the person was: on Sign in, which took Sign out's place (not dropped to the page's top).
      expect(await signIn.evaluate((link) => link === document.activeElement)).toBe(true);
    },
  );

  it('signs out the other tabs when one tab signs out', async () => {
    const first = testPage();
    await signInAs(first, 'user@example.com', '/dashboard');
    await waitForHeaderUser(first);

    const second = await first.context().newPage();
    await second.goto(web('/dashboard?tab=2'));
    await waitForHeaderUser(second);

    await signOutInHeader(first);
    await first.getByTestId('header-sign-in').waitFor();

    await second.waitForURL(
      (u) =>
        u.pathname === '/login' &&
        u.searchParams.get('reason') === 'signed-out' &&
        u.searchParams.get('destination') === '/dashboard?tab=2',
    );
    expect(await second.getByTestId('login-reason').textContent()).toBe(
      'You signed out in another tab. Please sign in again.',
    );
  });
});
