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

  it('loads MQTT.js only once the watch is granted, and a reading still shows live', async () => {
    // Decision 104: the realtime client (MQTT.js) is the page's heaviest script; the page is drawn without it.
    const person = await freshUser({ groups: ['Authenticated_users'], prefix: 'live-late' });
    const device = await freshDevice({ productLine: 'sd1', ownerToken: person.token });

    const page = testPage();
    const seen: string[] = [];
    page.on('request', (request) => {
      // The production build's chunk, or the module itself under the dev server (TEST_WEB=dev).
      if (/\/assets\/realtime-[^/]+\.js$|\/src\/lib\/realtime\.ts(\?|$)/.test(request.url()))
        seen.push('MQTT.js requested');
    });
    page.on('response', (response) => {
      const request = response.request();
      if (request.method() === 'PUT' && request.url().includes(`/live-watches/${device.id}`))
        seen.push('watch granted');
    });
    await signInPerson(page, person, `/dashboard/devices/${device.id}`);
    await page.waitForURL(web(`/dashboard/devices/${device.id}`));
    await page.locator('[data-testid="live-status"][data-state="live"]').waitFor({ timeout: 20_000 });
    // The grant comes first; React's StrictMode (TEST_WEB=dev) asks for the watch twice, the build once.
    expect({ first: seen[0], loaded: seen.includes('MQTT.js requested') }).toEqual({
      first: 'watch granted',
      loaded: true,
    });
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
