import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, NARROW, signInAs, WIDE, waitForHeaderUser, web } from '../support/browser';
import type { DemoEmail } from '../support/stack';

/**
 * Layout shift (issue 36): a page that moves while it loads moves what a person is reading or about to press. The
 * browser measures it itself (the Layout Instability API, what Lighthouse's CLS sums): each `layout-shift` entry not
 * caused by input is the fraction of the viewport that moved times how far. This test opens the first pages a newcomer
 * meets, cold (a fresh context: no HTTP cache), at a phone's and a desktop's width, lets them load everything they
 * load, and holds the page's total shift under the 0.05. The total, not CLS's worst 5 s window: a shift late in
 * the load counts the same. A failure names what moved.
 */
const CLS_LIMIT = 0.05;

type Who = DemoEmail | 'guest';

const PAGES: readonly { name: string; who: Who; path: string }[] = [
  { name: 'guest dashboard', who: 'guest', path: '/dashboard' },
  { name: 'public device page', who: 'guest', path: '/dashboard/devices/demo-device-2' },
  { name: 'login', who: 'guest', path: '/login' },
  { name: 'signed-in device page', who: 'user@example.com', path: '/dashboard/devices/demo-device-1' },
  // Its device, organization and campaign cards grew above its map as their lists arrived (0.079 at 1280 px).
  { name: 'signed-in dashboard', who: 'user@example.com', path: '/dashboard' },
  // Drawn whole with its page's code (decision 100): nothing arrives later to push it.
  { name: 'API reference', who: 'guest', path: '/dashboard/api/reference' },
];

/** Collects every layout shift from the page's first paint, with the elements that moved (in the page, before load). */
const SHIFT_WATCH = `(() => {
  const shifts = (window.__layoutShifts = []);
  const name = (node) => {
    if (!(node instanceof Element)) return node ? node.nodeName : '?';
    const id = node.getAttribute('data-testid') || node.id;
    const heading = node.querySelector && node.querySelector('h2, h1');
    return node.tagName.toLowerCase() + (id ? '[' + id + ']' : '') + (node.className && typeof node.className === 'string' ? '.' + node.className.split(' ').join('.') : '') + (heading ? ' "' + heading.textContent.trim().slice(0, 30) + '"' : '');
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      shifts.push({
        value: entry.value,
        at: Math.round(entry.startTime),
        moved: (entry.sources || []).map((source) => name(source.node) + ' ' + Math.round(source.previousRect.y) + '→' + Math.round(source.currentRect.y)),
      });
    }
  }).observe({ type: 'layout-shift', buffered: true });
})()`;

interface Shift {
  value: number;
  at: number;
  moved: string[];
}

let browser: Browser;
/** The signed-in person's session, made once per width; each measured page gets a context of its own with it. */
const sessions = new Map<string, Promise<Awaited<ReturnType<BrowserContext['storageState']>>>>();

const sessionOf = (who: DemoEmail, viewport: { width: number; height: number }) => {
  const key = `${who} ${viewport.width}`;
  if (!sessions.has(key)) {
    sessions.set(
      key,
      (async () => {
        const context = await browser.newContext({ viewport });
        try {
          const page = await context.newPage();
          await signInAs(page, who, '/dashboard');
          await waitForHeaderUser(page, who);
          return await context.storageState();
        } finally {
          await context.close();
        }
      })(),
    );
  }
  return sessions.get(key)!;
};

/** Loads the page cold and waits for all it loads: requests done, nothing busy, the map drawn where there is one. */
const load = async (page: Page, target: string) => {
  await page.goto(web(target));
  await page.locator('h1').first().waitFor();
  await page.waitForLoadState('networkidle', { timeout: 20_000 }).catch(() => undefined);
  await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached', timeout: 15_000 });
  // The map draws in its own time (a worker tiles the base map): its canvas counts once it shows.
  const map = page.locator('[data-testid$="map-canvas"]');
  if (await map.count()) await map.first().scrollIntoViewIfNeeded();
  for (const canvas of await map.all()) {
    await canvas.and(page.locator('[data-drawn="true"]')).waitFor({ timeout: 20_000 });
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  // Late shifts (a panel's second read, a font) get a moment to be reported.
  await page.waitForTimeout(1_000);
};

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe.each([
  ['phone', NARROW],
  ['desktop', WIDE],
] as const)('end to end: layout shift on %s', (_label, viewport) => {
  it.each(PAGES)(
    `$name ($who) at ${viewport.width} px shifts less than ${CLS_LIMIT} while it loads`,
    async ({ name, who, path }) => {
      const storageState = who === 'guest' ? undefined : await sessionOf(who, viewport);
      const context = await browser.newContext({ viewport, storageState });
      try {
        const page = await context.newPage();
        await page.addInitScript({ content: SHIFT_WATCH });
        await load(page, path);
        const shifts = await page.evaluate(() => (window as unknown as { __layoutShifts: Shift[] }).__layoutShifts);
        const total = Math.round(shifts.reduce((sum, shift) => sum + shift.value, 0) * 1000) / 1000;
        const where = `${name} at ${viewport.width} px`;
        // What moved, and when, for whoever reads a failure (jest's diff shows only the lines that differ).
        if (total >= CLS_LIMIT) console.warn(`${where}: layout shift ${total}\n${JSON.stringify(shifts, null, 1)}`);
        expect({ where, total, under: total < CLS_LIMIT, shifts }).toEqual({
          where,
          total,
          under: true,
          shifts,
        });
      } finally {
        await context.close();
      }
    },
  );
});
