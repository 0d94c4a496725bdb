import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { PRESETS } from '../../frontend/src/features/sensor-data/range-rules';
import { DEMO_OUTAGE } from '../../infra/local/demo-readings';
import { keepScreenshot, pagePerTest, signInAs, web } from '../support/browser';
import { chartPixels, chartsDrawnAfter, legendValueOnce } from '../support/chart-pixels';
import { freshDevice, setTier } from '../support/sensor-data';
import { apiAs, stack, tokenOf } from '../support/stack';

const testPage = pagePerTest();
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** Screenshots of what the tests saw, kept by CI (git-ignored). */
const ARTIFACTS = path.resolve(import.meta.dirname, 'artifacts');

/** Chooses a range preset and waits for every chart of its answer to be drawn. */
const showPreset = async (page: Page, preset: string) => {
  await chartsDrawnAfter(page, () => page.getByTestId(`sensor-range-${preset}`).click());
  return page.getByTestId('sensor-chart');
};

describe('end to end: charts on the device page', () => {
  it('a guest charts a public device per measurement, meets the tier window, and sees more after an upgrade', async () => {
    const device = await freshDevice({ productLine: 'sd1', visibility: 'public' });
    await setTier(device.id, 'tier0');
    const now = Math.floor(Date.now() / MINUTE) * MINUTE;
    // The last 10 hours, a reading every 5 minutes.
    const readings = Array.from({ length: 120 }, (_, i) => ({
      timestamp: now - (120 - i) * 5 * MINUTE,
      values: { pm2_5: i === 60 ? 87 : 10 + (i % 7), temperature: 18 + (i % 10) / 2 },
    }));
    // Through the ingest route, so the worker rolls them up as it would for a device (charts past 2 days use them).
    const sent = await fetch(`${stack().endpoints.gateway}/data-ingress/readings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${device.credential}`, 'content-type': 'application/json' },
      body: JSON.stringify({ readings }),
    });
    expect(sent.status).toBe(200);

    const page = testPage();
    await page.goto(web(`/dashboard/devices/${device.id}`));
    await page.getByTestId('sensor-tier').getByText('Tier 0').waitFor();
    expect(await page.getByTestId('sensor-window-view').textContent()).toContain('7');
    await page.locator('[data-testid="sensor-chart"][data-painted]').nth(1).waitFor();
    const charts = page.getByTestId('sensor-chart');
    expect(await charts.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-measurement')).sort())).toEqual([
      'pm2_5',
      'temperature',
    ]);
    // uPlot draws on a canvas: a painted chart has one per measurement, sized to the panel.
    expect(await page.locator('[data-testid="sensor-chart"] canvas').count()).toBe(2);
    expect(await page.getByTestId('sensor-resolution').textContent()).toContain('raw readings');

    // The From and To fields show the range drawn, read as the browser reads them (its own time zone).
    for (const preset of PRESETS.filter((p) => p.id === '7d' || p.id === '1y')) {
      await page.getByTestId(`sensor-range-${preset.id}`).click();
      const shown = await page.evaluate(() => {
        const at = (id: string) => new Date(document.querySelector<HTMLInputElement>(`[data-testid="${id}"]`)!.value);
        return { from: at('sensor-range-from').getTime(), to: at('sensor-range-to').getTime(), now: Date.now() };
      });
      expect(Math.abs(shown.now - shown.to)).toBeLessThan(2 * MINUTE);
      expect(Math.abs(shown.to - shown.from - preset.days * DAY)).toBeLessThanOrEqual(MINUTE);
    }

    // 30 days reaches past Tier 0's 7: the panel says which tier unlocks it.
    await page.getByTestId('sensor-range-30d').click();
    await page.getByTestId('sensor-tier-lock').getByText('Tier 1 unlocks 30 days').waitFor();

    await setTier(device.id, 'tier1');
    const sensorData = apiAs('sensor-data');
    const monthOf = () =>
      sensorData.series({ params: { id: device.id }, query: { from: Date.now() - 29 * 86_400_000 } });
    for (let tries = 0; Object.keys((await monthOf()).series).length < 2 && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await page.reload();
    await page.getByTestId('sensor-tier').getByText('Tier 1').waitFor();
    await page.getByTestId('sensor-range-30d').click();
    await page.locator('[data-testid="sensor-chart"][data-painted]').nth(1).waitFor();
    expect(await page.getByTestId('sensor-tier-lock').count()).toBe(0);
  });
});

describe("end to end: the demo devices' charts show their lines", () => {
  beforeAll(async () => {
    // The demo history's roll-ups are worked after the stack starts: wait until 30 days chart from hourly data.
    const sensorData = apiAs('sensor-data', await tokenOf('user@example.com'));
    for (const id of ['demo-device-1', 'demo-device-2']) {
      for (let tries = 0; ; tries++) {
        const series = await sensorData.series({ params: { id }, query: { from: Date.now() - 30 * DAY + MINUTE } });
        if (series.t.length > 0 && series.t[0]! < Date.now() - 29 * DAY) break;
        if (tries > 300) throw new Error(`The roll-ups of ${id} did not cover 30 days`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    mkdirSync(ARTIFACTS, { recursive: true });
  });

  for (const { id, width } of [
    { id: 'demo-device-1', width: 1280 },
    { id: 'demo-device-2', width: 1280 },
    { id: 'demo-device-1', width: 375 },
  ]) {
    it(`${id} at ${width} px: a continuous line across the chart at every preset, broken only where it was silent`, async () => {
      const page = testPage();
      await page.setViewportSize({ width, height: 900 });
      await signInAs(page, 'user@example.com', `/dashboard/devices/${id}`);
      await page.getByTestId('sensor-tier').waitFor();
      for (const { id: preset } of PRESETS) {
        const charts = await showPreset(page, preset);
        await page
          .getByTestId('sensor-data')
          .screenshot({ path: path.join(ARTIFACTS, `${id}-${preset}-${width}.png`) });
        if (preset === '24h')
          await keepScreenshot(page, path.join(ARTIFACTS, `${id}-page-${width}.png`), { fullPage: true });
        for (const chart of await charts.all()) {
          const name = await chart.getAttribute('data-measurement');
          const seen = await chartPixels(chart);
          const where = `${id} ${name} at ${preset}, ${width} px`;
          // 35 days of 10-minute readings under a 30-day tier: every preset is full; a year shades the 335 locked
          // days (test/e2e/cart.test.ts) and draws the line across the 30 it shows.
          const shown = preset === '1y' ? 30 / 365 : 1;
          expect({ where, covered: seen.covered > 0.9 * shown }).toEqual({ where, covered: true });
          // The rooftop station's 6-hour outage, 3 days back, is one visible break at 7 days (at 30 days it is
          // a few pixels, at 375 px not always one); the demo devices are silent nowhere else.
          const breaks = seen.breaks.filter((b) => b.to - b.from >= 2);
          const outage = id === DEMO_OUTAGE.deviceId && preset !== '24h';
          if (outage && preset === '7d') expect({ where, breaks: breaks.length }).toEqual({ where, breaks: 1 });
          expect({ where, breaks: breaks.length <= (outage ? 1 : 0) }).toEqual({ where, breaks: true });
          for (const b of breaks) {
            const shownDays = preset === '7d' ? 7 : 30;
            const at = 1 - (DEMO_OUTAGE.beforeEndMs - DEMO_OUTAGE.lengthMs / 2) / (shownDays * DAY);
            expect({ where, at: Math.abs((b.from + b.to) / 2 / seen.width - at) < 0.03 }).toEqual({ where, at: true });
          }
        }
        if (preset === '1y') {
          await page.getByTestId('sensor-tier-lock').getByText('unlocks 365 days').waitFor();
        }
      }

      // The hover legend names a real value anywhere along the line, the outage at 7 days included.
      const charts = await showPreset(page, '7d');
      const first = charts.first();
      const value = /^-?\d/;
      for (const share of [0.02, 4 / 7, 0.5, 0.98]) {
        // Off the chart first, until its legend holds no value: the value read next is the one this move brought.
        await page.mouse.move(0, 0);
        expect({ share, away: value.test(await legendValueOnce(first, 'mean', /^\D*$/)) }).toEqual({
          share,
          away: false,
        });
        const plot = (await first.locator('.u-over').boundingBox())!;
        await page.mouse.move(plot.x + plot.width * share, plot.y + plot.height / 2);
        expect({ share, mean: await legendValueOnce(first, 'mean', value) }).toEqual({
          share,
          mean: expect.stringMatching(value),
        });
      }
    }, 180_000);
  }

  it('a single reading in the range shows as a point', async () => {
    const device = await freshDevice({ productLine: 'sd1', visibility: 'public' });
    const timestamp = Math.floor(Date.now() / MINUTE) * MINUTE - 3 * 60 * MINUTE;
    const sent = await fetch(`${stack().endpoints.gateway}/data-ingress/readings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${device.credential}`, 'content-type': 'application/json' },
      body: JSON.stringify({ readings: [{ timestamp, values: { pm2_5: 12 } }] }),
    });
    expect(sent.status).toBe(200);
    const page = testPage();
    await page.goto(web(`/dashboard/devices/${device.id}`));
    const chart = page.locator('[data-testid="sensor-chart"][data-painted]');
    await chart.waitFor();
    const seen = await chartPixels(chart);
    // A dot of a few pixels, 3 hours before the end of the 24-hour axis.
    expect(seen.covered).toBeGreaterThan(0);
    expect(seen.covered).toBeLessThan(0.03);
  });

  it('a range with no readings says so, and no resolution ("1740 min per point") of points that are not there', async () => {
    const device = await freshDevice({ productLine: 'sd1', visibility: 'public' });
    const page = testPage();
    await page.goto(web(`/dashboard/devices/${device.id}`));
    await page.getByTestId('sensor-empty').getByText('No readings in this range.').waitFor();
    await page.getByTestId('sensor-range-30d').click();
    await page.getByTestId('sensor-empty').getByText('No readings in this range.').waitFor();
    expect(await page.getByTestId('sensor-data').textContent()).not.toContain('per point');
  });
});
