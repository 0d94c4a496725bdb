import type { Worker } from 'playwright-core';
import { pagePerTest, signOutInHeader, web } from '../support/browser';
import { freshUser } from '../support/people';
import { connectDevice, freshDevice } from '../support/sensor-data';
import { signInPerson } from './people-fixtures';

const testPage = pagePerTest();

describe('end to end: the live view', () => {
  it('shows a reading a device publishes over MQTT on the open device page within seconds', async () => {
    const person = await freshUser({ groups: ['Authenticated_users'], prefix: 'live' });
    const device = await freshDevice({ productLine: 'sd1', ownerToken: person.token });

    const page = testPage();
    await signInPerson(page, person, `/dashboard/devices/${device.id}`);
    await page.waitForURL(web(`/dashboard/devices/${device.id}`));
    const status = page.getByTestId('live-status');
    await page.locator('[data-testid="live-status"][data-state="live"]').waitFor({ timeout: 20_000 });
    expect(await status.textContent()).toBe('Live');

    // The device, with its own credential, publishes to its readings topic as real hardware would.
    const sender = await connectDevice(device);
    try {
      const timestamp = Date.now() - 1_000;
      await sender.publishAsync(
        `devices/${device.id}/readings`,
        JSON.stringify({ readings: [{ timestamp, values: { pm2_5: 17.4, temperature: 22.5 } }] }),
      );
      const pm = page.getByTestId('live-value-pm2_5');
      await pm.waitFor({ timeout: 5_000 });
      expect(await pm.textContent()).toBe('17.4 µg/m³');
      expect(await page.getByTestId('live-value-temperature').textContent()).toBe('22.5 °C');
      expect(await page.getByTestId('live-last-reading').getAttribute('datetime')).toBe(
        new Date(timestamp).toISOString(),
      );
    } finally {
      await sender.endAsync();
    }

    // Signing out stops the watch as the person (204), not as the guest the page has become (401).
    const stopped = page.waitForResponse(
      (r) => r.url().includes(`/live-watches/${device.id}`) && r.request().method() === 'DELETE',
    );
    await signOutInHeader(page);
    expect((await stopped).status()).toBe(204);
    await page.getByRole('link', { name: 'Sign in' }).first().waitFor();
  });

  it('runs MQTT.js in a Web Worker started once the watch is granted, never on the page, and a reading still shows live', async () => {
    // Decision 104: the realtime client (MQTT.js) is the page's heaviest script; the page is drawn without it.
    // Decision 107: it runs in a worker of its own, so evaluating it, connecting and decoding never hold the page.
    const person = await freshUser({ groups: ['Authenticated_users'], prefix: 'live-late' });
    const device = await freshDevice({ productLine: 'sd1', ownerToken: person.token });

    const page = testPage();
    const seen: string[] = [];
    const workers: Worker[] = [];
    page.on('worker', (worker) => {
      // The production build's worker file, or the module itself under the dev server (TEST_WEB=dev).
      if (!/\/assets\/realtime-worker-[^/]+\.js$|\/src\/lib\/realtime-worker\.ts(\?|$)/.test(worker.url())) return;
      seen.push('realtime worker started');
      workers.push(worker);
    });
    page.on('response', (response) => {
      const request = response.request();
      if (request.method() === 'PUT' && request.url().includes(`/live-watches/${device.id}`))
        seen.push('watch granted');
    });
    // Every script the page's main thread parses (a worker's scripts are parsed in the worker, another target).
    const parsed: { id: string; url: string }[] = [];
    const cdp = await page.context().newCDPSession(page);
    cdp.on('Debugger.scriptParsed', ({ scriptId, url }) => parsed.push({ id: scriptId, url }));
    await cdp.send('Debugger.enable');
    await signInPerson(page, person, `/dashboard/devices/${device.id}`);
    await page.waitForURL(web(`/dashboard/devices/${device.id}`));
    await page.locator('[data-testid="live-status"][data-state="live"]').waitFor({ timeout: 20_000 });
    // The grant comes first; React's StrictMode (TEST_WEB=dev) asks for the watch twice, the build once.
    expect({ first: seen[0], worker: seen.includes('realtime worker started') }).toEqual({
      first: 'watch granted',
      worker: true,
    });
    // MQTT.js (its default client id's prefix, 'mqttjs_', is in its code) is in none of the scripts the page parsed,
    // lib/realtime.ts among them, and in the worker's: its file, and under the dev server the modules it imports.
    const onPage: string[] = [];
    for (const { id, url } of parsed) {
      const { scriptSource } = await cdp.send('Debugger.getScriptSource', { scriptId: id });
      if (scriptSource.includes('mqttjs_')) onPage.push(url);
    }
    const text = async (url: string) => (await page.request.get(url)).text();
    const workerFile = await text(workers[0]!.url());
    const workerImports = [...workerFile.matchAll(/\bfrom\s*["'](\/[^"']+)["']/g)].map((match) => web(match[1]));
    const inWorker = [workerFile, ...(await Promise.all(workerImports.map(text)))].some((code) =>
      code.includes('mqttjs_'),
    );
    expect({
      realtimeOnPage: parsed.some(({ url }) =>
        /\/assets\/realtime-[^/]+\.js$|\/src\/lib\/realtime\.ts(\?|$)/.test(url),
      ),
      onPage,
      inWorker,
    }).toEqual({ realtimeOnPage: true, onPage: [], inWorker: true });
    // The panels under the first view (drawn at the first idle moment) are there too.
    await page.getByRole('heading', { name: 'Relations' }).waitFor();

    const sender = await connectDevice(device);
    try {
      await sender.publishAsync(
        `devices/${device.id}/readings`,
        JSON.stringify({ readings: [{ timestamp: Date.now() - 1_000, values: { pm2_5: 23.5 } }] }),
      );
      await page.getByTestId('live-value-pm2_5').waitFor({ timeout: 5_000 });
      expect(await page.getByTestId('live-value-pm2_5').textContent()).toBe('23.5 µg/m³');
    } finally {
      await sender.endAsync();
    }
  });
});
