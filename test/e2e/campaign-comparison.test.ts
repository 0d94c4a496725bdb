import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { DEMO_OUTAGE } from '../../infra/local/demo-readings';
import { keepScreenshot, pagePerTest, signInAs } from '../support/browser';
import { linePixels, textOnce } from '../support/chart-pixels';
import { apiAs, tokenOf } from '../support/stack';

const testPage = pagePerTest();
const DAY = 86_400_000;
const CAMPAIGN = 'demo-campaign-1';
/** Screenshots of what the test saw, kept by CI (git-ignored). */
const ARTIFACTS = path.resolve(import.meta.dirname, 'artifacts');
/** The demo campaign's devices (infra/local/demo-data.ts), by the names the legend shows. */
const DEVICES = [
  { id: 'demo-device-1', name: 'Rooftop station' },
  { id: 'demo-device-2', name: 'Lake buoy' },
] as const;

/** The colour of a device's line, as its legend entry's swatch is drawn (`rgb(r, g, b)`). */
const colourOf = (page: Page, deviceId: string) =>
  page
    .getByTestId(`comparison-toggle-${deviceId}`)
    .locator('line')
    .evaluate((line) => getComputedStyle(line).stroke);

const painted = (page: Page, count: number) =>
  page
    .locator('[data-testid="comparison-chart"][data-painted]')
    .nth(count - 1)
    .waitFor();

const nextFrame = (page: Page) => page.waitForFunction(() => new Promise((resolve) => requestAnimationFrame(resolve)));

/** Each line seen in the chart, by device: how much of the width it covers, its breaks, where it runs. */
const linesIn = async (page: Page, chart: Locator) =>
  Object.fromEntries(
    await Promise.all(DEVICES.map(async ({ id }) => [id, await linePixels(chart, await colourOf(page, id))] as const)),
  );

/** The times where a line breaks (consecutive values further apart than its `gapMs`), as the chart draws it. */
const breaksOf = (t: readonly number[], line: { mean: readonly (number | null)[]; gapMs: number | null }) => {
  const at = t.filter((_, i) => line.mean[i] !== null);
  return at.slice(1).flatMap((time, i) => (line.gapMs !== null && time - at[i]! > line.gapMs ? [at[i]!] : []));
};

/**
 * The rooftop station's 6-hour outage, 3 days back, is its only break; the buoy's line runs on across it. Read with
 * the other line hidden: where two lines cross, the one drawn on top hides the other's pixels for a few columns,
 * which reads as a break (where they cross depends on the time of day the demo data ends).
 */
const expectOnlyTheOutage = (id: string, line: { width: number; breaks: { from: number; to: number }[] }) => {
  const outageAt = 1 - (DEMO_OUTAGE.beforeEndMs - DEMO_OUTAGE.lengthMs / 2) / (30 * DAY);
  const breaks = line.breaks
    .filter((b) => b.to - b.from >= 2)
    .map((b) => {
      const at = (b.from + b.to) / 2 / line.width;
      return { at: at.toFixed(3), px: [b.from, b.to], nearOutage: Math.abs(at - outageAt) < 0.03 };
    });
  // At phone width 6 hours of 30 days is under 3 px, which the line's own width closes: there the outage may show
  // as no break at all, but never as a break elsewhere.
  const outagePx = (DEMO_OUTAGE.lengthMs / (30 * DAY)) * line.width;
  const outage = [expect.objectContaining({ nearOutage: true })];
  const expected = id !== DEMO_OUTAGE.deviceId ? [] : outagePx >= 6 || breaks.length > 0 ? outage : [];
  expect({ id, outageAt: outageAt.toFixed(3), breaks }).toEqual({
    id,
    outageAt: outageAt.toFixed(3),
    breaks: expected,
  });
};

beforeAll(async () => {
  // The demo history's roll-ups are worked after the stack starts, a month at a time in whatever order the queue
  // delivers: wait until both devices chart the whole window, the rooftop's outage their only break.
  const sensorData = apiAs('sensor-data', await tokenOf('approved@example.com'));
  for (let tries = 0; ; tries++) {
    const answer = await sensorData.campaignSeries({ params: { id: CAMPAIGN }, query: { width: 800 } });
    const state = DEVICES.map(({ id }) => {
      const line = answer.devices.find((d) => d.deviceId === id)?.series.temperature;
      const start = answer.t[line?.mean.findIndex((v) => v !== null) ?? -1];
      return { id, start, breaks: line ? breaksOf(answer.t, line).length : undefined };
    });
    const ready = state.every(
      ({ id, start, breaks }) =>
        start !== undefined && start < Date.now() - 29 * DAY && breaks === (id === DEMO_OUTAGE.deviceId ? 1 : 0),
    );
    if (ready) break;
    if (tries > 300) throw new Error(`The demo roll-ups did not cover the campaign: ${JSON.stringify(state)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  mkdirSync(ARTIFACTS, { recursive: true });
}, 90_000);

describe('end to end: a campaign page charts every device of the campaign', () => {
  it('draws a line of each device’s colour across the chart, names them, and toggles one from the keyboard', async () => {
    const page = testPage();
    const width = page.viewportSize()?.width ?? 1280;
    await signInAs(page, 'approved@example.com', `/dashboard/campaigns/${CAMPAIGN}`);
    const section = page.getByTestId('campaign-comparison');
    // Rooftop: temperature, humidity, PM2.5, PM10, CO2; buoy: temperature, battery, RSSI; one chart each.
    await painted(page, 7);
    await section.screenshot({ path: path.join(ARTIFACTS, `campaign-comparison-${width}.png`) });
    await keepScreenshot(page, path.join(ARTIFACTS, `campaign-page-${width}.png`), { fullPage: true });
    expect(await page.getByTestId('comparison-summary').textContent()).toMatch(/^2 of 2 devices charted/);

    // The legend names each device beside its line's colour, and the colours differ.
    const legend = page.getByTestId('comparison-legend');
    for (const { id, name } of DEVICES) {
      expect(await legend.getByTestId(`comparison-toggle-${id}`).textContent()).toContain(name);
    }
    const colours = await Promise.all(DEVICES.map(({ id }) => colourOf(page, id)));
    expect(new Set(colours).size).toBe(2);

    // Temperature, which both devices measure: a line of each colour over most of the campaign's window (both
    // tiers show 30 days, the window began 30 days before the demo data's start).
    const temperature = section.locator('[data-testid="comparison-chart"][data-measurement="temperature"]');
    expect(await temperature.getAttribute('data-devices')).toBe('demo-device-1,demo-device-2');
    const seen = await linesIn(page, temperature);
    for (const { id } of DEVICES) {
      const covered = seen[id]!.covered;
      expect({ id, covered: covered > 0.9 }).toEqual({ id, covered: true });
    }
    // Pointing at a line names its device and value (not colour alone).
    await temperature.scrollIntoViewIfNeeded();
    // uPlot learns where its plot is from the scroll event, a frame after the scroll.
    await nextFrame(page);
    await nextFrame(page);
    const over = temperature.locator('.u-over');
    // The rooftop's warmest point on the chart: a peak, where its line runs flat, far above the buoy's (10-12 °C).
    const tops = seen['demo-device-1']!.tops;
    let column = -1;
    tops.forEach((top, x) => {
      const inner = x > tops.length * 0.1 && x < tops.length * 0.9;
      if (inner && top !== null && (column < 0 || top < tops[column]!)) column = x;
    });
    const readout = section
      .locator('.comparison-measurement')
      .filter({ has: page.locator('[data-measurement="temperature"]') })
      .getByTestId('comparison-readout');
    // Along the peak, as a hand would: at phone width a point spans 3 hours and more than a pixel, so the point under
    // the pointer may lie beside the peak, lower than the line drawn there; one a little to the side is the peak.
    const said: { at: [number, number]; text: string }[] = [];
    for (const dx of [0, -0.4, 0.4, -0.8, 0.8, -1.2, 1.2, -1.6, 1.6, -2, 2]) {
      // Measured at each move: where the plot is drawn now, not where it was a move ago.
      const plot = (await over.boundingBox())!;
      const at: [number, number] = [plot.x + column + 0.5 + dx, plot.y + tops[column]! + 1];
      await page.mouse.move(...at);
      const text = await textOnce(readout, /\S/);
      said.push({ at, text });
      if (text) break;
    }
    // What each move met, so a miss says where the pointer was against the peak.
    expect({ column, top: tops[column], said }).toEqual({
      column,
      top: tops[column],
      said: expect.arrayContaining([
        expect.objectContaining({ text: expect.stringMatching(/^Rooftop station: -?\d+(\.\d+)? °C at /) }),
      ]),
    });
    await section
      .locator('.comparison-measurement')
      .first()
      .screenshot({ path: path.join(ARTIFACTS, `campaign-comparison-hover-${width}.png`) });
    await page.mouse.move(0, 0);

    // The buoy's toggle, reached and pressed from the keyboard: its line leaves every chart, the rooftop's stays.
    const buoy = legend.getByTestId('comparison-toggle-demo-device-2');
    await buoy.focus();
    await page.keyboard.press('Space');
    expect(await buoy.getAttribute('aria-pressed')).toBe('false');
    await nextFrame(page);
    const hidden = await linesIn(page, temperature);
    expect(hidden['demo-device-2']!.covered).toBe(0);
    expect(hidden['demo-device-1']!.covered).toBeGreaterThan(0.9);
    expectOnlyTheOutage('demo-device-1', hidden['demo-device-1']!);
    await section.screenshot({ path: path.join(ARTIFACTS, `campaign-comparison-buoy-off-${width}.png`) });
    await page.keyboard.press('Enter');
    expect(await buoy.getAttribute('aria-pressed')).toBe('true');
    await nextFrame(page);
    expect((await linesIn(page, temperature))['demo-device-2']!.covered).toBeGreaterThan(0.9);

    // The rooftop's toggle too: the buoy's line alone runs unbroken.
    const rooftop = legend.getByTestId('comparison-toggle-demo-device-1');
    await rooftop.click();
    expect(await rooftop.getAttribute('aria-pressed')).toBe('false');
    await nextFrame(page);
    const buoyAlone = (await linesIn(page, temperature))['demo-device-2']!;
    expect(buoyAlone.covered).toBeGreaterThan(0.9);
    expectOnlyTheOutage('demo-device-2', buoyAlone);
  }, 90_000);
});
