import { createReadingsStore } from '../../functions/_shared/sensor-data/readings-store';
import { pagePerTest, web } from '../support/browser';
import { freshUser } from '../support/people';
import { freshDevice, setTier } from '../support/sensor-data';
import { documentClient, stack } from '../support/stack';
import { signInPerson } from './people-fixtures';

const testPage = pagePerTest();
const MINUTE = 60_000;

describe('end to end: downloading a device’s data', () => {
  it('the owner starts a CSV download on the device page, sees it reach 100 %, and the file holds the readings', async () => {
    const person = await freshUser({ groups: ['Authenticated_users'], prefix: 'download' });
    const device = await freshDevice({ productLine: 'sd1', ownerToken: person.token });
    await setTier(device.id, 'tier1');
    const now = Math.floor(Date.now() / MINUTE) * MINUTE;
    // The last 20 hours, a reading every 2 minutes (inside the panel's default "last 24 h").
    const readings = Array.from({ length: 600 }, (_, i) => ({
      timestamp: now - (600 - i) * 2 * MINUTE,
      values: { pm10: i % 97, humidity: 40 + (i % 20) / 4 },
    }));
    await createReadingsStore({ db: documentClient(), tableName: stack().tables.readings! }).write(
      device.id,
      readings,
      now,
    );

    const page = testPage();
    await signInPerson(page, person, `/dashboard/devices/${device.id}`);
    await page.waitForURL(web(`/dashboard/devices/${device.id}`));
    await page.getByTestId('export-panel').waitFor();
    await page.getByTestId('export-range-24h').click();
    await page.getByTestId('export-format').selectOption('csv');
    await page.getByTestId('export-start').click();

    await page.getByTestId('export-progress-box').waitFor();
    const link = page.getByTestId('export-link');
    await link.waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('export-percent').textContent()).toBe('100 %');
    expect(await page.getByTestId('export-progress').getAttribute('value')).toBe('100');
    await page.getByTestId('export-status').getByText('Done: 600 rows').waitFor();
    // The link's long file name breaks inside the page: nothing widens it, on a phone either.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    const response = await fetch((await link.getAttribute('href'))!);
    expect(response.status).toBe(200);
    const [header, ...rows] = (await response.text()).trimEnd().split('\r\n');
    expect(header).toBe('timestamp,iso_time,pm10 (µg/m³),humidity (%)');
    expect(rows).toEqual(
      readings.map((r) =>
        [r.timestamp, new Date(r.timestamp).toISOString(), r.values.pm10, r.values.humidity].join(','),
      ),
    );

    // The download is listed among the person's recent ones.
    await page.getByTestId('export-recent').getByText('Done: 600 rows').waitFor();
  });

  it('a free AL60 device offers no Download: the panel says so in words and puts the tier that unlocks it in the cart', async () => {
    const person = await freshUser({ groups: ['Authenticated_users'], prefix: 'download-free' });
    const device = await freshDevice({ productLine: 'al60', ownerToken: person.token });
    await setTier(device.id, 'free');

    const page = testPage();
    await signInPerson(page, person, `/dashboard/devices/${device.id}`);
    await page.waitForURL(web(`/dashboard/devices/${device.id}`));
    await page
      .getByTestId('export-tier-lock')
      .getByText('Downloads are not included in the Free tier of AL60 devices; Tier 1 unlocks them', { exact: true })
      .waitFor();
    expect(await page.getByTestId('export-start').count()).toBe(0);
    expect(await page.getByTestId('export-panel').textContent()).not.toMatch(/al60|\bfree\b/);

    // One click from the lock to the tier in the cart.
    await page.getByTestId('export-panel').getByRole('button', { name: 'Add Tier 1 to cart' }).click();
    await page.getByTestId('export-lock-add-added').getByText('In cart').waitFor();
  });
});
