import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { keepScreenshot, pagePerTest, signInAs, web } from '../support/browser';
import { freshMajor, seedRelease } from '../support/code-releases';
import { freshDevice, type TestDevice } from '../support/sensor-data';
import { apiAs } from '../support/stack';

const ARTIFACTS = path.resolve(import.meta.dirname, 'artifacts');
const testPage = pagePerTest();

const shot = async (page: Page, name: string) => {
  mkdirSync(ARTIFACTS, { recursive: true });
  await keepScreenshot(page, path.join(ARTIFACTS, `${name}-${page.viewportSize()!.width}.png`), { fullPage: true });
};

/** What a device does with an update, through the ingest routes with its own credential (the simulation). */
const deviceSays = (device: TestDevice) => ({
  polls: () => apiAs('data-ingress', device.credential).getFirmware({}),
  reports: (
    rollout: { id: string; releaseId: string },
    state: 'downloading' | 'succeeded' | 'failed',
    reason?: string,
  ) =>
    apiAs('data-ingress', device.credential).reportFirmwareStatus({
      body: {
        rolloutId: rollout.id,
        releaseId: rollout.releaseId,
        state,
        at: Date.now() - 1_000,
        ...(reason ? { reason } : {}),
      },
    }),
});

describe('end to end: a staged rollout', () => {
  it('an administrator starts a staged rollout, watches its canary report, sees it halt with the failures listed, and rolls it back', async () => {
    const page = testPage();
    const major = freshMajor();
    const previous = await seedRelease({ results: ['Pass'], version: `${major}.0.0` });
    const release = await seedRelease({ results: ['Pass'], version: `${major}.0.1` });
    const devices = await Promise.all(Array.from({ length: 5 }, () => freshDevice()));
    const [d1, d2, d3] = devices as [TestDevice, TestDevice, TestDevice];

    await signInAs(page, 'admin@example.com', `/admin/releases/${release.id}`);
    await page.getByTestId('rollout-gate').getByText('may roll out').waitFor();
    await page.getByTestId('rollout-devices').fill(devices.map((d) => d.id).join('\n'));
    // The stages, opened from the keyboard: the defaults in one line, the canary's devices named here.
    const summary = page.getByTestId('rollout-stages-summary');
    expect(await summary.textContent()).toBe('Stages: Canary (1 %) → 5 % → 25 % → Everyone (100 %), 24 h each');
    await summary.focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('rollout-stage-0-devices').fill(`${d1.id} ${d2.id} ${d3.id}`);
    await shot(page, 'rollout-form-stages');
    await page.getByTestId('rollout-submit').click();
    await page.getByTestId('rollout-saved').getByText('Rollout started: 5 devices assigned.').waitFor();
    await page.getByTestId('rollouts').getByTestId('rollout-link').click();
    await page.waitForURL(/\/admin\/rollouts\//);
    const rolloutId = decodeURIComponent(page.url().split('/').at(-1)!);
    const rollout = { id: rolloutId, releaseId: release.id };

    expect(await page.getByTestId('rollout-title').textContent()).toBe(`Rollout of sd1 ${release.version} Active`);
    const canaryRow = page.getByTestId('stage-counts-0');
    expect(await canaryRow.getByTestId('count-pending').textContent()).toBe('3');
    expect(await page.getByTestId('stage-segment-0').textContent()).toContain('Canary running0 of 3 finished');
    expect(await page.getByTestId('stage-segment-1').textContent()).toContain('waiting');

    // The canary's devices ask for the update and report; the open page follows them.
    for (const device of [d1, d2, d3]) expect((await deviceSays(device).polls()).update).not.toBeNull();
    await deviceSays(d1).reports(rollout, 'downloading');
    await canaryRow.getByTestId('count-downloading').getByText('1').waitFor();
    expect(await canaryRow.getByTestId('count-offered').textContent()).toBe('2');
    await shot(page, 'rollout-canary-reporting');

    await deviceSays(d1).reports(rollout, 'failed', 'flash write error at 0x4000');
    await deviceSays(d2).reports(rollout, 'succeeded');
    await deviceSays(d3).reports(rollout, 'failed', 'signature rejected by bootloader');
    // The whole canary (3) finished and two failed: 90 % sure that 10 % or more fail, so it halted itself; the page
    // says so and names the failures.
    await page.getByTestId('rollout-halt').getByText('Halted by its abort criteria').waitFor();
    expect(await page.getByTestId('rollout-halt-reason').textContent()).toBe(
      'Halted automatically: in stage Canary, 2 of 3 finished devices failed or timed out ' +
        '(67 %: its failure rate is at least the threshold, 10 %, with 90 % confidence)',
    );
    await page.getByTestId(`rollout-failure-${d3.id}`).waitFor();
    expect(await page.getByTestId(`rollout-failure-${d1.id}`).textContent()).toBe(
      `${d1.id}: failed: flash write error at 0x4000`,
    );
    expect(await page.getByTestId(`rollout-failure-${d3.id}`).textContent()).toBe(
      `${d3.id}: failed: signature rejected by bootloader`,
    );
    expect(await page.getByTestId('rollout-status').textContent()).toBe('Halted');
    await shot(page, 'rollout-halted');

    // Rolled back from the keyboard: the reason typed, the button reached by Tab and pressed with Enter.
    await page.getByTestId('rollout-rollback-reason').fill('Boot loops on rev B boards');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('rollout-rollback');
    await page.keyboard.press('Enter');
    await page.getByTestId('rollout-rolled-back').waitFor();
    expect(await page.getByTestId('rollout-rolled-back').textContent()).toContain(
      `sd1 ${previous.version} is offered to the device that installed this release`,
    );
    expect(await page.getByTestId('rollout-status').textContent()).toBe('Rolled back');
    await shot(page, 'rollout-rolled-back');

    // Read back through the API: only the device that installed it is offered the previous release.
    expect((await deviceSays(d2).polls()).update).toMatchObject({ releaseId: previous.id, version: previous.version });
    for (const device of [d1, d3, ...devices.slice(3)])
      expect(await deviceSays(device).polls()).toEqual({ update: null });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    // The device's own page lists both updates, newest first, with what became of each.
    await page.goto(web(`/admin/devices/${encodeURIComponent(d2.id)}`));
    const history = page.getByTestId('device-updates');
    await history.waitFor();
    expect(await history.locator('li').first().textContent()).toContain(previous.version);
    expect(await page.getByTestId(`device-update-${rolloutId}`).getByTestId('device-update-state').textContent()).toBe(
      '✓ Succeeded',
    );
  });
});
