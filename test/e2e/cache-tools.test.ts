import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { dateOf, fileLabel } from '../../frontend/src/features/system/cache-rules';
import { createReadingsStore } from '../../functions/_shared/sensor-data/readings-store';
import { periodOf } from '../../shared/sensor-data/chart-files';
import { expectTabTitle, keepScreenshot, NARROW, pagePerTest, signInAs, WIDE, web } from '../support/browser';
import { freshDevice } from '../support/sensor-data';
import { documentClient, stack } from '../support/stack';

const ARTIFACTS = path.resolve(import.meta.dirname, 'artifacts');
const HOUR = 60 * 60_000;
const testPage = pagePerTest();

describe('end to end: the cache and look-up pages', () => {
  let deviceId: string;
  /** Readings written past ingest three days ago, at 20 past an hour: a data repair no chart shows yet. */
  let hour: number;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    deviceId = (await freshDevice({ visibility: 'public' })).id;
    hour = Math.floor((Date.now() - 3 * 24 * HOUR) / HOUR) * HOUR;
    await createReadingsStore({ db: documentClient(), tableName: stack().tables.readings! }).write(
      deviceId,
      [0, 1, 2].map((i) => ({ timestamp: hour + 20 * 60_000 + i * 10 * 60_000, values: { pm2_5: 9 } })),
      Date.now(),
    );
  });

  it('an administrator rebuilds a device’s files from the overview, watches them arrive, then evicts one', async () => {
    const page = testPage();
    await page.setViewportSize(WIDE);
    await signInAs(page, 'admin@example.com', '/admin');
    await page.getByTestId('admin-cache-link').click();
    await page.waitForURL(web('/admin/cache'));
    // The tab names the page and the admin area, whose "Devices" or "Notifications" the dashboard's share.
    await expectTabTitle(page, 'Cache · Admin · Device Data Platform');
    await page.getByTestId('cache-device').fill(deviceId);
    await page.getByTestId('cache-show').click();
    await page.getByTestId('cache-empty').getByText('This device has no cache files').waitFor();

    // Only the readings' own UTC day: a small rebuild.
    await page.getByTestId('cache-from').fill(dateOf(hour));
    await page.getByTestId('cache-to').fill(dateOf(hour));
    await page.getByTestId('cache-load').click();
    const status = page.getByTestId('cache-rebuild');
    await status.getByText(/^Rebuild queued: \d+ hours? in 1 message; 2 files will be written\./).waitFor();
    await status.getByText('All 2 written.').waitFor({ timeout: 30_000 });

    const hourRow = page.getByTestId(`cache-file-hour-${periodOf('hour', hour)}`);
    await hourRow
      .getByRole('rowheader', { name: fileLabel({ resolution: 'hour', period: periodOf('hour', hour) }) })
      .waitFor();
    await page.getByTestId(`cache-file-day-${periodOf('day', hour)}`).waitFor();
    await keepScreenshot(page, path.join(ARTIFACTS, 'cache-page-1280.png'), { fullPage: true });
    await page.setViewportSize(NARROW);
    await hourRow.waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await keepScreenshot(page, path.join(ARTIFACTS, 'cache-page-375.png'), { fullPage: true });
    await page.setViewportSize(WIDE);

    await hourRow.getByRole('checkbox').check();
    await page.getByTestId('cache-rebuild-after').uncheck();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByTestId('cache-evict').click();
    expect(await page.getByTestId('cache-evicted').textContent()).toBe('Evicted 1 file.');
    await hourRow.waitFor({ state: 'detached' });
    expect(await page.getByTestId(`cache-file-day-${periodOf('day', hour)}`).count()).toBe(1);
  });

  it('an employee looks a device up without its claim code hash, and may not evict', async () => {
    const page = testPage();
    await signInAs(page, 'employee@example.com', '/admin/lookup');
    await page.waitForURL(web('/admin/lookup'));
    await page.getByTestId('lookup-table').selectOption('devices');
    await page.getByText('Device records, by device id.').waitFor();
    await page.getByTestId('lookup-keys').fill(`${deviceId}\nno-such-device`);
    await page.getByTestId('lookup-submit').click();
    const item = page.getByTestId('lookup-item');
    await item.getByText(`"id": "${deviceId}"`).waitFor();
    expect(await page.getByTestId('lookup-withheld').textContent()).toBe('Never shown: claimCodeHash');
    expect(await page.getByTestId('lookup-missing').textContent()).toBe('No item for: no-such-device');
    expect(await item.textContent()).not.toContain('claimCodeHash');
    await keepScreenshot(page, path.join(ARTIFACTS, `lookup-page-${page.viewportSize()!.width}.png`), {
      fullPage: true,
    });
    await page.setViewportSize(NARROW);
    await item.waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await keepScreenshot(page, path.join(ARTIFACTS, 'lookup-page-375.png'), { fullPage: true });

    await page.goto(web(`/admin/cache?device=${encodeURIComponent(deviceId)}`));
    await page.getByTestId('cache-evict-staff-only').getByText('Only Administrators can evict cache files.').waitFor();
    expect(await page.getByTestId('cache-evict').count()).toBe(0);
  });
});
