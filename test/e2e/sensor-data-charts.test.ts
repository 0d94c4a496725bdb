import { pagePerTest, web } from '../support/browser';
import { freshDevice, setTier } from '../support/sensor-data';
import { apiAs, stack } from '../support/stack';

const testPage = pagePerTest();
const MINUTE = 60_000;

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
