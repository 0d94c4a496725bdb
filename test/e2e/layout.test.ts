import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { keepScreenshot, launchBrowser, NARROW, signInAs, WIDE, waitForHeaderUser, web } from '../support/browser';
import type { DemoEmail } from '../support/stack';

/** Screenshots of every page at both widths (and dark), kept by CI (git-ignored). */
const ARTIFACTS = path.resolve(import.meta.dirname, 'artifacts');

type Who = DemoEmail | 'guest';

/** The main pages, each as the person who may see it; `profile` is the signed-in person's own page. */
const PAGES: readonly { name: string; who: Who; path: string | 'profile' }[] = [
  { name: 'guest-dashboard', who: 'guest', path: '/dashboard' },
  { name: 'login', who: 'guest', path: '/login' },
  { name: 'dashboard', who: 'user@example.com', path: '/dashboard' },
  { name: 'device', who: 'user@example.com', path: '/dashboard/devices/demo-device-1' },
  { name: 'api', who: 'user@example.com', path: '/dashboard/api' },
  { name: 'profile', who: 'user@example.com', path: 'profile' },
  { name: 'organization', who: 'approved@example.com', path: '/dashboard/organizations/demo-org-1' },
  { name: 'campaign', who: 'approved@example.com', path: '/dashboard/campaigns/demo-campaign-1' },
  { name: 'admin', who: 'admin@example.com', path: '/admin' },
  { name: 'admin-people', who: 'admin@example.com', path: '/admin/people' },
  { name: 'admin-relations', who: 'admin@example.com', path: '/admin/relations' },
  { name: 'admin-parameters', who: 'admin@example.com', path: '/admin/parameters' },
  { name: 'admin-devices', who: 'admin@example.com', path: '/admin/devices' },
  { name: 'admin-releases', who: 'admin@example.com', path: '/admin/releases' },
];

let browser: Browser;
/** One signed-in context per person, width and scheme: signing in once per file keeps the suite short. */
const contexts = new Map<string, Promise<BrowserContext>>();

const contextFor = (who: Who, viewport: { width: number; height: number }, colorScheme: 'light' | 'dark') => {
  const key = `${who} ${viewport.width} ${colorScheme}`;
  if (!contexts.has(key)) {
    contexts.set(
      key,
      (async () => {
        const context = await browser.newContext({ viewport, colorScheme });
        if (who !== 'guest') {
          const page = await context.newPage();
          await signInAs(page, who, '/dashboard');
          await waitForHeaderUser(page, who);
          await page.close();
        }
        return context;
      })(),
    );
  }
  return contexts.get(key)!;
};

/** Opens a page and waits until its content has arrived (heading shown, requests done, nothing busy). */
const open = async (page: Page, target: string) => {
  let where = target;
  if (target === 'profile') {
    await page.goto(web('/dashboard'));
    where = (await page.getByTestId('nav-account').getAttribute('href'))!;
  }
  await page.goto(web(where));
  await page.locator('h1').first().waitFor();
  await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
  await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached', timeout: 15_000 });
  await page.waitForTimeout(300);
};

const sideways = (page: Page) =>
  page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));

/** Every interactive element's height in the given part of the page, named for the failure message. */
const targetHeights = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((nodes) =>
    nodes
      .filter((node) => (node as HTMLElement).offsetParent !== null)
      .map((node) => ({
        what: `${node.tagName.toLowerCase()} "${(node.textContent ?? '').trim().slice(0, 30)}"`,
        height: Math.round(node.getBoundingClientRect().height),
      })),
  );

const INTERACTIVE = 'a, button, input:not([type="checkbox"]):not([type="radio"]):not([type="file"]), select, summary';

/** The focused element's outline as the browser draws it. */
const focusOutline = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement;
    const style = getComputedStyle(element);
    return { tag: element.tagName, style: style.outlineStyle, width: Number.parseFloat(style.outlineWidth) };
  });

/** A table frame that scrolls must be reachable by keyboard and named (axe: scrollable-region-focusable). */
const unreachableScrollers = (page: Page) =>
  page.locator('.table-wrap').evaluateAll((frames) =>
    frames
      .filter((frame) => frame.scrollWidth > frame.clientWidth + 1)
      .filter(
        (frame) =>
          frame.getAttribute('tabindex') !== '0' ||
          !(frame.getAttribute('aria-label') || frame.getAttribute('aria-labelledby')),
      )
      .map((frame) => frame.querySelector('table')?.getAttribute('data-testid') ?? frame.outerHTML.slice(0, 80)),
  );

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(ARTIFACTS, { recursive: true });
});

afterAll(async () => {
  for (const context of contexts.values()) await (await context).close();
  await browser?.close();
});

describe.each([
  ['wide', WIDE],
  ['narrow', NARROW],
] as const)('end to end: the layout at %s width', (label, viewport) => {
  for (const { name, who, path: target } of PAGES) {
    it(`${name} (${who}) at ${viewport.width} px: no sideways scrolling, the header ${label === 'wide' ? 'in one row' : 'folded into its menu'}, focus shown`, async () => {
      const page = await (await contextFor(who, viewport, 'light')).newPage();
      try {
        await open(page, target);
        await keepScreenshot(page, path.join(ARTIFACTS, `layout-${name}-${viewport.width}.png`), { fullPage: true });
        const where = `${name} at ${viewport.width} px`;

        const { scrollWidth, innerWidth } = await sideways(page);
        expect({ where, scrollWidth: scrollWidth <= innerWidth }).toEqual({ where, scrollWidth: true });
        expect({ where, unreachable: await unreachableScrollers(page) }).toEqual({ where, unreachable: [] });

        if (name === 'login') return;
        const header = page.locator('header.header');
        const toggle = page.getByTestId('menu-toggle');
        const nav = page.getByRole('navigation', { name: 'Main' });

        if (label === 'wide') {
          // One row is one 44 px target plus padding; a second row would make it at least 88 px.
          const height = (await header.boundingBox())!.height;
          expect({ where, height, oneRow: height < 70 }).toEqual({ where, height, oneRow: true });
          expect(await toggle.isVisible()).toBe(false);
          expect(await nav.isVisible()).toBe(true);
          // The first Tab lands on the header's first link, and the browser draws its focus ring.
          await page.keyboard.press('Tab');
          const outline = await focusOutline(page);
          expect({ where, ...outline, shown: outline.style !== 'none' && outline.width > 0 }).toEqual({
            where,
            ...outline,
            tag: 'A',
            shown: true,
          });
          return;
        }

        // Narrow: the navigation and account wait behind one button.
        expect(await nav.isVisible()).toBe(false);
        expect(await toggle.getAttribute('aria-expanded')).toBe('false');
        const menuId = (await toggle.getAttribute('aria-controls'))!;
        await toggle.focus();
        await page.keyboard.press('Enter');
        expect(await toggle.getAttribute('aria-expanded')).toBe('true');
        await page.locator(`#${menuId}`).waitFor();
        await nav.waitFor();
        await page.screenshot({ path: path.join(ARTIFACTS, `layout-${name}-${viewport.width}-menu.png`) });
        const small = (await targetHeights(page, `header.header :is(${INTERACTIVE})`)).filter((t) => t.height < 44);
        expect({ where, small }).toEqual({ where, small: [] });
        // Tab moves from the button into the menu; its first link shows its focus.
        await page.keyboard.press('Tab');
        const outline = await focusOutline(page);
        expect({ where, ...outline, shown: outline.style !== 'none' && outline.width > 0 }).toEqual({
          where,
          ...outline,
          tag: 'A',
          shown: true,
        });
        // Escape closes the menu and gives focus back to its button.
        await page.keyboard.press('Escape');
        expect(await toggle.getAttribute('aria-expanded')).toBe('false');
        expect(await nav.isVisible()).toBe(false);
        expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('menu-toggle');
        // Following a link closes it too.
        await toggle.click();
        await nav.getByRole('link', { name: 'Dashboard', exact: true }).click();
        await page.waitForURL(web('/dashboard'));
        expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      } finally {
        await page.close();
      }
    });
  }

  // Phones are where fingers tap: at 375 px every control is measured, not only the header's.
  if (label !== 'narrow') return;
  it(`at ${viewport.width} px every control of the main pages is a touch target (44 px) tall`, async () => {
    for (const { name, who, path: target } of PAGES.filter((p) => p.name !== 'login')) {
      const page = await (await contextFor(who, viewport, 'light')).newPage();
      try {
        await open(page, target);
        // Links in running text are exempt (WCAG 2.5.5), so only controls are measured.
        const controls = INTERACTIVE.split(', ')
          .filter((selector) => selector !== 'a')
          .map((selector) => `main ${selector}:not(.link-button)`)
          .join(', ');
        const small = (await targetHeights(page, controls)).filter((t) => t.height < 44);
        expect({ name, small }).toEqual({ name, small: [] });
      } finally {
        await page.close();
      }
    }
  }, 180_000);
});

describe('end to end: the dark theme', () => {
  for (const viewport of [WIDE, NARROW]) {
    it(`follows prefers-color-scheme at ${viewport.width} px: a dark page with light text`, async () => {
      for (const { name, who, path: target } of PAGES.filter((p) =>
        ['guest-dashboard', 'login', 'device', 'admin-people'].includes(p.name),
      )) {
        const page = await (await contextFor(who, viewport, 'dark')).newPage();
        try {
          await open(page, target);
          // The viewport only: a full-page shot resizes the page, and the map then redraws its base layer in
          // software WebGL (no GPU here), which under load outlasted the screenshot's 30 s.
          await keepScreenshot(page, path.join(ARTIFACTS, `layout-${name}-${viewport.width}-dark.png`));
          const colours = await page.evaluate(() => {
            // Relative luminance (WCAG) of a computed `rgb(r, g, b)` colour.
            const luminance = (colour: string) => {
              const [r, g, b] = (colour.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((c) => {
                const v = Number(c) / 255;
                return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
              });
              return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
            };
            const body = getComputedStyle(document.body);
            return { background: luminance(body.backgroundColor), text: luminance(body.color) };
          });
          const contrast = (colours.text + 0.05) / (colours.background + 0.05);
          expect({ name, dark: colours.background < 0.05, light: colours.text > 0.6, aa: contrast >= 4.5 }).toEqual({
            name,
            dark: true,
            light: true,
            aa: true,
          });
        } finally {
          await page.close();
        }
      }
    }, 180_000);
  }
});
