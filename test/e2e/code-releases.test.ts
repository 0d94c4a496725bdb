import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { keepScreenshot, pagePerTest, signInAs, web } from '../support/browser';
import { firmwareBytes, freshVersion, sha256Of } from '../support/code-releases';
import { freshDevice } from '../support/sensor-data';
import { apiAs } from '../support/stack';
import { chooseFile } from './registry-fixtures';

const ARTIFACTS = path.resolve(import.meta.dirname, 'artifacts');
const testPage = pagePerTest();

const shot = async (page: Page, name: string) => {
  mkdirSync(ARTIFACTS, { recursive: true });
  await keepScreenshot(page, path.join(ARTIFACTS, `${name}-${page.viewportSize()!.width}.png`), { fullPage: true });
};

/** Records a test run through the page's form and waits for it at the top of the list. */
const recordTestRun = async (page: Page, status: 'Pass' | 'Fail', name: string) => {
  await page.getByTestId('test-run-status').selectOption(status);
  await page.getByTestId('test-run-name').fill(name);
  await page.getByTestId('test-run-log').fill(`${name}: ${status}`);
  await page.getByTestId('test-run-submit').click();
  await page.getByTestId('test-runs').getByText(name, { exact: true }).waitFor();
};

describe('end to end: code releases', () => {
  it('staff create a release and upload its artifact; the rollout is refused after a failing test run and possible after a pass', async () => {
    const page = testPage();
    const device = await freshDevice();
    const version = freshVersion(3);
    const bytes = firmwareBytes(version);

    await signInAs(page, 'admin@example.com', '/admin');
    await page.waitForURL(web('/admin'));
    await page.getByTestId('admin-releases-link').click();
    await page.waitForURL(web('/admin/releases'));

    await page.getByTestId('release-product-line').selectOption('sd1');
    await page.getByTestId('release-version').fill(version);
    await page.getByTestId('release-notes').fill('Faster boot.\nFixes the rev B brown-out.');
    await page.getByTestId('new-release-submit').click();
    await page.waitForURL(web(`/admin/releases/sd1-${version}`));
    expect(await page.getByTestId('release-title').textContent()).toBe(`SD1 ${version} Draft`);
    // A draft cannot roll out, and the page says why before anyone tries.
    expect(await page.getByTestId('rollout-gate').textContent()).toContain('is a draft');

    await chooseFile(page, 'artifact-file', { name: 'fw.bin', mimeType: 'application/octet-stream', buffer: bytes });
    await page.getByTestId('artifact-upload').click();
    await page.getByTestId('artifact-sha256').waitFor();
    expect(await page.getByTestId('artifact-sha256').textContent()).toBe(sha256Of(bytes));
    expect(await page.getByTestId('release-title').textContent()).toBe(`SD1 ${version} Published`);
    const gate = page.getByTestId('rollout-gate');
    await gate.getByText('has no passing test run').waitFor();

    await recordTestRun(page, 'Fail', 'Hardware in the loop');
    await gate.getByText('the latest failed').waitFor();
    const failed = page.getByTestId('test-runs').locator('li').first();
    expect(await failed.getByTestId('test-run-result').textContent()).toBe('✕ Fail');
    expect(await failed.textContent()).toContain('by admin@example.com');
    // Red for Fail (spec §4), drawn from the design tokens.
    expect(await failed.getByTestId('test-run-result').evaluate((el) => getComputedStyle(el).color)).toBe(
      'rgb(179, 38, 30)',
    );
    // The form is there but shut while the gate is.
    expect(await page.getByTestId('rollout-submit').isDisabled()).toBe(true);
    expect(await page.getByTestId('rollout-devices').isDisabled()).toBe(true);

    await recordTestRun(page, 'Pass', 'Soak test');
    await gate.getByText('may roll out').waitFor();
    expect(await page.getByTestId('test-runs').locator('li').first().getByTestId('test-run-result').textContent()).toBe(
      '✓ Pass',
    );
    await shot(page, 'release-page-passed');

    await page.getByTestId('rollout-devices').fill(device.id);
    await page.getByTestId('rollout-submit').click();
    await page.getByTestId('rollout-saved').getByText('Rollout started: 1 device assigned.').waitFor();
    const adoption = page.getByTestId('rollouts').getByTestId('rollout-adoption');
    expect(await adoption.textContent()).toBe('0 of 1 device runs it (0 %)');

    // The device reports the new version with its readings; the page counts it at its next read.
    await apiAs('data-ingress', device.credential).ingestReadings({
      body: { readings: [{ timestamp: Date.now() - 1_000, values: { pm2_5: 3 } }], firmwareVersion: version },
    });
    await page.reload();
    await page
      .getByTestId('rollouts')
      .getByTestId('rollout-adoption')
      .getByText('1 of 1 device runs it (100 %)')
      .waitFor();
    await shot(page, 'release-page-rolled-out');

    await page.getByTestId('rollout-halt-reason-input').fill('Field reports of resets');
    await page.getByTestId('rollout-halt').click();
    await page.getByTestId('rollout-halt-reason').getByText('Field reports of resets').waitFor();
    expect(await page.getByTestId('rollout-status').textContent()).toBe('Halted');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
});
