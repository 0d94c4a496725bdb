import type { Page, Response } from 'playwright-core';
import { contextOptions, expectTabTitle, launchBrowser, pagePerTest, WIDE, web } from '../support/browser';

const testPage = pagePerTest();

/** Every answer the page receives from here on (the app's own files, the API, Cognito), by status. */
const recordResponses = (page: Page) => {
  const seen: { status: number; url: string }[] = [];
  page.on('response', (response: Response) => {
    seen.push({ status: response.status(), url: `${response.request().method()} ${response.url()}` });
  });
  return seen;
};

/** Waits until the page stands still: requests done, nothing marked busy. */
const settle = async (page: Page) => {
  await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
  await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached', timeout: 15_000 });
};

/**
 * Sums the page's layout shifts the way Lighthouse's CLS counts them (shifts within 500 ms of input left out),
 * from the first paint on: the observer is installed before any of the page's scripts run.
 */
const LAYOUT_SHIFT_OBSERVER = `
  window.__layoutShift = { total: 0, sources: [] };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      window.__layoutShift.total += entry.value;
      for (const source of entry.sources ?? []) {
        const node = source.node;
        const name = node && node.nodeType === 1
          ? node.tagName.toLowerCase() + (node.className ? '.' + String(node.className).split(' ').join('.') : '')
          : String(node && node.nodeName);
        window.__layoutShift.sources.push(name + ' ' + entry.value.toFixed(4));
      }
    }
  }).observe({ type: 'layout-shift', buffered: true });
`;

describe('end to end: what a guest meets', () => {
  // At the suite's width: 1280 px, and 375 px in the phone pass (E2E_WIDTH=375), so both widths are checked.
  const viewport = contextOptions().viewport ?? WIDE;

  it('a guest on the dashboard, the public datasets and the public lake buoy meets no 401/403, and sees what signing in unlocks', async () => {
    const page = testPage();
    const responses = recordResponses(page);

    await page.goto(web('/dashboard'));
    await page.getByTestId('dashboard-guest').waitFor();
    await settle(page);

    await page.goto(web('/dashboard/datasets'));
    await page.locator('h1').first().waitFor();
    await settle(page);

    await page.goto(web('/dashboard/devices/demo-device-2'));
    await page.getByTestId('device-title').getByText('Lake buoy').waitFor();
    await page.getByTestId('export-panel').waitFor();
    await settle(page);

    // The panels a guest cannot use say what signing in unlocks, with a link back here after sign-in.
    const downloads = page.getByTestId('export-panel').getByTestId('sign-in-prompt');
    expect(await downloads.textContent()).toContain('Sign in to see your recent downloads');
    const relations = page.getByTestId('device-guest-unlocks').getByTestId('sign-in-prompt');
    expect(await relations.textContent()).toContain("Sign in to see this device's readings live");
    expect(await page.getByTestId('export-recent-error').count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);
    const link = page.getByTestId('export-panel').getByTestId('sign-in-prompt-link');
    expect(await link.getAttribute('href')).toContain(encodeURIComponent('/dashboard/devices/demo-device-2'));

    // A guest may start a download of a public device (the route is open to guests): still no 401/403.
    await page.getByTestId('export-start').click();
    await page.getByTestId('export-progress-box').waitFor();
    await settle(page);

    const refused = responses.filter((r) => r.status === 401 || r.status === 403);
    expect(refused).toEqual([]);
    expect(responses.some((r) => r.url.includes('/devices/demo-device-2'))).toBe(true);

    // A private device answers a guest 401 (only the server knows it is private): the page offers to sign in.
    await page.goto(web('/dashboard/devices/demo-device-1'));
    const prompt = page.getByTestId('sign-in-prompt');
    expect(await prompt.textContent()).toContain('Sign in to see this device if it is shared with you');
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it("names each page in the browser tab after its heading, and shows the app's icon there", async () => {
    const page = testPage();
    await page.goto(web('/dashboard/devices/demo-device-2'));
    await page.getByTestId('device-title').getByText('Lake buoy').waitFor();
    // The device's name once it is read, without the status badge beside it in the heading.
    await expectTabTitle(page, 'Lake buoy · Device Data Platform');

    await page.goto(web('/dashboard/datasets'));
    await expectTabTitle(page, 'Datasets · Device Data Platform');
    await page.goto(web('/dashboard/no-such-page'));
    await expectTabTitle(page, 'Page not found · Device Data Platform');
    await page.goto(web('/login'));
    await page.getByTestId('login-email').waitFor();
    await expectTabTitle(page, 'Sign in · Device Data Platform');

    // The icon the tab shows, drawn as the browser draws it: the accent square with a white trace across it.
    const drawn = await page.evaluate(async () => {
      const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
      if (!link) return { href: null, accent: 0, white: 0 };
      const image = new Image();
      image.src = link.href;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = 32;
      canvas.height = 32;
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0, 32, 32);
      const { data } = context.getImageData(0, 0, 32, 32);
      let accent = 0;
      let white = 0;
      for (let i = 0; i < data.length; i += 4) {
        const [r, g, b, a] = [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
        if (a > 200 && Math.abs(r - 0x1f) < 12 && Math.abs(g - 0x5f) < 12 && Math.abs(b - 0xbf) < 12) accent++;
        if (a > 200 && r > 240 && g > 240 && b > 240) white++;
      }
      return { href: new URL(link.href).pathname, accent, white };
    });
    expect(drawn.href).toBe('/favicon.svg');
    // Of 1,024 pixels: most the square's, and a line's worth white.
    expect(drawn.accent).toBeGreaterThan(600);
    expect(drawn.white).toBeGreaterThan(40);
  });

  it("paints a dark-mode visitor's page dark before the app's styles arrive, and a light one's light", async () => {
    const page = testPage();
    /** The page's background as the browser paints it with the HTML alone (no style sheet, no script yet). */
    const firstPaint = async (colorScheme: 'light' | 'dark') => {
      const context = await page.context().browser()!.newContext({ colorScheme, viewport });
      try {
        const bare = await context.newPage();
        await bare.route('**/*', (route) =>
          route.request().resourceType() === 'document' ? route.continue() : route.abort(),
        );
        await bare.goto(web('/dashboard'));
        return await bare.evaluate(() => {
          const probe = document.createElement('div');
          probe.style.background = 'Canvas';
          document.body.append(probe);
          return getComputedStyle(probe).backgroundColor;
        });
      } finally {
        await context.close();
      }
    };
    // Chromium's canvas colours: a dark-mode visitor is not shown a white page while the styles load.
    expect(await firstPaint('dark')).toBe('rgb(18, 18, 18)');
    expect(await firstPaint('light')).toBe('rgb(255, 255, 255)');
  });

  it('draws the loading page with the HTML alone, before any style sheet or script has arrived', async () => {
    const context = await testPage().context().browser()!.newContext({ viewport });
    try {
      const page = await context.newPage();
      // Nothing but the HTML comes: what shows is what it draws by itself (its styles are written into it).
      const fetched: string[] = [];
      await page.route('**/*', (route) => {
        const type = route.request().resourceType();
        if (type === 'document') return route.continue();
        fetched.push(type);
        return route.abort();
      });
      await page.goto(web('/dashboard/devices/demo-device-2'));
      const status = page.getByRole('status');
      // biome-ignore lint/performance/useDomNodeTextContent: the text as drawn
      expect({ body: (await page.locator('body').innerText()).trim(), status: await status.textContent() }).toEqual({
        body: 'Loading…',
        status: 'Loading…',
      });
      // Styled as the app's own loading page: centred, in the muted colour and the app's font, not the browser's
      // default; and the browser asked for no style sheet to draw it.
      const look = await status.evaluate((element) => {
        const probe = document.createElement('span');
        probe.style.color = 'var(--color-muted)';
        document.body.append(probe);
        const style = getComputedStyle(element);
        return {
          align: style.textAlign,
          colour: style.color === getComputedStyle(probe).color,
          font: style.fontFamily.includes('system-ui'),
        };
      });
      expect(look).toEqual({ align: 'center', colour: true, font: true });
      expect(fetched).not.toContain('stylesheet');
    } finally {
      await context.close();
    }
  });

  it("fetches none of the styles the HTML holds when a page's own chunks ask for them, and they apply to what it draws", async () => {
    const page = testPage();
    const stylesheets: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'stylesheet') stylesheets.push(new URL(request.url()).pathname);
    });
    await page.goto(web('/dashboard/devices/demo-device-2'));
    await page.getByTestId('device-title').getByText('Lake buoy').waitFor();
    await settle(page);
    const held = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"][disabled]')].map((link) => {
        const rules =
          link.nextElementSibling instanceof HTMLStyleElement
            ? [...(link.nextElementSibling.sheet?.cssRules ?? [])]
            : [];
        const drawn = rules.filter((rule) => {
          if (!(rule instanceof CSSStyleRule)) return false;
          try {
            return document.querySelector(rule.selectorText) !== null;
          } catch {
            return false;
          }
        });
        return { path: new URL(link.href).pathname, rules: rules.length, drawn: drawn.length };
      }),
    );
    // The entry's style sheets (the app's and the components' its pages share), each written into the HTML.
    expect(held.length).toBe(2);
    for (const sheet of held) {
      expect(sheet.rules).toBeGreaterThan(20);
      expect(sheet.drawn).toBeGreaterThan(0);
    }
    // The device page's chunks list the shared components' sheet among what they need: it was not fetched again.
    expect(stylesheets.filter((path) => held.some((sheet) => sheet.path === path))).toEqual([]);
    expect(stylesheets.length).toBeGreaterThan(0);
  });

  it('tells a visitor whose browser runs no JavaScript what to do, instead of a blank page', async () => {
    const context = await testPage().context().browser()!.newContext({ javaScriptEnabled: false, viewport });
    try {
      const page = await context.newPage();
      await page.goto(web('/dashboard'));
      // biome-ignore lint/performance/useDomNodeTextContent: what the page draws, which a <noscript>'s text is only without scripts
      expect((await page.locator('body').innerText()).trim()).toBe(
        'Device Data Platform needs JavaScript: switch it on for this site in your browser, then reload the page.',
      );
    } finally {
      await context.close();
    }
  });

  it('tells crawlers what they may index: public pages yes, the admin area and personal pages no', async () => {
    const answer = await fetch(web('/robots.txt'));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
    const rules = (await answer.text()).split('\n').filter((line) => line && !line.startsWith('#'));
    expect(rules[0]).toBe('User-agent: *');
    for (const path of ['/admin', '/login', '/invites/', '/unsubscribe', '/dashboard/cart']) {
      expect(rules).toContain(`Disallow: ${path}`);
    }
    // A public device's page and the public datasets stay open to search engines: no rule's path starts theirs.
    const closed = rules.filter((rule) => rule.startsWith('Disallow: ')).map((rule) => rule.slice('Disallow: '.length));
    for (const open of ['/dashboard/devices/demo-device-2', '/dashboard/datasets', '/dashboard/datasets/ds_1']) {
      expect({ open, closedBy: closed.filter((path) => open.startsWith(path)) }).toEqual({ open, closedBy: [] });
    }
  });

  it(`the login page shows its heading and why it was opened before the sign-in form's code arrives, and the form then takes the room kept for it, moving nothing, at ${viewport.width} px`, async () => {
    const page = testPage();
    await page.addInitScript(LAYOUT_SHIFT_OBSERVER);
    // The forms' chunk (the Authenticator), as its own module under the dev server or a hashed file in the build.
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let requested!: () => void;
    const held = new Promise<void>((resolve) => {
      requested = resolve;
    });
    await page.route(/\/login-form[^/]*\.(js|tsx)(\?|$)/, async (route) => {
      requested();
      const response = await route.fetch();
      await released;
      await route.fulfill({ response });
    });
    await page.goto(web('/login?reason=session-expired'));

    const heading = page.getByRole('heading', { level: 1, name: 'Device Data Platform' });
    const reason = page.getByTestId('login-reason');
    await heading.waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="login-form-loading"]') !== null);
    // The fallback is drawn when the chunk's import starts; the route sees its request a moment later, under load
    // after the fallback. Never seeing it fails the test by its timeout: then the form came without its own chunk.
    await held;
    expect(await reason.textContent()).toBe('Your session expired. Please sign in again.');
    expect(await page.getByTestId('login-email').count()).toBe(0);
    await expectTabTitle(page, 'Sign in · Device Data Platform');
    const before = { heading: await heading.boundingBox(), reason: await reason.boundingBox() };
    const room = await page.getByTestId('login-form-loading').boundingBox();
    // The sign-in form's height is kept for it (app.css), and it is in the window a phone shows first.
    expect(room!.height).toBeGreaterThan(300);
    expect(room!.y).toBeLessThan(viewport.height);

    release();
    await page.getByTestId('login-email').waitFor();
    await page.getByTestId('login-browse-as-guest').waitFor();
    expect({ heading: await heading.boundingBox(), reason: await reason.boundingBox() }).toEqual(before);
    const shift = (await page.evaluate('window.__layoutShift')) as { total: number; sources: string[] };
    expect(shift).toEqual({ total: 0, sources: [] });
  });

  it(`the login page does not shift its layout as it loads (CLS below 0.05) at ${viewport.width} px`, async () => {
    // A browser of its own, so no chunk cached by the other test makes the load look steadier than a first visit.
    const browser = await launchBrowser();
    try {
      const page = await (await browser.newContext({ viewport })).newPage();
      await page.addInitScript(LAYOUT_SHIFT_OBSERVER);
      await page.goto(web('/login'));
      await page.getByTestId('login-email').waitFor();
      await page.getByTestId('login-browse-as-guest').waitFor();
      await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
      // Shifts are reported after the frame that made them.
      await page.waitForTimeout(500);
      const shift = (await page.evaluate('window.__layoutShift')) as { total: number; sources: string[] };
      expect({ viewport, ...shift, below: shift.total < 0.05 }).toEqual({ viewport, ...shift, below: true });
    } finally {
      await browser.close();
    }
  });
});
