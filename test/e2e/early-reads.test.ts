import type { Page, Request } from 'playwright-core';
import { pagePerTest, signInAs, waitForHeaderUser, web } from '../support/browser';

const testPage = pagePerTest();

/** The app's entry: the production build's chunk, or the dev server's module. */
const APP_ENTRY = /\/assets\/index-[^/]+\.js$|\/src\/main\.tsx$/;
const RUNTIME_CONFIG = /\/runtime-config\.json$/;
const DEVICE_READ = /\/devices\/devices\/demo-device-1$/;
const PUBLIC_DEVICE_READ = /\/devices\/devices\/demo-device-2$/;
const BAR_READ = /\/notifications\/notificationsByUserId\/[^/]+\/50\?state=active$/;
const RECORD_READ = /\/users\/user-ddb\/[^/?]+$/;

const gets = (requests: Request[], url: RegExp) =>
  requests.filter((request) => request.method() === 'GET' && url.test(request.url()));

/**
 * A new page of the same browser whose app entry is held until `release`: what it asks for meanwhile is what the HTML's
 * own scripts ask for, before the app's code has run.
 */
const pageWithEntryHeld = async (page: Page) => {
  await page.goto('about:blank');
  const held = await page.context().newPage();
  const requests: Request[] = [];
  held.on('request', (request) => requests.push(request));
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let entryServed = false;
  await held.route(APP_ENTRY, async (route) => {
    await released;
    entryServed = true;
    await route.continue();
  });
  return { held, requests, release, entryServed: () => entryServed };
};

describe('end to end: the early reads (decision 113)', () => {
  it("a returning person's device page asks for its device, banners and record before the app's code has run, and the app takes those answers instead of asking again", async () => {
    const page = testPage();
    await signInAs(page, 'user@example.com', '/dashboard');
    await waitForHeaderUser(page, 'user@example.com');
    const { held, requests, release, entryServed } = await pageWithEntryHeld(page);

    const asked = Promise.all([DEVICE_READ, BAR_READ, RECORD_READ].map((url) => held.waitForRequest(url)));
    await held.goto(web('/dashboard/devices/demo-device-1'), { waitUntil: 'commit' });
    const [deviceRead] = await asked;
    expect(entryServed()).toBe(false);
    expect(deviceRead!.headers().authorization).toMatch(/^Bearer ey/);

    release();
    await held.getByTestId('device-title').getByText('Rooftop station').waitFor();
    await waitForHeaderUser(held, 'user@example.com');
    // Each asked for once: the app took the early answers. The configuration too, though the HTML preloads it.
    expect(gets(requests, DEVICE_READ)).toHaveLength(1);
    expect(gets(requests, BAR_READ)).toHaveLength(1);
    expect(gets(requests, RECORD_READ)).toHaveLength(1);
    expect(gets(requests, RUNTIME_CONFIG)).toHaveLength(1);
  });

  it('a guest, holding no tokens, has nothing asked of the API early, and the public device page is drawn as before', async () => {
    const { held, requests, release } = await pageWithEntryHeld(testPage());
    const configAnswered = held.waitForResponse(RUNTIME_CONFIG);
    await held.goto(web('/dashboard/devices/demo-device-2'), { waitUntil: 'commit' });
    await configAnswered;
    // The early script asks for its reads as soon as the configuration has answered: a moment for them to show.
    await held.waitForTimeout(300);
    // Nothing asked of the API (another origin than the app's).
    expect(requests.map((request) => request.url()).filter((url) => !url.startsWith(web()))).toEqual([]);
    release();
    await held.getByTestId('device-title').getByText('Lake buoy').waitFor();
    const deviceReads = gets(requests, PUBLIC_DEVICE_READ);
    expect(deviceReads).toHaveLength(1);
    expect(deviceReads[0]!.headers().authorization).toBeUndefined();
    expect(gets(requests, RUNTIME_CONFIG)).toHaveLength(1);
  });
});
