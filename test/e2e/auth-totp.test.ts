import {
  authSubmit,
  loginUrl,
  pagePerTest,
  setUpAuthenticatorApp,
  signOutInHeader,
  submitSignIn,
  waitForHeaderUser,
  web,
} from '../support/browser';
import { createPerson } from '../support/people';
import { nextTotp } from '../support/totp';

const testPage = pagePerTest();

describe('end to end: an authenticator app (TOTP)', () => {
  it('is set up in the account security section with a QR code and secret, then asked for at sign-in', async () => {
    const page = testPage();
    const { email, password } = await createPerson({ prefix: 'e2e-totp' });
    await page.goto(loginUrl('/dashboard'));
    await submitSignIn(page, email, password);
    await waitForHeaderUser(page, email);

    const { secret, setupCode, security } = await setUpAuthenticatorApp(page);
    expect(secret).toMatch(/^[A-Z2-7]{16,}=*$/);
    await security.getByTestId('totp-disable').waitFor();

    await signOutInHeader(page);
    await page.goto(loginUrl('/dashboard?mfa=1'));
    await submitSignIn(page, email, password);
    await page.getByTestId('login-code').waitFor();
    await page.getByTestId('login-code').fill(await nextTotp(secret, setupCode));
    await authSubmit(page).click();

    await page.waitForURL(web('/dashboard?mfa=1'));
    await waitForHeaderUser(page, email);
  }, 120_000);
});
