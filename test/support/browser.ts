import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContextOptions, chromium, type Locator, type Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../infra/local/demo-data';
import { type DemoEmail, stack } from './stack';
import { nextTotp } from './totp';

/** Debian's Chromium, never a downloaded browser build (the machine has no internet). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const launchBrowser = (): Promise<Browser> => {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: install it with "apt-get install -y chromium" (.ci/run does)`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
};

/**
 * Keeps a screenshot for people to look at (CI keeps `test/e2e/artifacts`). It is a record, not an assertion:
 * on a loaded 2-core runner a full-page shot of a long page (software rendering, maps, charts) has outlasted
 * 30 s, so it gets 60 s, falls back to the viewport, and a shot that still cannot be taken only warns.
 */
export const keepScreenshot = async (
  target: Page | Locator,
  file: string,
  options: { fullPage?: boolean } = {},
): Promise<void> => {
  try {
    const shot = { path: file, timeout: 60_000 };
    await ('goto' in target ? target.screenshot({ ...shot, fullPage: options.fullPage }) : target.screenshot(shot));
  } catch (error) {
    if (options.fullPage) return keepScreenshot(target, file);
    console.warn(`screenshot ${file} not kept: ${(error as Error).message.split('\n')[0]}`);
  }
};

/** The widths the layout is checked at: the desktop header's one row, and a small phone. */
export const WIDE = { width: 1280, height: 800 } as const;
export const NARROW = { width: 375, height: 812 } as const;

/**
 * Every test page's context: Playwright's 1280 x 720 and light scheme, unless `E2E_WIDTH` asks for another
 * width (`E2E_WIDTH=375 npm run test:e2e` runs every journey at phone width, the header folded into its menu).
 */
export const contextOptions = (): BrowserContextOptions => {
  const width = Number(process.env.E2E_WIDTH);
  return width > 0 ? { viewport: { width, height: width < 1024 ? NARROW.height : WIDE.height } } : {};
};

const cspViolations = new WeakMap<Page, string[]>();
const lostClicks = new WeakMap<Page, string[]>();
const pageEvents = new WeakMap<Page, string[]>();
const consoleWarnings = new WeakMap<Page, string[]>();

/** How a page says that a click was lost (LOST_CLICK_WATCH). */
const LOST_CLICK = '[lost click]';

/**
 * Watches every press of the primary button on a control (a link, a button, a field, a label…) in the page: when the
 * button is let go where it was pressed but on another control, or on none, because the pressed one moved or left the
 * page meanwhile, the browser sends the click to what the two share and the press does nothing. A person's click is
 * lost the same way (docs/frontend-layout.md, "No lost clicks"). Playwright checks what is under the pointer when it
 * presses, not when it lets go, so without this such a click passed for done, and the test only timed out later,
 * waiting for what the click should have done.
 */
const LOST_CLICK_WATCH = `(() => {
  const CONTROLS = 'a[href], button, input, select, textarea, label, summary, [role="button"], [role="link"], [role="checkbox"], [role="tab"], [role="option"], [role="menuitem"]';
  const controlOf = (target) => (target instanceof Element ? target.closest(CONTROLS) : null);
  const name = (element) => element.dataset && element.dataset.testid
    ? '[data-testid="' + element.dataset.testid + '"]'
    : element.tagName.toLowerCase() + ' "' + (element.textContent || '').trim().slice(0, 40) + '"';
  let press;
  addEventListener('pointerdown', (event) => {
    const control = event.isPrimary && event.button === 0 ? controlOf(event.target) : null;
    if (!control) return (press = undefined);
    const box = control.getBoundingClientRect();
    press = { control, x: event.clientX, y: event.clientY, left: box.left, top: box.top };
  }, true);
  // A control that acts on the press itself (a picker's option, chosen before the field's blur closes its list) says
  // so by preventing the press's default; what it does then is no lost click.
  addEventListener('mousedown', (event) => {
    if (event.defaultPrevented) press = undefined;
  });
  addEventListener('pointerup', (event) => {
    const pressed = press;
    press = undefined;
    // A drag (the pointer moved) is no click.
    if (!pressed || !event.isPrimary || event.clientX !== pressed.x || event.clientY !== pressed.y) return;
    if (controlOf(event.target) === pressed.control) return;
    const box = pressed.control.getBoundingClientRect();
    const what = pressed.control.isConnected
      ? 'moved ' + Math.round(box.left - pressed.left) + ', ' + Math.round(box.top - pressed.top) + ' px'
      : 'left the page';
    console.warn('${LOST_CLICK} ' + name(pressed.control) + ' ' + what + ' between the press and the release, at ' + location.pathname);
  }, true);
})()`;

/**
 * The clicks the page lost so far (LOST_CLICK_WATCH): each is a page that moved what was pressed while it was held, a
 * bug of the page and never of the test.
 */
export const lostClicksOf = (page: Page): readonly string[] => lostClicks.get(page) ?? [];

/**
 * Every console error and warning of the page so far. React's own warnings (a promise `use()` was given that no render
 * kept, a key missing) are written by its development build only: a test that asserts on them runs with TEST_WEB=dev.
 */
export const consoleWarningsOf = (page: Page): readonly string[] => consoleWarnings.get(page) ?? [];

/** How many of a page's last events (navigations, console errors and warnings, failed and refused requests) a failed test prints. */
const EVENTS_KEPT = 40;

/**
 * What the page's Content-Security-Policy refused so far (issue 19): the production build is served with the CSP
 * CloudFront sends, and a refused script, style, connection or image is a page that works only without it.
 */
export const cspViolationsOf = (page: Page): readonly string[] => cspViolations.get(page) ?? [];

/** A page in a context of its own (no session shared with other pages), sized as `contextOptions` says. */
export const newPage = async (browser: Browser): Promise<Page> => {
  const page = await (await browser.newContext(contextOptions())).newPage();
  await page.addInitScript({ content: LOST_CLICK_WATCH });
  const violations: string[] = [];
  cspViolations.set(page, violations);
  const lost: string[] = [];
  lostClicks.set(page, lost);
  const events: string[] = [];
  pageEvents.set(page, events);
  const warnings: string[] = [];
  consoleWarnings.set(page, warnings);
  const started = Date.now();
  const note = (line: string) => {
    events.push(`+${((Date.now() - started) / 1000).toFixed(1)}s ${line}`);
    if (events.length > EVENTS_KEPT) events.shift();
  };
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) violations.push(message.text());
    if (message.text().startsWith(LOST_CLICK)) lost.push(message.text());
    if (message.type() === 'error' || message.type() === 'warning') {
      note(`console.${message.type()}: ${message.text()}`);
      warnings.push(message.text());
    }
  });
  page.on('pageerror', (error) => note(`page error: ${error.message}`));
  page.on('requestfailed', (request) =>
    note(`failed: ${request.method()} ${request.url()} ${request.failure()?.errorText}`),
  );
  page.on('response', (response) => {
    if (response.status() >= 400) note(`${response.status()}: ${response.request().method()} ${response.url()}`);
  });
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) note(`navigated: ${frame.url()}`);
  });
  return page;
};

/** Whether the running test (or a `beforeEach` of it) failed, as the stack project's environment saw it. */
const runningTestFailed = (): boolean => (globalThis as { __stackTestFailed?: boolean }).__stackTestFailed === true;

const FAILURES = path.resolve(import.meta.dirname, '../e2e/artifacts/failures');

/**
 * What a failed browser test leaves for whoever reads the CI log (a flake under load seen once is otherwise gone):
 * the page's address, what it shows and its last errors and refused requests, printed; a screenshot beside the
 * artifacts.
 */
const keepFailure = async (page: Page) => {
  const name = (expect.getState().currentTestName ?? 'test').replace(/[^\w-]+/g, '-').slice(0, 100);
  const file = path.join(FAILURES, `${name}-${page.viewportSize()?.width ?? 0}-${Date.now()}.png`);
  mkdirSync(FAILURES, { recursive: true });
  const shown = await page
    .locator('body')
    // biome-ignore lint/performance/useDomNodeTextContent: Playwright's locator, and what is visible is the point
    .innerText({ timeout: 5_000 })
    .catch((error: Error) => `(not read: ${error.message.split('\n')[0]})`);
  await keepScreenshot(page, file);
  const report = [
    `Browser test failed: ${expect.getState().currentTestName}`,
    `  at ${page.url()}`,
    `  screenshot: ${path.relative(process.cwd(), file)}`,
    `  shows: ${shown.replace(/\s+/g, ' ').slice(0, 600)}`,
    ...(pageEvents.get(page) ?? []).map((line) => `  ${line.slice(0, 300)}`),
  ].join('\n');
  writeFileSync(file.replace(/\.png$/, '.txt'), report);
  console.warn(report);
};

/** The local web app's address, optionally with a path (`/dashboard`). */
export const web = (path = ''): string => `${stack().endpoints.web!}${path}`;

/**
 * One Chromium for the test file and a fresh context per test, so no session carries over from one test to
 * the next. Call at the top level of the file; the returned function gives the running test's page.
 */
export const pagePerTest = (): (() => Page) => {
  let browser: Browser | undefined;
  let page: Page | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    page = await newPage(browser!);
  });
  afterEach(async () => {
    const refused = page ? cspViolationsOf(page) : [];
    const lost = page ? lostClicksOf(page) : [];
    if (page && runningTestFailed()) await keepFailure(page);
    await page?.context().close();
    page = undefined;
    expect(refused).toEqual([]);
    expect(lost).toEqual([]);
  });
  return () => {
    if (!page) throw new Error('No page: pagePerTest() gives a page only while a test runs');
    return page;
  };
};

/** The submit button of the Authenticator screen showing now (each screen is one form with one submit). */
export const authSubmit = (page: Page): Locator =>
  page.locator('[data-amplify-authenticator] form[data-amplify-form] button[type="submit"]');

/** The error the Authenticator shows for a failed step. */
export const authError = (page: Page): Locator => page.locator('[data-amplify-authenticator] [role="alert"]');

/** The login page that leads on to `destination` (path + query + hash) after sign-in. */
export const loginUrl = (destination: string): string => web(`/login?destination=${encodeURIComponent(destination)}`);

/** Fills and submits the Authenticator's sign-in form on the login page showing now. */
export const submitSignIn = async (page: Page, email: string, password: string) => {
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await authSubmit(page).click();
};

/**
 * Signs in with a demo account through the login page that leads on to `destination`. /dashboard is open to
 * guests, so the test opens the login page itself rather than waiting to be sent there.
 */
export const signInAs = async (page: Page, email: DemoEmail, destination: string) => {
  await page.goto(loginUrl(destination));
  await submitSignIn(page, email, DEMO_PASSWORD);
};

/** Lists are paged and other tests add rows too: loads further pages until the row shows. */
export const showRow = async (row: Locator, more: Locator) => {
  for (;;) {
    await row.or(more).first().waitFor({ timeout: 15_000 });
    if (await row.isVisible()) return;
    // The button is drawn anew as pages arrive: a click that finds it gone (or busy) just looks again.
    await more.click({ timeout: 5_000 }).catch(() => undefined);
  }
};

/**
 * Below 1024 px the header folds its navigation and account actions into a menu: opens it when it is folded
 * and closed, so the next step can click a header link or "Sign out" at any width. Does nothing when wide.
 */
export const openNav = async (page: Page) => {
  await page.getByTestId('header-section').waitFor();
  const toggle = page.getByTestId('menu-toggle');
  if ((await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
};

/** Waits until the header names the signed-in user (present in the folded menu too, where it is not shown). */
export const waitForHeaderUser = (page: Page, email?: string) => {
  const user = page.getByTestId('header-user');
  return (email ? user.getByText(email) : user).waitFor({ state: 'attached' });
};

/** Signs out through the header, opening its menu first when it is folded. */
export const signOutInHeader = async (page: Page) => {
  await openNav(page);
  await page.getByTestId('sign-out').click();
  // The page changes at once; Amplify clears the token cookies once RevokeToken has answered. A page opened before
  // that would still find the session.
  const deadline = Date.now() + 10_000;
  while ((await page.context().cookies()).some((c) => c.name.endsWith('.refreshToken'))) {
    if (Date.now() > deadline) throw new Error('Signing out left the refresh token cookie in place');
    await page.waitForTimeout(100);
  }
};

/** Whether the element lies wholly inside the visible part of the page (what a person sees now). */
export const onScreen = (element: Locator): Promise<boolean> =>
  element.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return box.top >= 0 && box.left >= 0 && box.bottom <= window.innerHeight && box.right <= window.innerWidth;
  });

/**
 * The browser tab's title once the page has drawn its heading (the app follows the heading, lib/page-title.ts):
 * waits up to 10 s for `expected`, then asserts what the tab says, so a wrong title fails naming both.
 */
export const expectTabTitle = async (page: Page, expected: string) => {
  await page.waitForFunction((title) => document.title === title, expected, { timeout: 10_000 }).catch(() => undefined);
  expect(await page.title()).toBe(expected);
};

/** Follows one of the header's main links ("Admin", "My account"), opening its menu first when it is folded. */
export const headerLink = async (page: Page, name: string) => {
  await openNav(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
};

/** Opens the signed-in person's account page through the header, where their e-mail is the link (app-layout.tsx). */
export const accountLink = async (page: Page) => {
  await openNav(page);
  await page.getByRole('link', { name: /^My account: / }).click();
};

/**
 * Sets up an authenticator app on the signed-in person's account page, as a person does (QR code, secret, first
 * code): the secret and the code used, which the identity provider will not take again.
 */
export const setUpAuthenticatorApp = async (page: Page) => {
  await accountLink(page);
  const security = page.getByTestId('account-security');
  await security.getByTestId('totp-setup').click();
  await security.getByTestId('totp-qr').waitFor();
  const secret = (await security.getByTestId('totp-secret').textContent())!.trim();
  const setupCode = await nextTotp(secret);
  await security.getByTestId('totp-code').fill(setupCode);
  await security.getByTestId('totp-verify').click();
  await security.getByTestId('totp-done').waitFor();
  return { secret, setupCode, security };
};
