import type { Page, Request } from 'playwright-core';
import { pagePerTest, signInAs, waitForHeaderUser, web } from '../support/browser';

const testPage = pagePerTest();

/** Amplify Auth's own chunk (lib/amplify-auth.ts), hashed in the build or a module under the dev server. */
const AMPLIFY_AUTH = /\/amplify-auth[^/]*\.(js|ts)(\?|$)/;
const DEVICE_READ = /\/devices\/devices\/demo-device-1(\?|$)/;

const accessCookie = async (page: Page) =>
  (await page.context().cookies()).find((cookie) => cookie.name.endsWith('.accessToken'))!;

const payloadOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { exp: number; sub: string };

/** Every request the page makes from now on, in order. */
const recordRequests = (page: Page) => {
  const seen: Request[] = [];
  page.on('request', (request) => seen.push(request));
  return seen;
};

/**
 * A person's own device page, opened anew in the same browser: the stored tokens are all it starts with. The page
 * signed in on is left first, so its own reads (and refreshes) do not run beside the new page's.
 */
const reopenDevicePage = async (page: Page) => {
  await page.goto('about:blank');
  const again = await page.context().newPage();
  const requests = recordRequests(again);
  await again.goto(web('/dashboard/devices/demo-device-1'));
  await again.getByTestId('device-title').getByText('Rooftop station').waitFor();
  await waitForHeaderUser(again, 'user@example.com');
  return { again, requests };
};

describe('end to end: the stored tokens read without Amplify while they are fresh (decision 111)', () => {
  it("a returning person's device page asks the API with their stored token and is drawn without Amplify Auth", async () => {
    const page = testPage();
    await signInAs(page, 'user@example.com', '/dashboard');
    await waitForHeaderUser(page, 'user@example.com');
    const stored = (await accessCookie(page)).value;

    const { again, requests } = await reopenDevicePage(page);
    // The charts, drawn after the device: the page's first view is complete.
    await again.locator('[data-testid="sensor-chart"][data-painted]').first().waitFor();
    const read = requests.find((request) => DEVICE_READ.test(request.url()) && request.method() === 'GET')!;
    expect(read.headers().authorization).toBe(`Bearer ${decodeURIComponent(stored)}`);
    expect(requests.map((request) => request.url()).filter((url) => AMPLIFY_AUTH.test(url))).toEqual([]);
  });

  it('stored tokens past their expiry go to Amplify, which refreshes them; the page reads with the new token', async () => {
    const page = testPage();
    await signInAs(page, 'user@example.com', '/dashboard');
    await waitForHeaderUser(page, 'user@example.com');
    const cookie = await accessCookie(page);
    const token = decodeURIComponent(cookie.value);
    // The same claims, expired a minute ago: what a browser holds after an hour away (its signature is never checked
    // here, and Amplify only reads it to see that it has expired).
    const [header, , signature] = token.split('.');
    const claims = { ...payloadOf(token), exp: Math.floor(Date.now() / 1000) - 60 };
    const expired = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
    // Left before the cookie changes: its polls would find the expired token and refresh it themselves.
    await page.goto('about:blank');
    await page.context().addCookies([{ ...cookie, value: encodeURIComponent(expired) }]);

    const { again, requests } = await reopenDevicePage(page);
    expect(requests.some((request) => AMPLIFY_AUTH.test(request.url()))).toBe(true);
    const renewed = decodeURIComponent((await accessCookie(again)).value);
    expect(renewed).not.toBe(token);
    expect(payloadOf(renewed)).toMatchObject({ sub: claims.sub });
    expect(payloadOf(renewed).exp * 1000).toBeGreaterThan(Date.now() + 5 * 60_000);
    const read = requests.find((request) => DEVICE_READ.test(request.url()) && request.method() === 'GET')!;
    expect(read.headers().authorization).toBe(`Bearer ${renewed}`);
  });
});
