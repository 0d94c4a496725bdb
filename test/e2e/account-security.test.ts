import { GetTokensFromRefreshTokenCommand } from '@aws-sdk/client-cognito-identity-provider';
import type { BrowserContext, Page } from 'playwright-core';
import { UI_MESSAGES } from '../../frontend/src/lib/ui-messages';
import {
  authError,
  authSubmit,
  loginUrl,
  newPage,
  pagePerTest,
  signOutInHeader,
  submitSignIn,
  waitForHeaderUser,
  web,
} from '../support/browser';
import { codeFromMail, mailTo } from '../support/mail';
import { nextSecond } from '../support/people';
import { cognitoClient, stack } from '../support/stack';
import { freshPerson, signInPerson } from './people-fixtures';

const testPage = pagePerTest();

const GET_TOKENS_FROM_REFRESH_TOKEN = 'AWSCognitoIdentityProviderService.GetTokensFromRefreshToken';

const claimsOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as { exp: number; sub: string };

/** One of Amplify's token cookies (`CognitoIdentityServiceProvider.{client}.{user}.{kind}`) of a context. */
const tokenCookie = async (context: BrowserContext, kind: 'accessToken' | 'refreshToken') =>
  (await context.cookies()).find((c) => c.name.endsWith(`.${kind}`));

/**
 * Moves the `exp` of the stored access token an hour into the past: what a tab holds when it comes back after
 * the token's lifetime. Amplify reads `exp` without checking the signature and refreshes before it sends the
 * token anywhere, so the altered token never reaches the API.
 */
const expireAccessToken = async (context: BrowserContext) => {
  const cookie = await tokenCookie(context, 'accessToken');
  if (!cookie) throw new Error('No access token cookie');
  const [header, payload, signature] = cookie.value.split('.');
  const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as Record<string, unknown>;
  const past = Math.floor(Date.now() / 1000) - 3600;
  const expired = Buffer.from(JSON.stringify({ ...claims, iat: past - 3600, exp: past })).toString('base64url');
  await context.addCookies([{ ...cookie, value: `${header}.${expired}.${signature}` }]);
};

/** The answer to Amplify's refresh call, once the page makes it. */
const refreshAnswer = (page: Page) =>
  page.waitForResponse((r) => r.request().headers()['x-amz-target'] === GET_TOKENS_FROM_REFRESH_TOKEN);

/** Polls until `done` holds; fails after 10 s. */
const waitUntil = async (done: () => Promise<boolean>) => {
  const deadline = Date.now() + 10_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('Timed out waiting for a condition');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

/** Waits for the login page that sends back to `destination`, with the reason the app gives. */
const waitForLogin = (page: Page, destination: string, reason: string) =>
  page.waitForURL(
    (u) =>
      u.pathname === '/login' &&
      u.searchParams.get('destination') === destination &&
      u.searchParams.get('reason') === reason,
  );

describe('end to end: account security on one’s own profile', () => {
  it('changes the password: then the old one is refused in Cognito’s words and the new one signs in', async () => {
    const person = await freshPerson();
    const profile = `/dashboard/people/${person.id}`;
    const newPassword = 'Changed-Passw0rd-2';
    const page = testPage();
    await signInPerson(page, person, profile);
    await page.waitForURL(web(profile));
    const card = page.getByTestId('security-password');

    // Two different new passwords are caught before anything is sent; a wrong current one is refused.
    await card.getByTestId('password-current').fill(person.password);
    await card.getByTestId('password-new').fill(newPassword);
    await card.getByTestId('password-again').fill(`${newPassword}x`);
    await card.getByTestId('password-submit').click();
    await card.getByTestId('password-error').getByText(UI_MESSAGES.passwordsDiffer).waitFor();

    await card.getByTestId('password-current').fill('Not-The-Passw0rd');
    await card.getByTestId('password-again').fill(newPassword);
    await card.getByTestId('password-submit').click();
    await card.getByTestId('password-error').getByText('Incorrect username or password.').waitFor();

    await card.getByTestId('password-current').fill(person.password);
    await card.getByTestId('password-new').fill(newPassword);
    await card.getByTestId('password-again').fill(newPassword);
    await card.getByTestId('password-submit').click();
    await card.getByTestId('password-done').getByText(UI_MESSAGES.passwordChanged).waitFor();

    await signOutInHeader(page);
    await page.waitForURL((u) => u.pathname === '/login');
    await submitSignIn(page, person.email, person.password);
    await authError(page).getByText('Incorrect username or password.').waitFor();
    await page.getByTestId('login-password').fill(newPassword);
    await authSubmit(page).click();
    await page.waitForURL(web('/dashboard'));
    await waitForHeaderUser(page, person.email);
  });

  it('changes the e-mail with the code sent to the new address; the profile shows it and it signs in', async () => {
    const person = await freshPerson();
    const profile = `/dashboard/people/${person.id}`;
    const newEmail = `changed-${person.email}`;
    const page = testPage();
    await signInPerson(page, person, profile);
    await page.waitForURL(web(profile));
    const card = page.getByTestId('security-email');
    await card.getByTestId('email-current').getByText(person.email, { exact: true }).waitFor();
    expect(await card.getByTestId('email-verified').textContent()).toBe('(verified)');

    await card.getByTestId('email-new').fill(newEmail);
    await card.getByTestId('email-submit').click();
    // Until the code is entered the card asks for it and says where it went.
    await card
      .getByTestId('email-done')
      .getByText(/^We sent a verification code to /)
      .waitFor();
    await card.getByTestId('email-code').waitFor();

    // The code goes to the new address, never to the old one.
    const code = await codeFromMail(newEmail);
    expect(await mailTo(person.email)).toEqual([]);
    await card.getByTestId('email-code').fill(code);
    await card.getByTestId('email-confirm').click();
    await card.getByTestId('email-done').getByText(UI_MESSAGES.emailVerified).waitFor();
    await card.getByTestId('email-current').getByText(newEmail, { exact: true }).waitFor();
    expect(await card.getByTestId('email-verified').textContent()).toBe('(verified)');
    await card.getByTestId('email-code').waitFor({ state: 'detached' });

    // The profile's own facts (from the users API) and the header follow.
    await page.getByTestId('person-email').getByText(newEmail, { exact: true }).waitFor();
    await waitForHeaderUser(page, newEmail);

    await signOutInHeader(page);
    await page.goto(loginUrl(profile));
    await submitSignIn(page, newEmail, person.password);
    await page.waitForURL(web(profile));
    await page.getByTestId('person-email').getByText(newEmail, { exact: true }).waitFor();
  });

  it('signs out everywhere: another browser is refused on its next call, and its stored session cannot refresh', async () => {
    const person = await freshPerson();
    const profile = `/dashboard/people/${person.id}`;
    const page = testPage();
    await signInPerson(page, person, profile);
    await page.waitForURL(web(profile));

    // The same person in another browser, on their profile too.
    const other = await newPage(page.context().browser()!);
    try {
      await signInPerson(other, person, profile);
      await other.waitForURL(web(profile));
      await other.getByTestId('person-email').getByText(person.email).waitFor();
      const stored = await other.context().cookies();
      const refreshToken = (await tokenCookie(other.context(), 'refreshToken'))!.value;
      // Sign-out times compare with the tokens' whole-second auth_time (docs/users.md).
      await nextSecond();

      await page.getByTestId('sign-out-everywhere').click();
      await page.waitForURL((u) => u.pathname === '/login');
      await waitUntil(async () => !(await tokenCookie(page.context(), 'accessToken')));

      // The other browser's next API call is refused: it is sent to sign in again, told why, and brought back.
      await other.getByTestId('profile-givenName').fill('Elsewhere');
      await other.getByTestId('profile-names-submit').click();
      await waitForLogin(other, profile, 'session-expired');
      expect(await other.getByTestId('login-reason').textContent()).toBe(UI_MESSAGES.loginReason['session-expired']);
      await waitUntil(async () => !(await tokenCookie(other.context(), 'accessToken')));

      // Its refresh token was revoked too (in Cognito's words)...
      await expect(
        cognitoClient().send(
          new GetTokensFromRefreshTokenCommand({ ClientId: stack().auth.clientId, RefreshToken: refreshToken }),
        ),
      ).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'Refresh Token has been revoked' });

      // ...so a browser that comes back later with those tokens, the access token run out, cannot refresh
      // them: the session ends as expired (the login page says so), not as a silent guest.
      await other.context().addCookies(stored);
      await expireAccessToken(other.context());
      const refreshed = refreshAnswer(other);
      await other.goto(web(profile));
      expect((await refreshed).status()).toBe(400);
      await waitForLogin(other, profile, 'session-expired');
      expect(await other.getByTestId('login-reason').textContent()).toBe(UI_MESSAGES.loginReason['session-expired']);
      await waitUntil(async () => !(await tokenCookie(other.context(), 'refreshToken')));
    } finally {
      await other.context().close();
    }
  });

  it('refreshes an expired access token through GetTokensFromRefreshToken and loads the page without a sign-in', async () => {
    const person = await freshPerson();
    const profile = `/dashboard/people/${person.id}`;
    const page = testPage();
    await signInPerson(page, person, profile);
    await page.waitForURL(web(profile));
    await page.getByTestId('person-email').getByText(person.email).waitFor();

    await expireAccessToken(page.context());
    const refreshed = refreshAnswer(page);
    await page.goto(web(`${profile}?again=1`));
    expect((await refreshed).status()).toBe(200);

    // The page's data came from the API with the new token; the user stayed where they were.
    await page.getByTestId('person-email').getByText(person.email).waitFor();
    await waitForHeaderUser(page, person.email);
    expect(page.url()).toBe(web(`${profile}?again=1`));
    const access = (await tokenCookie(page.context(), 'accessToken'))!.value;
    expect(claimsOf(access).sub).toBe(person.id);
    expect(claimsOf(access).exp * 1000).toBeGreaterThan(Date.now() + 5 * 60 * 1000);
  });
});
