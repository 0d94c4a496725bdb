import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator } from 'playwright-core';
import { consoleWarningsOf, keepScreenshot, NARROW, onScreen, pagePerTest, WIDE, web } from '../support/browser';
import { freshUser } from '../support/people';
import { apiAs } from '../support/stack';
import { signInPerson } from './people-fixtures';

const testPage = pagePerTest();
const ARTIFACTS = path.resolve(import.meta.dirname, 'artifacts');

/** Waits until the element lies wholly in the window: the browser may scroll to a followed link's target smoothly. */
const scrolledTo = async (element: Locator) => {
  const handle = await element.elementHandle();
  await element.page().waitForFunction(
    (target) => {
      const box = target!.getBoundingClientRect();
      return box.top >= 0 && box.left >= 0 && box.bottom <= window.innerHeight && box.right <= window.innerWidth;
    },
    handle,
    { timeout: 5_000 },
  );
};

describe('end to end: the API reference', () => {
  it('opens from the API page of a key holder and shows the routes, how to authenticate, the events and a curl example', async () => {
    const person = await freshUser({ groups: ['Authenticated_users'], prefix: 'api-reference' });
    await apiAs('sensor-data', person.token).createApiKey({ body: { name: 'reference reader' } });

    const page = testPage();
    await signInPerson(page, person, '/dashboard/api');
    await page.waitForURL(web('/dashboard/api'));
    await page.getByTestId('api-reference-link').click();
    await page.waitForURL(web('/dashboard/api/reference'));

    // The SensorThings roots (issue 41): the key's, and the guests' one for public devices.
    expect(await page.getByTestId('api-reference-sta').textContent()).toMatch(
      /OGC SensorThings API 1\.1.*http:.+\/sensor-data\/v1\/sta\/v1\.1 with a key, and http:.+\/sensor-data\/sta\/v1\.1 for public devices/,
    );
    const doc = page.getByTestId('api-reference-doc');
    // Each route a heading of its method and path, under its group, with who may call it.
    const readings = page.getByRole('heading', { name: 'GET /v1/devices/{id}/readings', level: 3 });
    await readings.waitFor();
    expect(await readings.isVisible()).toBe(true);
    expect(await page.getByRole('heading', { name: 'Public API (API key)', level: 2 }).isVisible()).toBe(true);
    const operations = doc.getByTestId('api-reference-operation');
    expect(await operations.locator('h3').allTextContents()).toEqual([
      'GET /v1/devices/{id}/readings',
      'GET /v1/devices/{id}/series',
      'GET /v1/sta/v1.1',
      'GET /v1/sta/v1.1/{path}',
    ]);
    const readingsSection = operations.filter({ has: readings });
    expect(await readingsSection.textContent()).toContain('Who may call it: An API key (x-api-key header)');
    // A parameter with its bounds, and a field of the answer's nested objects, as a person reads them.
    const field = (name: string) => readingsSection.locator(`xpath=.//li[code[@class="field-name" and .="${name}"]]`);
    // The parameter (the answer has a limit field too).
    expect(await field('limit').first().innerText()).toMatch(
      /^limit in the query · integer · ≥ 1 · ≤ 500 · default 50/,
    );
    const timestamp = field('timestamp');
    expect(await timestamp.isVisible()).toBe(true);
    expect(await timestamp.innerText()).toMatch(/^timestamp integer · ≥ 0 · required/);
    // Only the public API: no app route is described.
    expect(await doc.getByText('/api-keys').count()).toBe(0);
    // How to authenticate, from the document's description and its security scheme.
    expect(await doc.getByRole('heading', { name: 'Authentication', level: 2 }).isVisible()).toBe(true);
    expect(await doc.getByText('x-api-key: ak_{keyId}.{secret}').count()).toBeGreaterThan(0);
    expect(await doc.getByText('x-ratelimit-remaining').count()).toBeGreaterThan(0);
    // A copyable example per route, against this stack's sensor-data API.
    const samples = operations.getByTestId('api-reference-sample');
    const texts = await samples.allTextContents();
    expect(texts).toHaveLength(4);
    expect(texts.every((text) => text.includes("-H 'x-api-key: ak_…'"))).toBe(true);
    expect(
      texts.filter((text) => /curl '.*\/sensor-data\/v1\/devices\/\{id\}\/(readings|series)\?from=/.test(text)),
    ).toHaveLength(2);
    expect(texts.filter((text) => /curl '.*\/sensor-data\/v1\/sta\/v1\.1/.test(text))).toHaveLength(2);
    expect(await operations.getByRole('button', { name: 'Copy' }).count()).toBe(4);
    // The webhook events (issue 38) with their payloads, and the error shape the refusals name.
    const fired = doc.getByTestId('api-reference-event').filter({
      has: page.getByRole('heading', { name: 'POST alert.fired' }),
    });
    expect(await fired.innerText()).toMatch(/webhook-signature header · string · required/);
    expect(
      await fired
        .locator('li')
        .filter({ hasText: /^ruleName string · required/ })
        .count(),
    ).toBe(1);
    expect(await readingsSection.innerText()).toMatch(/400 Invalid input; issues names each bad field \(ErrorBody\)/);
    await readingsSection.getByRole('link', { name: 'ErrorBody' }).first().click();
    await page.waitForURL(web('/dashboard/api/reference#schema-ErrorBody'));
    await page.waitForFunction(() => document.activeElement?.id === 'schema-ErrorBody', undefined, { timeout: 5_000 });
    const errorBody = page.getByRole('heading', { name: 'ErrorBody', level: 3, exact: true });
    await scrolledTo(errorBody);

    mkdirSync(ARTIFACTS, { recursive: true });
    for (const viewport of [WIDE, NARROW]) {
      await page.setViewportSize(viewport);
      await page.evaluate(() => window.scrollTo(0, 0));
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await keepScreenshot(page, path.join(ARTIFACTS, `api-reference-${viewport.width}.png`));
      await readings.scrollIntoViewIfNeeded();
      await keepScreenshot(page, path.join(ARTIFACTS, `api-reference-${viewport.width}-readings.png`));
    }
    // Neither page suspended on a promise its render made anew (React says so in its development build, TEST_WEB=dev):
    // each render would read the document again.
    expect(
      consoleWarningsOf(page).filter((text) => /uncached promise|suspended by|did not call use\(\)/i.test(text)),
    ).toEqual([]);
  });

  it('opens a link to one route at that route, focused, and its contents lead to another', async () => {
    const page = testPage();
    await page.setViewportSize(NARROW);
    await page.goto(web('/dashboard/api/reference#op-apiSeries'));
    const series = page.getByRole('heading', { name: 'GET /v1/devices/{id}/series', level: 3 });
    await series.waitFor();
    await page.waitForFunction(() => document.activeElement?.id === 'op-apiSeries', undefined, { timeout: 5_000 });
    expect(await onScreen(series)).toBe(true);
    // The route before it is above the window: the page did scroll to the one linked.
    expect(await onScreen(page.getByRole('heading', { name: 'Public API (API key)', level: 2 }))).toBe(false);

    // From the contents, by keyboard, to a webhook event.
    const contents = page.getByRole('navigation', { name: 'Contents' });
    await contents.getByRole('link', { name: 'export.ready' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(web('/dashboard/api/reference#event-export-ready'));
    await page.waitForFunction(() => document.activeElement?.id === 'event-export-ready', undefined, {
      timeout: 5_000,
    });
    await scrolledTo(page.getByRole('heading', { name: 'POST export.ready', level: 3 }));
    expect(await page.evaluate(() => document.querySelector(':target')?.id)).toBe('event-export-ready');
  });
});
