import {
  authSubmit,
  headerLink,
  loginUrl,
  pagePerTest,
  signOutInHeader,
  submitSignIn,
  waitForHeaderUser,
  web,
} from '../support/browser';
import { createPerson } from '../support/people';
import { totp } from '../support/totp';

const testPage = pagePerTest();

/** A code for the current 30-second period that differs from `used` (Cognito refuses a code used once). */
const nextTotp = async (secret: string, used?: string) => {
  for (;;) {
    const left = 30 - ((Date.now() / 1000) % 30);
    const code = totp(secret);
    if (code !== used && left > 3) return code;
    await new Promise((resolve) => setTimeout(resolve, left * 1000 + 100));
  }
};

describe('end to end: an authenticator app (TOTP)', () => {
  it('is set up in the account security section with a QR code and secret, then asked for at sign-in', async () => {
    const page = testPage();
    const { email, password } = await createPerson({ prefix: 'e2e-totp' });
    await page.goto(loginUrl('/dashboard'));
    await submitSignIn(page, email, password);
    await waitForHeaderUser(page, email);

    await headerLink(page, 'My account');
    const security = page.getByTestId('account-security');
    await security.getByTestId('totp-setup').click();
    await security.getByTestId('totp-qr').waitFor();
    const secret = (await security.getByTestId('totp-secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{16,}=*$/);

    const setupCode = await nextTotp(secret);
    await security.getByTestId('totp-code').fill(setupCode);
    await security.getByTestId('totp-verify').click();
    await security.getByTestId('totp-done').waitFor();
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
