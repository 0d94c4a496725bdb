import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { keepScreenshot, openNav, pagePerTest, signOutInHeader, web } from '../support/browser';
import { chartPixels, chartsDrawnAfter } from '../support/chart-pixels';
import { freshUser } from '../support/people';
import { freshDevice, ingestLastHours } from '../support/sensor-data';
import { apiAs } from '../support/stack';
import { signInPerson } from './people-fixtures';

const testPage = pagePerTest();
/** Screenshots of what the tests saw, kept by CI (git-ignored). */
const ARTIFACTS = path.resolve(import.meta.dirname, 'artifacts');

/**
 * Which columns of a chart's plot area the locked band shades, as a person sees it: a column is shaded when most
 * of its pixels hold the band's translucent grey (the mean line is blue, its min/max band pale blue, the grid
 * near-transparent black, the unlocked background transparent).
 */
const shadedColumns = (chart: Locator): Promise<boolean[]> =>
  chart.evaluate((element) => {
    const canvas = element.querySelector('canvas')!;
    const over = element.querySelector('.u-over')!;
    const box = canvas.getBoundingClientRect();
    const plot = over.getBoundingClientRect();
    const ratio = canvas.width / box.width;
    const left = Math.round((plot.left - box.left) * ratio);
    const top = Math.round((plot.top - box.top) * ratio);
    const width = Math.round(plot.width * ratio);
    const height = Math.round(plot.height * ratio);
    const { data } = canvas.getContext('2d')!.getImageData(left, top, width, height);
    const shaded = (x: number) => {
      let count = 0;
      for (let y = 0; y < height; y++) {
        const i = (y * width + x) * 4;
        const [r, g, b, a] = [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
        if (a >= 40 && a <= 110 && b - r >= 20 && b - r <= 60 && Math.abs(g - (r + b) / 2) <= 15) count++;
      }
      return count / height > 0.8;
    };
    return Array.from({ length: Math.round(plot.width) }, (_, x) => shaded(Math.min(width - 1, Math.floor(x * ratio))));
  });

/** Chooses the year's range and waits for every chart of its answer to be drawn; answers the charts. */
const showYear = (page: Page) => chartsDrawnAfter(page, () => page.getByTestId('sensor-range-1y').click());

/** Below 1024 px the opened menu covers the page: Escape puts it away before the next click on the page. */
const closeNav = async (page: Page) => {
  if ((await page.getByTestId('menu-toggle').getAttribute('aria-expanded')) === 'true')
    await page.keyboard.press('Escape');
};

const cartItem = (page: Page, productId: string, deviceId: string) =>
  page.getByTestId(`cart-item-${productId}|${deviceId}`);

describe('end to end: the cart and the locked-history band', () => {
  beforeAll(() => mkdirSync(ARTIFACTS, { recursive: true }));

  it('the band puts Tier 2 in the cart; the cart survives signing out; paid with the test card it empties and the year charts', async () => {
    const person = await freshUser({ groups: ['Authenticated_users'], prefix: 'cart-e2e' });
    const device = await freshDevice({ productLine: 'sd1', ownerToken: person.token });
    // Inside Tier 0's 7 days.
    await ingestLastHours(device, { hours: 72, everyMinutes: 30 });
    const devicePath = `/dashboard/devices/${device.id}`;
    const page = testPage();
    await signInPerson(page, person, devicePath);
    await page.waitForURL(web(devicePath));
    await page.getByTestId('sensor-tier').getByText('Tier 0').waitFor();

    // A year under Tier 0: every chart shades the 358 locked days before the 7 it shows, named by the tier.
    const charts = await showYear(page);
    expect(charts.length).toBe(2);
    for (const chart of charts) {
      const where = await chart.getAttribute('data-measurement');
      expect({ where, label: await chart.getByTestId('sensor-lock-band').textContent() }).toEqual({
        where,
        label: 'Tier 2 unlocks 365 days',
      });
      const shaded = await shadedColumns(chart);
      const width = shaded.length;
      const share = (from: number, to: number) =>
        shaded.slice(Math.floor(from * width), Math.ceil(to * width)).filter(Boolean).length /
        (Math.ceil(to * width) - Math.floor(from * width));
      // 358 of 365 days are locked: the band ends at 98 % of the width, and the shown week is not shaded.
      expect({ where, locked: share(0.01, 0.96) }).toEqual({ where, locked: 1 });
      expect({ where, shown: share(0.99, 1) }).toEqual({ where, shown: 0 });
      // The readings of the last three days are drawn at the right edge, right of the band.
      expect({ where, line: (await chartPixels(chart)).covered > 0 }).toEqual({ where, line: true });
    }
    await page
      .getByTestId('sensor-data')
      .screenshot({ path: path.join(ARTIFACTS, `cart-lock-band-${page.viewportSize()!.width}.png`) });

    // One click puts Tier 2 for this device in the cart; the header counts it.
    const tier2 = 'prod_sd1_tier2';
    await page.getByRole('button', { name: 'Add Tier 2 to cart' }).click();
    await page.getByTestId('sensor-lock-add-added').getByText('In cart').waitFor();
    await openNav(page);
    await page.getByTestId('nav-cart-count').getByText('1').waitFor();
    await closeNav(page);
    await page.getByTestId('sensor-lock-add-added').getByRole('link', { name: 'View cart' }).click();
    await page.waitForURL(web('/dashboard/cart'));
    const item = cartItem(page, tier2, device.id);
    await item.getByText('SD1 Tier 2').waitFor();
    expect(await item.textContent()).toContain('Tier 2');
    await item.getByText('$19.00').waitFor();
    expect(await page.getByTestId('cart-total').allTextContents()).toEqual(['$19.00 a month']);
    expect(await item.getByRole('link').getAttribute('href')).toBe(devicePath);

    // Adding it again is refused with the API's message.
    await page.goBack();
    await page.waitForURL(web(devicePath));
    await showYear(page);
    await page.getByRole('button', { name: 'Add Tier 2 to cart' }).click();
    await page.getByTestId('sensor-lock-add-error').getByText('Item already in cart').waitFor();

    // The cart is on the person's record: signed out and in again, it is still there.
    await signOutInHeader(page);
    await page.getByTestId('header-sign-in').waitFor();
    await signInPerson(page, person, '/dashboard/cart');
    await page.waitForURL(web('/dashboard/cart'));
    await cartItem(page, tier2, device.id).getByText('SD1 Tier 2').waitFor();
    await keepScreenshot(page, path.join(ARTIFACTS, `cart-page-${page.viewportSize()!.width}.png`), { fullPage: true });

    // An item of a product no longer on sale says so and holds up checkout until it is removed.
    await apiAs('users', person.token).addCartItem({
      params: { id: person.id },
      body: { productId: 'prod_withdrawn', deviceId: device.id, quantity: 1 },
    });
    await page.reload();
    const withdrawn = cartItem(page, 'prod_withdrawn', device.id);
    await withdrawn.getByText('No longer on sale').waitFor();
    await page.getByTestId('cart-blocked').waitFor();
    expect(await page.getByTestId('cart-checkout').isDisabled()).toBe(true);
    // A tier is bought for one device: no quantity to choose (issue 36), and the item's buttons are named in words,
    // by the product and the device as the row shows them, never by their ids.
    const tier2Item = cartItem(page, tier2, device.id);
    expect(await page.getByRole('columnheader', { name: 'Quantity' }).count()).toBe(0);
    expect(await tier2Item.getByRole('button').allTextContents()).toEqual(['Remove']);
    const deviceName = ((await tier2Item.getByRole('link').textContent()) ?? '').trim();
    expect(deviceName).not.toBe(device.id);
    expect(
      await tier2Item.getByRole('button', { name: `Remove SD1 Tier 2 for ${deviceName}`, exact: true }).count(),
    ).toBe(1);
    expect(await page.getByTestId('cart-total').allTextContents()).toEqual(['$19.00 a month']);
    await withdrawn.getByRole('button', { name: /^Remove/ }).click();
    await withdrawn.waitFor({ state: 'detached' });
    expect(await page.getByTestId('cart-blocked').count()).toBe(0);
    expect(await page.getByTestId('cart-checkout').isEnabled()).toBe(true);

    // Checkout of the whole cart on the local checkout page, with the test card.
    await page.getByTestId('cart-checkout').click();
    await page.getByLabel('Card number').waitFor();
    expect(await page.locator('body').textContent()).toContain('SD1 Tier 2');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: /^Pay/ }).click();

    // Back on the web app: the webhook takes what was bought out of the cart, and the tier applies.
    await page.waitForURL((url) => url.pathname === '/billing/return');
    expect(new URL(page.url()).searchParams.get('cart')).toBe('1');
    await page.getByTestId('billing-tier-active').getByText('Tier 2 is active').waitFor({ timeout: 20_000 });
    await page
      .getByTestId('billing-cart-state')
      .getByText('What you bought has left your cart.')
      .waitFor({ timeout: 20_000 });
    await openNav(page);
    await page.getByTestId('nav-cart').getByText('Cart').waitFor();
    expect(await page.getByTestId('nav-cart-count').count()).toBe(0);
    await closeNav(page);
    await page.getByTestId('billing-cart-link').click();
    await page.getByTestId('cart-empty').getByText('Your cart is empty.').waitFor();

    // The device page charts the whole year now: no band, no lock.
    await page.goto(web(devicePath));
    await page.getByTestId('sensor-tier').getByText('Tier 2').waitFor();
    const year = await showYear(page);
    expect(await page.getByTestId('sensor-lock-band').count()).toBe(0);
    expect(await page.getByTestId('sensor-tier-lock').count()).toBe(0);
    for (const chart of year) {
      expect((await shadedColumns(chart)).some(Boolean)).toBe(false);
      expect((await chartPixels(chart)).covered).toBeGreaterThan(0);
    }
    // A journey of three sign-ins and a checkout: 40 s on a quiet machine, past 60 s on a loaded one.
  }, 120_000);
});
