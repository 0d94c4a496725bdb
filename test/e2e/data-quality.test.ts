import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { PREVIEW_COLOURS } from '../../frontend/src/features/sensor-data/calibration-rules';
import { MARK_COLOURS } from '../../frontend/src/features/sensor-data/quality-rules';
import { formatLocal, parseLocal } from '../../frontend/src/features/sensor-data/range-rules';
import { createQualityStore } from '../../functions/sensor-data/store/quality-store';
import { keepScreenshot, pagePerTest, signInAs, web } from '../support/browser';
import { chartPixels, type LinePixels, linePixels } from '../support/chart-pixels';
import { freshDevice, ingest, setTier } from '../support/sensor-data';
import { apiAs, documentClient, stack, subOf, tokenOf, uniqueId } from '../support/stack';

/**
 * Issue 39 on the device page, as a person sees it (docs/data-quality.md "Screens"): suspect and bad readings drawn
 * (a ring and a red dot, with a legend), a calibration's preview drawing the corrected line over the raw one, the
 * raw/corrected switch moving the line, and a range dragged across the chart excluded, its spike gone. Run at 1280 px
 * and with E2E_WIDTH=375.
 */

const testPage = pagePerTest();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const ARTIFACTS = path.resolve(import.meta.dirname, 'artifacts');

const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
/** The chart's mean line (tokens.css --chart-line in the light scheme). */
const LINE = 'rgb(29, 78, 216)';

/**
 * Does `act` and waits for both charts to be drawn anew (a read again under the same key keeps the old charts until
 * its answer; a switch to values the page has read already draws from the cache): told by their canvases.
 */
const redrawnAfter = async (page: Page, act: () => Promise<unknown>) => {
  await page.evaluate(() => {
    for (const canvas of document.querySelectorAll<HTMLCanvasElement>('[data-testid="sensor-chart"] canvas')) {
      canvas.dataset.before = 'true';
    }
  });
  await act();
  await page.locator('[data-testid="sensor-chart"][data-painted] canvas:not([data-before])').nth(1).waitFor();
};

const chartOf = (page: Page, name: string): Locator =>
  page.locator(`[data-testid="sensor-chart"][data-measurement="${name}"]`);

/** Columns (CSS px from the plot's left) holding a pixel of a colour. */
const columnsOf = (seen: LinePixels) => seen.ys.flatMap((y, x) => (y === null ? [] : [x]));

/** The plot column of a time, from the 24-hour axis the page shows (its range ends about now). */
const columnAt = (seen: { width: number }, time: number, from: number, to: number) =>
  ((time - from) / (to - from)) * seen.width;

/**
 * How much higher (px) a chart's line sits in its last hours (80–95 % of the axis) than in its morning (5–30 %): a
 * calibration from 6 hours back of the last 24 lifts the end of the line; uncalibrated, the two are level.
 */
const liftOf = async (chart: Locator) => {
  const seen = await linePixels(chart, LINE, 40);
  const mean = (share: [number, number]) => {
    const ys = seen.ys.slice(Math.round(seen.width * share[0]), Math.round(seen.width * share[1]));
    const drawn = ys.filter((y): y is number => y !== null);
    return drawn.reduce((a, b) => a + b, 0) / drawn.length;
  };
  return mean([0.05, 0.3]) - mean([0.8, 0.95]);
};

/** The last 23 hours of PM2.5 every 10 minutes, between 10 and 13 µg/m³. */
const steadyPm = (now: number) =>
  Array.from({ length: 138 }, (_, i) => ({
    timestamp: now - (138 - i) * 10 * MINUTE,
    values: { pm2_5: 10 + (i % 4) },
  }));

/** A campaign of user@example.com (its manager) from 3 days back to 3 days ahead, holding `devices`. */
const campaignOf = async (token: string, devices: readonly { id: string }[]) => {
  const now = Date.now();
  const campaign = await apiAs('campaigns', token).create({
    body: { name: uniqueId('Quality survey'), startsAt: now - 3 * DAY, endsAt: now + 3 * DAY },
  });
  const relations = apiAs('relations', token);
  for (const device of devices) {
    await relations.create({ body: { type: 'campaign-device', referrerId: campaign.id, referentId: device.id } });
  }
  return campaign;
};

/** What the panel's reprocessing line says once a run it saw or started is done. */
const DONE = 'Reprocessing done: the charts show every change.';

/**
 * A device's reprocessing as a worker that died at day 3 of 8 leaves it: a pending change on the profile and a run
 * `running` at its cursor, its last step 16 minutes ago (so the reprocessing route wakes it). Its range, eight days
 * of a March without readings, lies in one calendar month: the woken run ends in one step.
 */
const seedStalledRun = async (deviceId: string) => {
  const store = createQualityStore({ db: documentClient(), tableName: stack().tables.dataQuality! });
  const from = Date.UTC(2026, 2, 2);
  const profile = (await store.profile(deviceId)) ?? { deviceId, sk: 'profile' as const, version: 0 };
  const version = profile.version + 1;
  const range = { from, to: from + 8 * DAY - 1 };
  expect(
    await store.saveProfile(
      { ...profile, version, pending: [{ v: version, ...range, kind: 'calibration' }] },
      profile.version,
    ),
  ).toBe(true);
  const now = Date.now();
  expect(
    await store.saveJob({
      deviceId,
      status: 'running',
      through: version,
      ranges: [range],
      cursor: from + 3 * DAY,
      done: 3 * DAY,
      total: 8 * DAY,
      started: now - 20 * MINUTE,
      updated: now - 16 * MINUTE,
    }),
  ).toBe(true);
};

describe('end to end: data quality on the device page', () => {
  beforeAll(() => mkdirSync(ARTIFACTS, { recursive: true }));

  it('draws the flags, previews and saves a calibration, switches raw and corrected, and excludes a dragged spike', async () => {
    const device = await freshDevice();
    await setTier(device.id, 'tier1');
    const now = Math.floor(Date.now() / MINUTE) * MINUTE;
    const spikeAt = now - 15 * HOUR;
    const badAt = now - 9 * HOUR;
    // The last 23 hours every 10 minutes: a PM2.5 spike (suspect: a step), a CO₂ of 300 ppm (bad: under what the air holds).
    const readings = Array.from({ length: 138 }, (_, i) => {
      const timestamp = now - (138 - i) * 10 * MINUTE;
      return {
        timestamp,
        values: {
          pm2_5: timestamp === spikeAt ? 300 : 10 + (i % 4),
          co2: timestamp === badAt ? 300 : 420 + (i % 7),
        },
      };
    });
    await ingest(device, readings);

    const page = testPage();
    const width = page.viewportSize()?.width ?? 1280;
    await signInAs(page, 'user@example.com', `/dashboard/devices/${device.id}`);
    await page.locator('[data-testid="sensor-chart"][data-painted]').nth(1).waitFor();
    const pm = chartOf(page, 'pm2_5');
    const co2 = chartOf(page, 'co2');
    const to = Date.now();
    const from = to - 24 * HOUR;

    // The flags: a ring at the spike, a red dot at the impossible CO₂, and legends saying how many.
    const legendOf = (chart: Locator) => chart.locator('xpath=following-sibling::p[1]');
    expect(await legendOf(pm).textContent()).toBe(' Suspect: 1 point Bad: 0 points');
    expect(await legendOf(co2).textContent()).toBe(' Suspect: 0 points Bad: 1 point');
    const ring = await linePixels(pm, rgb(MARK_COLOURS.suspect), 30);
    const dot = await linePixels(co2, rgb(MARK_COLOURS.bad), 30);
    const near = (columns: number[], at: number) => columns.length > 0 && columns.every((x) => Math.abs(x - at) < 12);
    expect(near(columnsOf(ring), columnAt(ring, spikeAt, from, to))).toBe(true);
    expect(near(columnsOf(dot), columnAt(dot, badAt, from, to))).toBe(true);
    expect(columnsOf(await linePixels(pm, rgb(MARK_COLOURS.bad), 30))).toEqual([]);
    await keepScreenshot(page.getByTestId('sensor-data'), path.join(ARTIFACTS, `quality-flags-${width}.png`));

    // A calibration of PM2.5 (x10 from 6 hours ago): its preview draws the raw line and the corrected one above it there.
    await page.getByTestId('quality-measurement').selectOption('pm2_5');
    const form = page.getByTestId('calibration-form');
    await form.getByTestId('calibration-a').fill('10');
    await form.getByTestId('calibration-from').fill(formatLocal(now - 6 * HOUR));
    await form.getByTestId('calibration-note').fill('Collocated with the reference monitor');
    const preview = page.locator('[data-testid="calibration-preview"][data-painted]');
    await preview.waitFor();
    const previewRaw = await linePixels(preview, rgb(PREVIEW_COLOURS.raw), 30);
    const previewCorrected = await linePixels(preview, rgb(PREVIEW_COLOURS.corrected), 30);
    // Before the calibration's start the corrected line lies on the raw one and hides it; in its last 6 hours (a
    // quarter of the axis) the raw line shows under the corrected one.
    expect(previewCorrected.covered).toBeGreaterThan(0.9);
    expect(previewRaw.covered).toBeGreaterThan(0.15);
    const late = Math.round(previewCorrected.width * 0.9);
    expect(previewRaw.ys[late]! - previewCorrected.ys[late]!).toBeGreaterThan(10);
    await keepScreenshot(page.getByTestId('quality-panel'), path.join(ARTIFACTS, `quality-preview-${width}.png`));
    const posted = page.waitForResponse((r) => r.url().endsWith('/calibrations') && r.request().method() === 'POST');
    await redrawnAfter(page, async () => {
      await form.getByTestId('calibration-submit').click();
      const answer = await posted;
      expect({ status: answer.status(), body: answer.status() === 201 ? '' : await answer.text() }).toEqual({
        status: 201,
        body: '',
      });
    });
    await page.getByTestId('calibration-saved').getByText('Saved as version 1').waitFor();
    // The person who saved it is told when its reprocessing is done, however quick it was.
    await page.getByTestId('reprocessing-status').getByText(DONE).waitFor();
    expect(await page.getByTestId('calibration-version').first().textContent()).toContain('Version 1: 10·pm2_5, from');

    // The switch: corrected, the last 6 hours of the line sit higher than the morning; raw, level with it.
    const lift = () => liftOf(pm);
    expect(await lift()).toBeGreaterThan(15);
    await redrawnAfter(page, () => page.getByTestId('sensor-values-raw').click());
    expect(await page.getByTestId('sensor-values-raw').getAttribute('aria-pressed')).toBe('true');
    expect(Math.abs(await lift())).toBeLessThan(3);
    await redrawnAfter(page, () => page.getByTestId('sensor-values-corrected').click());

    // Exclude the spike by dragging across it: the form takes the range and the focus goes to the reason.
    const peak = async () => {
      const seen = await linePixels(pm, LINE, 40);
      const at = Math.round(columnAt(seen, spikeAt, from, to));
      const around = seen.tops.slice(at - 40, at + 40).filter((y): y is number => y !== null);
      const level = seen.ys.slice(at - 40, at - 15).filter((y): y is number => y !== null);
      return Math.min(...level) - Math.min(...around);
    };
    expect(await peak()).toBeGreaterThan(30);
    // The pointer acts where the chart is on screen.
    await pm.scrollIntoViewIfNeeded();
    const plot = (await pm.locator('.u-over').boundingBox())!;
    const spikeX = plot.x + columnAt(plot, spikeAt, from, to);
    // 40 minutes either side in pixels of this plot: a fixed pixel span is more time on a narrow plot (16 px of the
    // 187 px plot at 375 px is over 2 hours).
    const reach = columnAt(plot, from + 40 * MINUTE, from, to);
    await page.mouse.move(spikeX - reach, plot.y + plot.height / 2);
    await page.mouse.down();
    await page.mouse.move(spikeX + reach, plot.y + plot.height / 2, { steps: 5 });
    await page.mouse.up();
    const reason = page.getByTestId('exclusion-reason');
    // The drag's range reaches the form in the next render: the focus moves there then.
    await page.waitForFunction(
      () => (document.activeElement as HTMLElement | null)?.dataset.testid === 'exclusion-reason',
    );
    // The form holds the dragged range: around the spike, within the hour either side.
    const dragFrom = parseLocal(await page.getByTestId('exclusion-from').inputValue())!;
    const dragTo = parseLocal(await page.getByTestId('exclusion-to').inputValue())! + 59_999;
    expect([dragFrom <= spikeAt, spikeAt <= dragTo, dragTo - dragFrom < 2 * HOUR]).toEqual([true, true, true]);
    expect(await page.getByTestId('exclusion-measurement').inputValue()).toBe('pm2_5');
    await reason.fill('Someone smoked under it');
    await redrawnAfter(page, () => page.getByTestId('exclusion-save').click());
    await page.getByTestId('exclusion-done').waitFor();
    expect(await page.getByTestId('exclusion-item').first().textContent()).toContain('PM2.5: Someone smoked under it');
    // The spike is gone from the line, and with it its ring; the line is still drawn across the day.
    expect(await peak()).toBeLessThan(10);
    expect(columnsOf(await linePixels(pm, rgb(MARK_COLOURS.suspect), 30))).toEqual([]);
    expect((await chartPixels(pm)).covered).toBeGreaterThan(0.8);
    await keepScreenshot(page, path.join(ARTIFACTS, `quality-page-${width}.png`), { fullPage: true });

    // End… on the newest version: the form turns to an end (formula None), the focus on it; saved from 3 hours back,
    // the history says who ended it, and the line's last 3 hours drop to the values as sent while 6 to 3 hours back
    // stay corrected (decision 103).
    await page.getByTestId('calibration-version').first().getByTestId('calibration-end').click();
    await page.waitForFunction(
      () => (document.activeElement as HTMLElement | null)?.dataset.testid === 'calibration-kind',
    );
    expect(await form.getByTestId('calibration-kind').inputValue()).toBe('none');
    expect(await form.getByTestId('calibration-note').inputValue()).toBe('Ends version 1');
    expect(await form.getByTestId('calibration-a').count()).toBe(0);
    await form.getByTestId('calibration-from').fill(formatLocal(now - 3 * HOUR));
    await redrawnAfter(page, () => form.getByTestId('calibration-submit').click());
    await page.getByTestId('calibration-saved').getByText('Saved as version 2, the end').waitFor();
    const ended = page.getByTestId('calibration-version').first();
    await ended.locator('.person-name a').waitFor();
    expect(await ended.textContent()).toMatch(
      /^Version 2: calibration ended, the values as sent, from .+; by Uma User on .+\. Ends version 1$/,
    );
    // The end is the newest version: nothing is left to end.
    expect(await page.getByTestId('calibration-end').count()).toBe(0);
    const level = async (share: [number, number]) => {
      const seen = await linePixels(pm, LINE, 40);
      const ys = seen.ys.slice(Math.round(seen.width * share[0]), Math.round(seen.width * share[1]));
      const drawn = ys.filter((y): y is number => y !== null);
      return drawn.reduce((a, b) => a + b, 0) / drawn.length;
    };
    const morning = await level([0.05, 0.3]);
    expect(morning - (await level([0.77, 0.85]))).toBeGreaterThan(15);
    expect(Math.abs(morning - (await level([0.9, 0.97])))).toBeLessThan(3);
    await keepScreenshot(page.getByTestId('sensor-data'), path.join(ARTIFACTS, `quality-ended-${width}.png`));
  }, 120_000);

  it('shows how far a reprocessing is, then that it is done', async () => {
    const device = await freshDevice();
    await setTier(device.id, 'tier1');
    const now = Math.floor(Date.now() / MINUTE) * MINUTE;
    await ingest(
      device,
      Array.from({ length: 40 }, (_, i) => ({
        timestamp: now - (40 - i) * 30 * MINUTE,
        values: { pm2_5: 10 + (i % 4) },
      })),
    );
    await seedStalledRun(device.id);

    const page = testPage();
    const width = page.viewportSize()?.width ?? 1280;
    await signInAs(page, 'user@example.com', `/dashboard/devices/${device.id}`);
    const line = page.getByTestId('reprocessing-status');
    // The first read finds the run where it stopped (and wakes it): the line says how far it is, with a bar.
    await line.getByText('Reprocessing: 37 % — 3 of 8 days').waitFor();
    expect(await page.getByTestId('reprocessing-progress').getAttribute('value')).toBe('37');
    // Read again each second, the woken run is seen finished.
    await line.getByText(DONE).waitFor();
    expect(await page.getByTestId('reprocessing-progress').count()).toBe(0);
    await keepScreenshot(page.getByTestId('quality-panel'), path.join(ARTIFACTS, `quality-reprocessed-${width}.png`));
  }, 60_000);

  it("a campaign's manager excludes a range of every device of the campaign at once, and brings it back", async () => {
    const token = await tokenOf('user@example.com');
    const [first, second] = await Promise.all([freshDevice(), freshDevice()]);
    const now = Math.floor(Date.now() / MINUTE) * MINUTE;
    const campaign = await campaignOf(token, [first!, second!]);

    const page = testPage();
    const width = page.viewportSize()?.width ?? 1280;
    await signInAs(page, 'user@example.com', `/dashboard/campaigns/${campaign.id}`);
    const panel = page.getByTestId('campaign-quality');
    await panel.getByTestId('campaign-exclusions-empty').waitFor();
    // Checked before anything is sent, in the API's words, next to the field.
    await panel.getByTestId('campaign-exclusion-from').fill(formatLocal(now - 2 * HOUR));
    await panel.getByTestId('campaign-exclusion-to').fill(formatLocal(now - HOUR));
    await panel.getByTestId('campaign-exclusion-submit').click();
    expect(await panel.getByTestId('campaign-exclusion-reason-error').textContent()).toBe('Reason cannot be empty');
    await panel.getByTestId('campaign-exclusion-reason').fill('Calibration day at the reference site');
    await panel.getByTestId('campaign-exclusion-submit').click();
    await panel.getByTestId('campaign-exclusion-saved').waitFor();
    expect(await panel.getByTestId('campaign-exclusion-saved').textContent()).toBe(
      'Excluded from 2 devices. Their charts leave the range out within seconds; nothing is deleted.',
    );
    const item = panel.getByTestId('campaign-exclusion-item');
    await item.waitFor();
    expect(await item.textContent()).toContain('2 devices: Calibration day at the reference site');
    // Each device holds it, under the one id.
    const held = async () =>
      Promise.all(
        [first!, second!].map(async (device) =>
          (await apiAs('sensor-data', token).listExclusions({ params: { id: device.id } })).items.map((e) => e.status),
        ),
      );
    expect(await held()).toEqual([['active'], ['active']]);
    await keepScreenshot(panel, path.join(ARTIFACTS, `quality-campaign-${width}.png`));

    await item.getByTestId('campaign-exclusion-remove').click();
    await panel.getByTestId('campaign-exclusions-empty').waitFor();
    expect(await held()).toEqual([['removed'], ['removed']]);
  }, 60_000);
  it("a campaign's manager calibrates every device at once: previewed, listed with each device's version, drawn on a device's chart, and ended", async () => {
    const token = await tokenOf('user@example.com');
    const devices = [await freshDevice(), await freshDevice()];
    const now = Math.floor(Date.now() / MINUTE) * MINUTE;
    for (const device of devices) {
      await setTier(device.id, 'tier1');
      await ingest(device, steadyPm(now));
    }
    const campaign = await campaignOf(token, devices);
    const compared = await apiAs('sensor-data', token).campaignSeries({ params: { id: campaign.id }, query: {} });
    const nameOf = (id: string) => compared.devices.find((d) => d.deviceId === id)?.name ?? id;

    const page = testPage();
    const width = page.viewportSize()?.width ?? 1280;
    await signInAs(page, 'user@example.com', `/dashboard/campaigns/${campaign.id}`);
    const panel = page.getByTestId('campaign-quality');
    await panel.getByTestId('campaign-calibrations-empty').waitFor();
    expect(await panel.getByTestId('campaign-calibration-measurement').inputValue()).toBe('pm2_5');
    const form = panel.getByTestId('campaign-calibration-form');
    // Checked before anything is sent, in the API's words, next to the field.
    await form.getByTestId('campaign-calibration-a').fill('10');
    await form.getByTestId('campaign-calibration-from').fill(formatLocal(now - 6 * HOUR));
    await form.getByTestId('campaign-calibration-submit').click();
    expect(await form.getByTestId('campaign-calibration-note-error').textContent()).toBe('Note cannot be empty');
    await form.getByTestId('campaign-calibration-note').fill('Collocated with the reference monitor');
    // The preview draws a device's raw line over the campaign's window (3 days back to now) and, in the calibration's
    // last 6 hours (the axis's last 8 %), the corrected one above it.
    const preview = panel.locator('[data-testid="campaign-calibration-preview"][data-painted]');
    await preview.waitFor();
    const previewRaw = await linePixels(preview, rgb(PREVIEW_COLOURS.raw), 30);
    const previewCorrected = await linePixels(preview, rgb(PREVIEW_COLOURS.corrected), 30);
    const late = Math.round(previewCorrected.width * 0.97);
    expect(previewRaw.ys[late]! - previewCorrected.ys[late]!).toBeGreaterThan(10);
    await keepScreenshot(form, path.join(ARTIFACTS, `quality-campaign-preview-${width}.png`));
    await form.getByTestId('campaign-calibration-submit').click();
    await panel.getByTestId('campaign-calibration-saved').getByText('Saved on 2 devices.').waitFor();
    const item = panel.getByTestId('campaign-calibration-item');
    await item.waitFor();
    const listed = await item.getByTestId('campaign-calibration-devices').textContent();
    expect(listed?.startsWith('2 devices: ')).toBe(true);
    for (const device of devices) expect(listed).toContain(`${nameOf(device.id)} (version 1)`);
    expect(await item.textContent()).toContain('PM2.5: 10·pm2_5, from');
    await keepScreenshot(panel, path.join(ARTIFACTS, `quality-campaign-calibration-${width}.png`));
    await keepScreenshot(page, path.join(ARTIFACTS, `quality-campaign-page-${width}.png`), { fullPage: true });

    // End…: the form filled with an end (formula None) from now on, the focus on it; saved, it is listed above the
    // first as an end, with nothing to end or replace (decision 103).
    await item.getByTestId('campaign-calibration-end').click();
    await page.waitForFunction(
      () => (document.activeElement as HTMLElement | null)?.dataset.testid === 'campaign-calibration-kind',
    );
    expect(await form.getByTestId('campaign-calibration-kind').inputValue()).toBe('none');
    expect(await form.getByTestId('campaign-calibration-a').count()).toBe(0);
    expect(await form.getByTestId('campaign-calibration-note').inputValue()).toMatch(/^Ends the calibration of /);
    await form.getByTestId('campaign-calibration-submit').click();
    await panel.getByTestId('campaign-calibration-saved').getByText('Saved on 2 devices.').waitFor();
    await panel.getByTestId('campaign-calibration-item').nth(1).waitFor();
    const end = panel.getByTestId('campaign-calibration-item').first();
    expect(await end.textContent()).toMatch(/^PM2\.5: calibration ended, the values as sent, from .+ \(version 2\)/);
    expect(await end.getByRole('button').count()).toBe(0);
    // Replace…: the form starts from the first version's formula, for a note of its own.
    await panel.getByTestId('campaign-calibration-item').nth(1).getByTestId('campaign-calibration-replace').click();
    await page.waitForFunction(
      () => (document.activeElement as HTMLElement | null)?.dataset.testid === 'campaign-calibration-kind',
    );
    expect([
      await form.getByTestId('campaign-calibration-a').inputValue(),
      await form.getByTestId('campaign-calibration-note').inputValue(),
    ]).toEqual(['10', '']);

    // A device's own chart: corrected by version 1 from 6 hours back until the end version starts (now).
    await page.goto(web(`/dashboard/devices/${devices[0]!.id}`));
    const pm = chartOf(page, 'pm2_5');
    await page.locator('[data-testid="sensor-chart"][data-painted]').first().waitFor();
    expect(await liftOf(pm)).toBeGreaterThan(15);
    const history = await page.getByTestId('calibration-history').textContent();
    expect(history).toContain('Version 1: 10·pm2_5, from');
    expect(history).toContain('Version 2: calibration ended, the values as sent, from');
    expect(history).not.toContain('Version 2: pm2_5');
    await keepScreenshot(page.getByTestId('sensor-data'), path.join(ARTIFACTS, `quality-campaign-device-${width}.png`));
  }, 120_000);

  it("a campaign member who is not a manager sees neither the campaign's calibrations nor their controls", async () => {
    const token = await tokenOf('user@example.com');
    const device = await freshDevice();
    const now = Math.floor(Date.now() / MINUTE) * MINUTE;
    await ingest(device, steadyPm(now));
    const campaign = await campaignOf(token, [device]);
    await apiAs('relations', token).create({
      body: { type: 'campaign-user', referrerId: campaign.id, referentId: await subOf('distributor@example.com') },
    });
    await apiAs('sensor-data', token).addCampaignCalibration({
      params: { id: campaign.id },
      body: { measurement: 'pm2_5', formula: { kind: 'linear', a: 2, b: 0 }, effectiveFrom: now - HOUR, note: 'Made' },
    });

    const page = testPage();
    await signInAs(page, 'distributor@example.com', `/dashboard/campaigns/${campaign.id}`);
    // The page as the member sees it, every read done: the campaign's charts drawn, its members listed.
    await page.getByTestId('comparison-summary').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByTestId('campaign-title').textContent()).toBe(campaign.name);
    expect(await page.getByText('Calibrations of every device').count()).toBe(0);
    expect(await page.getByTestId('campaign-calibration-form').count()).toBe(0);
    expect(await page.getByTestId('campaign-quality').count()).toBe(0);
  }, 60_000);
});
