import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../infra/local/demo-data';
import { keepScreenshot, loginUrl, pagePerTest, web } from '../support/browser';
import { chartPixels, chartsDrawnAfter } from '../support/chart-pixels';
import { freshUser } from '../support/people';
import { freshDevice, ingestLastHours } from '../support/sensor-data';
import { apiAs, stack } from '../support/stack';

const testPage = pagePerTest();
/** Screenshots of what the tests saw, kept by CI (git-ignored). */
const ARTIFACTS = path.resolve(import.meta.dirname, 'artifacts');
/** More Tab presses than any page here needs to reach a control; a control not reached by then is unreachable. */
const MAX_TABS = 120;

/** The focused element as a person (and a screen reader) meets it: role and accessible name, and its focus ring. */
interface Focused {
  role: string;
  name: string;
  testId: string | null;
  /** The browser draws an outline or a box-shadow around it. */
  ring: boolean;
}

const focused = async (page: Page): Promise<Focused> => {
  const element = page.locator(':focus');
  if ((await element.count()) === 0) return { role: 'none', name: '', testId: null, ring: false };
  // Playwright's ARIA snapshot computes the role and accessible name as assistive technology does.
  const snapshot = await element.ariaSnapshot();
  const [, role = '', name = ''] = snapshot.match(/^- (\w+)(?: "((?:[^"\\]|\\.)*)")?/) ?? [];
  const { testId, ring } = await element.evaluate((node) => {
    const style = getComputedStyle(node);
    const outline = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0;
    return { testId: node.getAttribute('data-testid'), ring: outline || style.boxShadow !== 'none' };
  });
  return { role, name: name.replace(/\\"/g, '"'), testId, ring };
};

/**
 * Presses Tab (or Shift+Tab) until the focused element is the one wanted, as a keyboard user would, and answers
 * it. Fails naming every element it passed when the control is never reached.
 */
const tabTo = async (
  page: Page,
  wanted: (f: Focused) => boolean,
  { key = 'Tab', max = MAX_TABS }: { key?: 'Tab' | 'Shift+Tab'; max?: number } = {},
): Promise<Focused> => {
  const passed: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    const now = await focused(page);
    if (wanted(now)) return now;
    passed.push(`${now.role} "${now.name}"${now.testId ? ` [${now.testId}]` : ''}`);
  }
  throw new Error(`Not reached with ${max} × ${key}; focus passed:\n${passed.join('\n')}`);
};

const named = (role: string, name: string) => (f: Focused) => f.role === role && f.name === name;
const withTestId = (testId: string) => (f: Focused) => f.testId === testId;

/** The focused control has a visible focus indicator. */
const expectRing = (f: Focused) => expect(f).toEqual({ ...f, ring: true });

const width = (page: Page) => page.viewportSize()!.width;
const shot = (page: Page, name: string) =>
  keepScreenshot(page, path.join(ARTIFACTS, `keyboard-${name}-${width(page)}.png`));

/** Signs in on the login page showing now by keyboard: Tab to the e-mail field, type, Tab, type the password, Enter. */
const signInByKeyboard = async (page: Page, email: string, password: string) => {
  await page.getByTestId('login-email').waitFor();
  await tabTo(page, withTestId('login-email'));
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  expect(await focused(page)).toMatchObject({ testId: 'login-password' });
  await page.keyboard.type(password);
  await page.keyboard.press('Enter');
};

/** Chart range buttons are toggles: which of them says it is pressed. */
const pressedRanges = (page: Page) =>
  page
    .locator('[data-testid^="sensor-range-"][aria-pressed="true"]')
    .evaluateAll((nodes) => nodes.map((node) => node.textContent));

/** Presses a key on the focused range button and waits for every chart of the range's answer to be drawn. */
const chooseRange = (page: Page, key: 'Enter' | 'Space') => chartsDrawnAfter(page, () => page.keyboard.press(key));

/** Each chart draws its line: pixels of the mean line's colour in its plot area. */
const expectLines = async (charts: Locator[], range: string) => {
  expect(charts.length).toBe(2);
  for (const chart of charts) {
    const where = `${await chart.getAttribute('data-measurement')} at ${range}`;
    expect({ where, drawn: (await chartPixels(chart)).covered > 0 }).toEqual({ where, drawn: true });
  }
};

describe('end to end: keyboard only', () => {
  beforeAll(() => mkdirSync(ARTIFACTS, { recursive: true }));

  it('signs in from /login with Tab, typing and Enter: each field focused and ringed, then the dashboard holds focus', async () => {
    const page = testPage();
    await page.goto(web('/login'));
    await page.getByTestId('login-email').waitFor();
    const emailField = await tabTo(page, withTestId('login-email'));
    expect(emailField).toMatchObject({ role: 'textbox', name: 'Email' });
    expectRing(emailField);
    await page.keyboard.type('user@example.com');
    await page.keyboard.press('Tab');
    const passwordField = await focused(page);
    expect(passwordField).toMatchObject({ role: 'textbox', name: 'Password', testId: 'login-password' });
    expectRing(passwordField);
    await page.keyboard.type(DEMO_PASSWORD);
    expect(await page.getByTestId('login-email').inputValue()).toBe('user@example.com');
    await shot(page, 'login');
    await page.keyboard.press('Enter');

    await page.waitForURL(web('/dashboard'));
    await page.getByTestId('dashboard-email').getByText('user@example.com').waitFor();
    expect(await page.locator('main h1').first().textContent()).toBe('Welcome');
    // The form that held focus is gone: the dashboard's content has it, not <body>.
    expect(await focused(page)).toMatchObject({ role: 'main' });
    await shot(page, 'signed-in');
  });

  it('reaches a device from the dashboard with Tab and Enter and switches the chart range with Enter and Space', async () => {
    const person = await freshUser({ groups: ['Authenticated_users'], prefix: 'keys-device' });
    const device = await freshDevice({ productLine: 'sd1', ownerToken: person.token });
    await ingestLastHours(device, { hours: 10, everyMinutes: 5 });
    // 7 days chart from the hourly roll-ups, which the worker writes a moment after the ingest.
    const sensorData = apiAs('sensor-data', person.token);
    for (let tries = 0; ; tries++) {
      const week = await sensorData.series({ params: { id: device.id }, query: { from: Date.now() - 7 * 86_400_000 } });
      if (Object.keys(week.series).length === 2) break;
      if (tries > 100) throw new Error('The roll-ups of the fresh device did not arrive');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }

    const page = testPage();
    await page.goto(loginUrl('/dashboard'));
    await signInByKeyboard(page, person.email, person.password);
    await page.waitForURL(web('/dashboard'));
    const link = page.getByTestId(`my-devices-link-${device.id}`);
    await link.waitFor();
    const onLink = await tabTo(page, withTestId(`my-devices-link-${device.id}`));
    expect(onLink).toMatchObject({ role: 'link', name: (await link.textContent())! });
    expectRing(onLink);
    await page.keyboard.press('Enter');

    await page.waitForURL(web(`/dashboard/devices/${device.id}`));
    await page.getByTestId('sensor-tier').getByText('Tier 0').waitFor();
    await page.locator('[data-testid="sensor-chart"][data-painted]').nth(1).waitFor();
    // The followed link left with the dashboard: the device page's content holds focus.
    expect(await focused(page)).toMatchObject({ role: 'main' });
    expect(await pressedRanges(page)).toEqual(['Last 24 h']);
    expect(await page.getByTestId('sensor-resolution').textContent()).toContain('From the raw readings');

    // Tab on to the 7 days toggle; Enter presses it.
    const week = await tabTo(page, named('button', '7 days'));
    expectRing(week);
    expect(await page.getByTestId('sensor-range-7d').getAttribute('aria-pressed')).toBe('false');
    await expectLines(await chooseRange(page, 'Enter'), '7 days');
    expect(await pressedRanges(page)).toEqual(['7 days']);
    expect(await page.getByTestId('sensor-resolution').textContent()).toContain('roll-ups');
    // Pressing it kept focus on it.
    expect(await focused(page)).toMatchObject({ role: 'button', name: '7 days', testId: 'sensor-range-7d' });
    await keepScreenshot(
      page.getByTestId('sensor-data'),
      path.join(ARTIFACTS, `keyboard-device-7d-${width(page)}.png`),
    );

    // Shift+Tab back to the 24 hours toggle; Space presses it.
    const day = await tabTo(page, named('button', 'Last 24 h'), { key: 'Shift+Tab', max: 1 });
    expectRing(day);
    await expectLines(await chooseRange(page, 'Space'), 'Last 24 h');
    expect(await pressedRanges(page)).toEqual(['Last 24 h']);
    expect(await page.getByTestId('sensor-range-7d').getAttribute('aria-pressed')).toBe('false');
    expect(await page.getByTestId('sensor-resolution').textContent()).toContain('From the raw readings');
  });

  it('puts Tier 2 in the cart and pays for it on the checkout page with the keyboard only', async () => {
    const person = await freshUser({ groups: ['Authenticated_users'], prefix: 'keys-checkout' });
    const device = await freshDevice({ productLine: 'sd1', ownerToken: person.token });
    const devicePath = `/dashboard/devices/${device.id}`;
    const page = testPage();
    await page.goto(loginUrl(devicePath));
    await signInByKeyboard(page, person.email, person.password);
    await page.waitForURL(web(devicePath));
    await page.getByTestId('plans-tier').getByText('Tier 0').waitFor();
    // The prices are a query of their own: the tier's name can show while its price still loads.
    await page.getByTestId('plan-price-tier2').filter({ hasText: '$19.00' }).waitFor();

    // Tab to Tier 2's "Add to cart" (described by the tier's name); Enter puts it in.
    const add = await tabTo(page, withTestId('plan-cart-tier2'));
    expect(add).toMatchObject({ role: 'button', name: 'Add to cart' });
    expect(await page.getByTestId('plan-cart-tier2').getAttribute('aria-describedby')).toBe('plan-name-tier2');
    expectRing(add);
    await page.keyboard.press('Enter');
    await page.getByTestId('plan-cart-tier2-added').getByText('In cart').waitFor();
    // The button is gone: its link to the cart took the focus.
    const viewCart = await focused(page);
    expect(viewCart).toMatchObject({ role: 'link', name: 'View cart' });
    expectRing(viewCart);
    await page.keyboard.press('Enter');

    await page.waitForURL(web('/dashboard/cart'));
    const item = page.getByTestId(`cart-item-prod_sd1_tier2|${device.id}`);
    await item.getByText('SD1 Tier 2').waitFor();
    expect(await page.getByTestId('cart-total').allTextContents()).toEqual(['$19.00 a month']);
    expect(await focused(page)).toMatchObject({ role: 'main' });
    // Checkout waits for the catalogue and the cart's devices: a disabled button is not in the Tab order.
    await page.locator('[data-testid="cart-checkout"]:enabled').waitFor();
    const checkout = await tabTo(page, withTestId('cart-checkout'));
    expect(checkout).toMatchObject({ role: 'button', name: 'Checkout' });
    expectRing(checkout);
    await shot(page, 'cart');
    await page.keyboard.press('Enter');

    // The local Stripe server's checkout page: Tab to the card, type it, Tab to Pay, Enter.
    await page.waitForURL((url) => url.href.startsWith(`${stack().endpoints.stripe}/checkout/`));
    await page.getByLabel('Card number').waitFor();
    expect(await page.locator('body').textContent()).toContain('SD1 Tier 2');
    const card = await tabTo(page, named('textbox', 'Card number'), { max: 5 });
    expectRing(card);
    await page.keyboard.type('4242 4242 4242 4242');
    await page.keyboard.press('Tab');
    const pay = await focused(page);
    expect(pay).toMatchObject({ role: 'button', name: 'Pay $19.00' });
    expectRing(pay);
    await shot(page, 'checkout');
    await page.keyboard.press('Enter');

    // Back on the web app: paid, the tier applies, and what was bought leaves the cart.
    await page.waitForURL((url) => url.pathname === '/billing/return');
    expect(new URL(page.url()).searchParams.get('cart')).toBe('1');
    await page.getByTestId('billing-paid').getByText('Payment received').waitFor();
    await page.getByTestId('billing-tier-active').getByText('Tier 2 is active').waitFor({ timeout: 20_000 });
    await page
      .getByTestId('billing-cart-state')
      .getByText('What you bought has left your cart.')
      .waitFor({ timeout: 20_000 });
    await shot(page, 'checkout-done');

    // And on to the device by keyboard, which is on Tier 2 now.
    const back = await tabTo(page, named('link', 'Back to the device'));
    expectRing(back);
    await page.keyboard.press('Enter');
    await page.waitForURL(web(devicePath));
    await page.getByTestId('plans-tier').getByText('Tier 2').waitFor();
    expect(await focused(page)).toMatchObject({ role: 'main' });
  });
});
