import { AdminSetUserPasswordCommand } from '@aws-sdk/client-cognito-identity-provider';
import { UI_MESSAGES } from '../../frontend/src/lib/ui-messages';
import {
  authError,
  authSubmit,
  loginUrl,
  openNav,
  pagePerTest,
  submitSignIn,
  waitForHeaderUser,
  web,
} from '../support/browser';
import { codeFromMail, waitForMail } from '../support/mail';
import { createPerson, FRESH_PASSWORD, freshEmail } from '../support/people';
import { cognitoClient, signIn, stack } from '../support/stack';

const testPage = pagePerTest();

/** Signing up, confirming, resetting a password: every flow here uses a user of its own. */
describe('end to end: sign-in flows through the Authenticator', () => {
  it('shows the identity messages of the spec for empty fields', async () => {
    const page = testPage();
    await page.goto(loginUrl('/dashboard'));
    await authSubmit(page).click();
    await authError(page).getByText('Username cannot be empty').waitFor();

    await page.getByTestId('login-email').fill('user@example.com');
    await authSubmit(page).click();
    await authError(page).getByText('Password cannot be empty').waitFor();

    await page.getByTestId('login-password').fill('not-the-password');
    await authSubmit(page).click();
    await authError(page)
      .getByText(/incorrect username or password/i)
      .waitFor();
  });

  it('signs up, refuses an empty code, resends the code, confirms with the e-mailed code and lands signed in', async () => {
    const page = testPage();
    const email = freshEmail('e2e-signup');
    await page.goto(loginUrl('/dashboard?welcome=1#relations'));
    await page.getByRole('tab', { name: 'Create Account' }).click();
    await page.getByTestId('signup-email').fill(email);
    await page.getByTestId('signup-password').fill(FRESH_PASSWORD);
    await page.getByTestId('signup-confirm-password').fill(FRESH_PASSWORD);
    await authSubmit(page).click();

    // The confirmation screen; the first code went to the local SES.
    await page.getByTestId('confirm-code').waitFor();
    await codeFromMail(email, 1);
    await authSubmit(page).click();
    await authError(page).getByText('Confirmation code cannot be empty').waitFor();

    await page.getByRole('button', { name: 'Resend Code' }).click();
    const code = await codeFromMail(email, 2);
    await page.getByTestId('confirm-code').fill(code);
    await authSubmit(page).click();

    // Automatic sign-in after the confirmation, then on to the destination with its query and hash.
    await page.waitForURL(web('/dashboard?welcome=1#relations'));
    await waitForHeaderUser(page, email);
    // The administrators hear of the new person.
    await waitForMail('admin@example.com', (mail) => mail.subject.includes(email));

    // The account looks finished: no group in words ("None" is a group's name), and the e-mail the code went to
    // is verified, with no second verification offered.
    await page.getByTestId('dashboard-groups').getByText(UI_MESSAGES.noGroup, { exact: true }).waitFor();
    await openNav(page);
    await page.getByTestId('nav-account').click();
    const card = page.getByTestId('security-email');
    await card.getByTestId('email-current').getByText(email, { exact: true }).waitFor();
    expect(await card.getByTestId('email-verified').textContent()).toBe('(verified)');
    expect(await card.getByTestId('email-code').count()).toBe(0);
    expect(await page.getByTestId('person-email').textContent()).not.toContain('not verified');
  });

  it('resets a forgotten password with the e-mailed code, then signs in with the new one', async () => {
    const page = testPage();
    const { email } = await createPerson({ prefix: 'e2e-forgot' });
    const newPassword = 'E2e-Reset-Passw0rd';
    await page.goto(loginUrl('/dashboard'));
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await page.getByTestId('forgot-email').fill(email);
    await authSubmit(page).click();

    await page.getByTestId('reset-code').waitFor();
    await page.getByTestId('reset-code').fill(await codeFromMail(email, 1));
    await page.getByTestId('reset-password').fill(newPassword);
    await page.getByTestId('reset-password-confirm').fill(newPassword);
    await authSubmit(page).click();

    await page.getByTestId('login-email').waitFor();
    await submitSignIn(page, email, newPassword);
    await page.waitForURL(web('/dashboard'));
    await waitForHeaderUser(page, email);
  });

  it('makes a user whose password an administrator reset choose a new one at sign-in', async () => {
    const page = testPage();
    const { email } = await createPerson({ prefix: 'e2e-forced' });
    const temporary = 'E2e-Temporary-Passw0rd';
    const chosen = 'E2e-Chosen-Passw0rd';
    await cognitoClient().send(
      new AdminSetUserPasswordCommand({
        UserPoolId: stack().auth.userPoolId,
        Username: email,
        Password: temporary,
        Permanent: false,
      }),
    );

    await page.goto(loginUrl('/dashboard?after=reset'));
    await submitSignIn(page, email, temporary);
    await page.getByTestId('new-password').waitFor();
    await page.getByTestId('new-password').fill(chosen);
    await page.getByTestId('new-password-confirm').fill(chosen);
    await authSubmit(page).click();

    await page.waitForURL(web('/dashboard?after=reset'));
    await waitForHeaderUser(page, email);
    // The new password is the user's password from now on.
    await expect(signIn(email, chosen)).resolves.toMatchObject({ accessToken: expect.any(String) });
  });

  it('lets a guest browse the dashboard and sends them to sign in for the admin area', async () => {
    const page = testPage();
    await page.goto(web('/dashboard'));
    await page.getByTestId('dashboard-guest').waitFor();
    await openNav(page);
    await page.getByTestId('header-sign-in').waitFor();

    await page.goto(web('/admin/parameters'));
    await page.waitForURL(/\/login\?destination=%2Fadmin%2Fparameters$/);
    await page.getByTestId('login-email').waitFor();
  });
});
