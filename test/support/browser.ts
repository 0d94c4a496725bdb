import { existsSync } from 'node:fs';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../infra/local/demo-data';
import { type DemoEmail, stack } from './stack';

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
    page = await (await browser!.newContext()).newPage();
  });
  afterEach(async () => {
    await page?.context().close();
    page = undefined;
  });
  return () => {
    if (!page) throw new Error('No page: pagePerTest() gives a page only while a test runs');
    return page;
  };
};

/** Opens `destination` signed out, which leads to the login page, and signs in there with a demo account. */
export const signInAs = async (page: Page, email: DemoEmail, destination: string) => {
  await page.goto(web(destination));
  await page.waitForURL(/\/login\?destination=/);
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(DEMO_PASSWORD);
  await page.getByTestId('login-submit').click();
};

/** Lists are paged and other tests add rows too: loads further pages until the row shows. */
export const showRow = async (row: Locator, more: Locator) => {
  for (;;) {
    await row.or(more).first().waitFor({ timeout: 15_000 });
    if (await row.isVisible()) return;
    await more.click();
  }
};
