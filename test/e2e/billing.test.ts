import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { NARROW, pagePerTest, WIDE, web } from '../support/browser';
import { freshUser } from '../support/people';
import { freshDevice } from '../support/sensor-data';
import { stack } from '../support/stack';
import { signInPerson } from './people-fixtures';

const testPage = pagePerTest();
/** Screenshots of what the tests saw, kept by CI (git-ignored). */
const ARTIFACTS = path.resolve(import.meta.dirname, 'artifacts');

/** A fresh person who owns a fresh SD1 device (no subscription: Tier 0, 7 days), signed in on its page. */
const ownerOnDevicePage = async (page: Page, prefix: string) => {
  const person = await freshUser({ groups: ['Authenticated_users'], prefix });
  const device = await freshDevice({ productLine: 'sd1', ownerToken: person.token });
  await signInPerson(page, person, `/dashboard/devices/${device.id}`);
  await page.waitForURL(web(`/dashboard/devices/${device.id}`));
  await page.getByTestId('plans-panel').waitFor();
  await page.getByTestId('plans-tier').getByText('Tier 0').waitFor();
  return { person, device };
};

/** Presses Buy on SD1 Tier 2 and waits for the local Stripe server's hosted checkout page. */
const buyTier2 = async (page: Page) => {
  const tier2 = page.getByTestId('plan-tier2');
  await tier2.getByText('SD1 Tier 2').waitFor();
  // The prices are a query of their own: the tier's name can show while its price still loads.
  await page.getByTestId('plan-price-tier2').filter({ hasText: '$19.00' }).waitFor();
  await page.getByTestId('plan-buy-tier2').click();
  await page.getByLabel('Card number').waitFor();
  expect(page.url().startsWith(web())).toBe(false);
};

describe('end to end: buying a tier for a device', () => {
  beforeAll(() => mkdirSync(ARTIFACTS, { recursive: true }));

  it('the owner buys SD1 Tier 2 with the test card, the return page waits for Stripe, and the device reaches 365 days', async () => {
    const page = testPage();
    const { device } = await ownerOnDevicePage(page, 'billing');

    // Before: no subscription, Tier 0, and the year's range is locked behind Tier 2.
    expect(await page.getByTestId('plans-subscription').textContent()).toContain('None');
    expect(await page.getByTestId('plan-buy-tier1').isVisible()).toBe(true);
    await page.getByTestId('sensor-range-1y').click();
    await page.getByTestId('sensor-tier-lock').getByText('Tier 2 unlocks 365 days').waitFor();

    for (const { width, height } of [WIDE, NARROW]) {
      await page.setViewportSize({ width, height });
      await page
        .getByTestId('plans-panel')
        .screenshot({ path: path.join(ARTIFACTS, `billing-plans-tier0-${width}.png`) });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    }
    await page.setViewportSize(WIDE);

    await buyTier2(page);
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: /^Pay/ }).click();

    // Stripe returns to the web app with the session filled in; the page polls until the webhook has recorded it.
    await page.waitForURL((url) => url.pathname === '/billing/return');
    expect(new URL(page.url()).searchParams.get('session_id')).toMatch(/^cs_/);
    expect(new URL(page.url()).searchParams.get('device')).toBe(device.id);
    await page.getByTestId('billing-paid').getByText('Payment received').waitFor();
    await page.getByTestId('billing-tier-active').getByText('Tier 2 is active').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('billing-status').textContent()).toContain('Active');

    await page.getByRole('link', { name: 'Back to the device' }).click();
    await page.waitForURL(web(`/dashboard/devices/${device.id}`));
    await page.getByTestId('plans-tier').getByText('Tier 2').waitFor();
    const status = page.getByTestId('plans-status');
    expect(await status.textContent()).toContain('Active');
    expect(await status.getAttribute('data-icon')).toBe('check');
    // The renewal date, once and in one format (issue 36): the plan's line says it; the Subscription line no more.
    const when = page.getByTestId('plan-change-when');
    await when.getByText(/^Renews on \d{1,2} [A-Z][a-z]{2} \d{4}$/).waitFor();
    const renewal = ((await when.textContent()) ?? '').replace('Renews on ', '');
    expect(await page.getByTestId('plans-period').count()).toBe(0);
    const panel = (await page.getByTestId('plans-panel').textContent()) ?? '';
    expect(panel.match(/Renews on/g)).toHaveLength(1);
    // Any other date there (the downgrade's "from …") is the same one, written the same way.
    expect(panel.replaceAll(renewal, '').match(/(?<!\d)20\d\d(?!\d)/g)).toBeNull();
    // Tier 2 is the line's top: nothing left to buy.
    expect(await page.getByTestId('plan-buy-tier1').count()).toBe(0);
    expect(await page.getByTestId('plan-buy-tier2').count()).toBe(0);

    // The charts reach a year now: the same range is no longer locked.
    await page.getByTestId('sensor-tier').getByText('Tier 2').waitFor();
    await page.getByTestId('sensor-range-1y').click();
    // The year's answer is drawn: its charts (with their resolution) or, without readings, that there are none.
    await page.locator('[data-testid="sensor-resolution"], [data-testid="sensor-empty"]').first().waitFor();
    expect(await page.getByTestId('sensor-tier-lock').count()).toBe(0);

    // Manage billing opens the person's billing portal (the local Stripe server's page), which lists what they pay.
    await page.getByTestId('plans-manage').click();
    await page.waitForURL((url) => url.href.startsWith(`${stack().endpoints.stripe}/portal/`));
    expect(await page.locator('body').textContent()).toContain('SD1 Tier 2');
    await page.goBack();
    await page.getByTestId('plans-status').waitFor();

    for (const { width, height } of [WIDE, NARROW]) {
      await page.setViewportSize({ width, height });
      await page
        .getByTestId('plans-panel')
        .screenshot({ path: path.join(ARTIFACTS, `billing-plans-tier2-${width}.png`) });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    }
  });

  it('a declined card says so on the checkout page and leaves the device at its tier', async () => {
    const page = testPage();
    const { device } = await ownerOnDevicePage(page, 'billing-declined');

    await buyTier2(page);
    await page.getByLabel('Card number').fill('4000 0000 0000 0002');
    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.getByRole('alert').getByText('Your card was declined.').waitFor();

    await page.goto(web(`/dashboard/devices/${device.id}`));
    await page.getByTestId('plans-tier').getByText('Tier 0').waitFor();
    expect(await page.getByTestId('plans-subscription').textContent()).toContain('None');
    await page.getByTestId('sensor-tier').getByText('Tier 0').waitFor();
    expect(await page.getByTestId('plan-buy-tier2').isVisible()).toBe(true);
  });

  it('cancelling on the checkout page returns to say nothing was charged', async () => {
    const page = testPage();
    const { device } = await ownerOnDevicePage(page, 'billing-cancel');

    await buyTier2(page);
    await page.getByRole('link', { name: 'Cancel and return' }).click();
    await page.waitForURL((url) => url.pathname === '/billing/return');
    await page.getByTestId('billing-cancelled').getByText('Checkout cancelled: nothing was charged.').waitFor();
    await page.getByRole('link', { name: 'Back to the device' }).click();
    await page.waitForURL(web(`/dashboard/devices/${device.id}`));
    await page.getByTestId('plans-tier').getByText('Tier 0').waitFor();
  });
});
