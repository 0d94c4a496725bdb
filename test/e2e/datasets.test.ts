import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createReadingsStore } from '../../functions/_shared/sensor-data/readings-store';
import { DEFAULT_PAGE_SIZE } from '../../shared/contracts/common';
import { keepScreenshot, pagePerTest, web } from '../support/browser';
import { sha256 } from '../support/datasets';
import { freshUser } from '../support/people';
import { freshDevice, setTier } from '../support/sensor-data';
import { apiAs, documentClient, stack, uniqueId } from '../support/stack';
import { signInPerson } from './people-fixtures';

const testPage = pagePerTest();
const ARTIFACTS = path.resolve(import.meta.dirname, 'artifacts');
const MINUTE = 60_000;

describe('end to end: a dataset', () => {
  beforeAll(() => mkdirSync(ARTIFACTS, { recursive: true }));

  it('is built with its progress on the page, downloaded, and its file matches the checksum in its manifest', async () => {
    const person = await freshUser({ groups: ['Authenticated_users'], prefix: 'dataset' });
    const now = Math.floor(Date.now() / MINUTE) * MINUTE;
    const readings = Array.from({ length: 288 }, (_, i) => ({
      timestamp: now - (288 - i) * 10 * MINUTE + 5 * MINUTE,
      values: { pm2_5: (i % 50) / 2, temperature: 10 + (i % 24) / 4 },
    }));
    // Two stations: the build takes three steps (a device each, then the manifest), so its progress shows.
    const devices = [];
    for (let i = 0; i < 2; i++) {
      const device = await freshDevice({ productLine: 'sd1', ownerToken: person.token });
      await setTier(device.id, 'tier1');
      await createReadingsStore({ db: documentClient(), tableName: stack().tables.readings! }).write(
        device.id,
        readings,
        now,
      );
      devices.push(device);
    }

    const page = testPage();
    const width = page.viewportSize()!.width;
    await signInPerson(page, person, '/dashboard/datasets/new');
    await page.waitForURL(web('/dashboard/datasets/new'));
    await page.getByTestId('dataset-title').fill('Two rooftops, two days');
    await page.getByTestId('dataset-description').fill('PM2.5 and temperature of two stations');
    for (const device of devices) await page.getByTestId(`dataset-device-${device.id}`).check();
    await keepScreenshot(page, path.join(ARTIFACTS, `dataset-build-${width}.png`), { fullPage: true });
    await page.getByTestId('dataset-form-submit').click();

    await page.waitForURL(/\/dashboard\/datasets\/ds_[0-9a-z]{12}$/);
    const id = page.url().split('/').pop()!;
    // The progress bar is there while it builds, and never goes back.
    await page.getByTestId('dataset-progress').waitFor();
    const seen: number[] = [];
    while ((await page.getByTestId('dataset-status').textContent()) !== 'Frozen') {
      const value = await page
        .getByTestId('dataset-progress')
        .getAttribute('value')
        .catch(() => null);
      if (value !== null) seen.push(Number(value));
      await page.waitForTimeout(150);
    }
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((p, i) => i === 0 || p >= seen[i - 1]!)).toBe(true);
    await page
      .getByTestId('dataset-state')
      .getByText(`Frozen: ${2 * 288} rows`)
      .waitFor();

    const citation = await page.getByTestId('dataset-citation').textContent();
    expect(citation).toMatch(
      new RegExp(
        `^Fresh .+ \\(\\d{4}\\)\\. Two rooftops, two days \\(Version 1\\) \\[Data set\\]\\. Device Data Platform\\. http.+/dashboard/datasets/${id}$`,
      ),
    );
    await keepScreenshot(page, path.join(ARTIFACTS, `dataset-page-${width}.png`), { fullPage: true });

    // The manifest, downloaded as a person would, matches the checksum the page shows for it…
    const fetchFile = async (name: string) => {
      await page.getByTestId(`dataset-download-${name}`).click();
      const link = page.getByTestId(`dataset-link-${name}`);
      await link.waitFor();
      const response = await fetch((await link.getAttribute('href'))!);
      expect(response.status).toBe(200);
      return Buffer.from(await response.arrayBuffer());
    };
    const manifestBytes = await fetchFile('manifest.json');
    expect(sha256(manifestBytes)).toBe(await page.getByTestId('dataset-sha-manifest.json').textContent());
    const manifest = JSON.parse(manifestBytes.toString('utf8')) as {
      id: string;
      files: { name: string; sha256: string; bytes: number; rows: number }[];
    };
    expect(manifest.id).toBe(id);

    // …and a data file's bytes match the manifest's SHA-256 and row count, and the page's.
    const csvName = `${devices[0]!.id}.csv`;
    const csv = await fetchFile(csvName);
    const entry = manifest.files.find((file) => file.name === csvName)!;
    expect([sha256(csv), csv.length]).toEqual([entry.sha256, entry.bytes]);
    expect(await page.getByTestId(`dataset-sha-${csvName}`).textContent()).toBe(entry.sha256);
    const lines = csv.toString('utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe('timestamp,iso_time,pm2_5 (µg/m³),temperature (°C)');
    expect(lines.length - 1).toBe(entry.rows);
    expect(entry.rows).toBe(288);
  });

  it('offers every device a person holds, a page at a time: one past the first page is there after Load more', async () => {
    const person = await freshUser({ groups: ['Authenticated_users'], prefix: 'dataset' });
    const held = [];
    for (let i = 0; i <= DEFAULT_PAGE_SIZE; i++) held.push((await freshDevice({ ownerToken: person.token })).id);
    // Which one the list leaves for its second page is the API's order: asked of it, not assumed.
    const first = await apiAs('devices', person.token).listMine({ query: { limit: DEFAULT_PAGE_SIZE } });
    const onFirst = new Set(first.items.map((device) => device.id));
    const later = held.filter((id) => !onFirst.has(id));
    expect(later).toHaveLength(1);

    const page = testPage();
    await signInPerson(page, person, '/dashboard/datasets/new');
    const choices = page.getByTestId('dataset-devices');
    await choices.getByRole('checkbox').first().waitFor();
    expect(await choices.getByRole('checkbox').count()).toBe(DEFAULT_PAGE_SIZE);
    expect(await page.getByTestId(`dataset-device-${later[0]}`).count()).toBe(0);
    const more = page.getByTestId('dataset-devices-load-more');
    expect(await more.textContent()).toBe('Load more');
    await more.click();
    const last = page.getByTestId(`dataset-device-${later[0]}`);
    await last.waitFor();
    expect(await choices.getByRole('checkbox').count()).toBe(DEFAULT_PAGE_SIZE + 1);
    // The keyboard goes on from what the page brought: the focus is on its device, which can be chosen.
    await page.waitForFunction(
      (id) => (document.activeElement as HTMLElement | null)?.dataset.listItem === id,
      later[0]!,
    );
    expect(await more.count()).toBe(0);
    await last.check();
    expect(await last.isChecked()).toBe(true);
  });

  it("offers a campaign's devices for the campaigns the person manages only, not those they take part in", async () => {
    const person = await freshUser({ groups: ['Authenticated_users'], prefix: 'dataset-manager' });
    const other = await freshUser({ groups: ['Authenticated_users'], prefix: 'dataset-other' });
    const window = { startsAt: Date.now() - 86_400_000, endsAt: Date.now() + 10 * 86_400_000 };
    const managed = await apiAs('campaigns', person.token).create({
      body: { name: uniqueId('Managed study'), description: 'Air quality', ...window },
    });
    const joined = await apiAs('campaigns', other.token).create({
      body: { name: uniqueId('Joined study'), description: 'Air quality', ...window },
    });
    await apiAs('relations', other.token).create({
      body: { type: 'campaign-participant', referrerId: joined.id, referentId: person.id },
    });

    const page = testPage();
    await signInPerson(page, person, '/dashboard/datasets/new');
    await page.locator('#dataset-source').selectOption('campaign');
    const choice = page.locator('#dataset-campaign');
    await choice.locator(`option[value="${managed.id}"]`).waitFor({ state: 'attached' });
    expect(await choice.locator('option').allTextContents()).toEqual(['Choose a campaign you manage', managed.name]);
    await choice.selectOption(managed.id);
    expect(await choice.inputValue()).toBe(managed.id);
  });
});
