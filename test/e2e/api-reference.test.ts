import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { NARROW, pagePerTest, WIDE, web } from '../support/browser';
import { freshUser } from '../support/people';
import { apiAs } from '../support/stack';
import { signInPerson } from './people-fixtures';

const testPage = pagePerTest();
const ARTIFACTS = path.resolve(import.meta.dirname, 'artifacts');

describe('end to end: the API reference', () => {
  it('opens from the API page of a key holder and shows the routes, how to authenticate and a curl example', async () => {
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
    // RapiDoc draws in its shadow root; Playwright's locators reach into it.
    const doc = page.getByTestId('api-reference-doc');
    await doc.getByText('/v1/devices/{id}/readings').first().waitFor();
    expect(await doc.getByText('/v1/devices/{id}/series').count()).toBeGreaterThan(0);
    // Only the public API: no app route is described.
    expect(await doc.getByText('/api-keys').count()).toBe(0);
    // How to authenticate, from the document's description and its security scheme.
    await doc.getByRole('heading', { name: 'Authentication' }).first().waitFor();
    expect(await doc.getByText('x-api-key: ak_{keyId}.{secret}').count()).toBeGreaterThan(0);
    expect(await doc.getByText('x-ratelimit-remaining').count()).toBeGreaterThan(0);
    // A copyable example per route, against this stack's sensor-data API.
    const samples = doc.locator('.tab-content code');
    await samples.first().waitFor();
    // Four routes: readings, series, and the SensorThings root and resources (issue 41).
    expect(await samples.count()).toBe(4);
    const texts = await samples.allTextContents();
    expect(texts.every((text) => text.includes("-H 'x-api-key: ak_…'"))).toBe(true);
    expect(
      texts.filter((text) => /curl '.*\/sensor-data\/v1\/devices\/\{id\}\/(readings|series)\?from=/.test(text)),
    ).toHaveLength(2);
    expect(texts.filter((text) => /curl '.*\/sensor-data\/v1\/sta\/v1\.1/.test(text))).toHaveLength(2);
    expect(await doc.getByRole('button', { name: 'Copy' }).count()).toBeGreaterThanOrEqual(4);

    mkdirSync(ARTIFACTS, { recursive: true });
    for (const viewport of [WIDE, NARROW]) {
      await page.setViewportSize(viewport);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: path.join(ARTIFACTS, `api-reference-${viewport.width}.png`) });
    }
  });
});
