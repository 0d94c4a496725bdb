import { mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  accountLink,
  authSubmit,
  keepScreenshot,
  loginUrl,
  NARROW,
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
const ARTIFACTS = path.resolve(import.meta.dirname, 'artifacts');

describe('end to end: remembered browsers', () => {
  it('a remembered browser signs in without the code until it is forgotten on the account page', async () => {
    const page = testPage();
    const { email, password } = await createPerson({ prefix: 'e2e-browsers' });
    await page.goto(loginUrl('/dashboard'));
    await submitSignIn(page, email, password);
    await waitForHeaderUser(page, email);

    const { secret, setupCode, security } = await setUpAuthenticatorApp(page);

    // The browser this person signed in with is listed, marked as this one, not yet remembered.
    const browsers = security.getByTestId('security-browsers');
    const row = browsers.getByTestId('browser-row');
    await expect(row.count()).resolves.toBe(1);
    // The name a person recognises, not the user agent Amplify sends as the device name.
    await expect(row.locator('strong').textContent()).resolves.toBe('Chromium on Linux');
    await expect(row.textContent()).resolves.toMatch(/This browser\s*Not remembered · Last used /);
    await browsers.getByRole('button', { name: 'Remember this browser' }).click();
    await expect(browsers.getByTestId('browsers-done').textContent()).resolves.toBe('This browser is remembered.');
    await expect(row.textContent()).resolves.toMatch(/This browser\s*Remembered · Last used /);
    await expect(browsers.textContent()).resolves.toContain(
      'A remembered browser signs in without the authenticator code.',
    );
    mkdirSync(ARTIFACTS, { recursive: true });
    await keepScreenshot(browsers, path.join(ARTIFACTS, 'remembered-browsers-1280.png'));
    await page.setViewportSize(NARROW);
    await browsers.scrollIntoViewIfNeeded();
    await keepScreenshot(browsers, path.join(ARTIFACTS, 'remembered-browsers-375.png'));
    await page.setViewportSize({ width: 1280, height: 800 });

    // Remembered: the password is enough.
    await signOutInHeader(page);
    await page.goto(loginUrl('/dashboard?remembered=1'));
    await submitSignIn(page, email, password);
    await page.waitForURL(web('/dashboard?remembered=1'));
    await waitForHeaderUser(page, email);
    await expect(page.getByTestId('login-code').count()).resolves.toBe(0);

    // Forgotten: its key no longer stands in for the code.
    await accountLink(page);
    const forget = browsers.getByTestId('browser-forget');
    await expect(forget.getAttribute('aria-label')).resolves.toMatch(/^Forget .+ \(This browser\)$/);
    await forget.click();
    await expect(browsers.getByTestId('browsers-done').textContent()).resolves.toMatch(/was forgotten/);
    await browsers.getByText('No browser is listed yet').waitFor();

    await signOutInHeader(page);
    await page.goto(loginUrl('/dashboard?forgotten=1'));
    await submitSignIn(page, email, password);
    await page.getByTestId('login-code').waitFor();
    await page.getByTestId('login-code').fill(await nextTotp(secret, setupCode));
    await authSubmit(page).click();
    await page.waitForURL(web('/dashboard?forgotten=1'));
    await waitForHeaderUser(page, email);
  }, 150_000);
});
