import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator } from 'playwright-core';
import { keepScreenshot, pagePerTest, web } from '../support/browser';
import { sha256, waitForDataset } from '../support/datasets';
import { freshUser } from '../support/people';
import { freshDevice, ingest, setTier } from '../support/sensor-data';
import { apiAs, areaUrl } from '../support/stack';

const testPage = pagePerTest();
const ARTIFACTS = path.resolve(import.meta.dirname, 'artifacts');
const MINUTE = 60_000;

/** Whether a card and every link, code line and button in it lie within the screen, the page not scrolling sideways. */
const fitsOnScreen = (card: Locator) =>
  card.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const inside = [...element.querySelectorAll('a, pre, button')].every((child) => {
      const rect = child.getBoundingClientRect();
      return rect.left >= box.left - 0.5 && rect.right <= box.right + 0.5;
    });
    return (
      inside &&
      box.left >= 0 &&
      box.right <= window.innerWidth &&
      document.documentElement.scrollWidth <= window.innerWidth
    );
  });

/**
 * "Use this data" (issue 41, docs/open-data.md) on a public dataset's landing page, as a guest sees it: the
 * SensorThings URL, which answers the dataset's device as a Thing; the Parquet file, whose bytes are the ones the
 * manifest's checksum names; and the Python and R lines that read that file. Then on the device's page: its Thing,
 * Parquet in the download panel, and lines whose URL answers its Observations. At the width the lane runs
 * (E2E_WIDTH: 1280 or 375), nothing in either card is wider than the screen.
 */
describe('end to end: "Use this data" on a public dataset and its device', () => {
  beforeAll(() => mkdirSync(ARTIFACTS, { recursive: true }));

  it('shows a guest the SensorThings URL that answers, the Parquet file of the manifest and the notebook lines', async () => {
    const maker = await freshUser({ prefix: 'open-data' });
    const buoy = await freshDevice({ productLine: 'al30', ownerToken: maker.token, visibility: 'public' });
    await setTier(buoy.id, 'tier1');
    // Readings every 5 minutes over the last two hours, through ingest (which names the device's measurements).
    const now = Math.floor(Date.now() / MINUTE) * MINUTE;
    await ingest(
      buoy,
      Array.from({ length: 24 }, (_, i) => ({
        timestamp: now - (24 - i) * 5 * MINUTE,
        values: { pm10: 5 + i, temperature: 4 + i / 10 },
      })),
    );
    const created = await apiAs('datasets', maker.token).createDataset({
      body: {
        title: 'Lake buoy for notebooks',
        visibility: 'public',
        source: { kind: 'devices', deviceIds: [buoy.id] },
        parquet: true,
      },
    });
    const { dataset } = await waitForDataset(created.id);
    const parquetName = `${buoy.id}.parquet`;
    const parquetEntry = dataset.files.find((file) => file.name === parquetName);
    expect(parquetEntry?.rows).toBe(24);

    const page = testPage();
    const width = page.viewportSize()!.width;
    await page.goto(web(`/dashboard/datasets/${dataset.id}`));
    const panel = page.getByTestId('use-data');
    await panel.getByRole('heading', { name: 'Use this data' }).waitFor();

    // The SensorThings URL is the guests' root (public data needs no key) and answers the buoy as a Thing.
    const staLink = panel.getByTestId('use-data-sta');
    const staUrl = `${areaUrl('sensor-data')}/sta/v1.1/Things('${buoy.id}')?$expand=Datastreams`;
    expect(await staLink.textContent()).toBe(staUrl);
    expect(await panel.getByTestId('use-data-sta-note').textContent()).toMatch(
      /^Any SensorThings client.+no key needed/,
    );
    const thing = await fetch((await staLink.getAttribute('href'))!);
    expect(thing.status).toBe(200);
    const body = (await thing.json()) as { '@iot.id': string; Datastreams: { '@iot.id': string }[] };
    expect(body['@iot.id']).toBe(buoy.id);
    expect(body.Datastreams.map((stream) => stream['@iot.id']).sort()).toEqual([
      `${buoy.id}~pm10`,
      `${buoy.id}~temperature`,
    ]);

    // The Parquet file: its link is signed on request, and what it serves is the file the manifest hashes.
    expect(await panel.getByTestId('use-data-parquet').textContent()).toContain(parquetName);
    await panel.getByTestId(`use-data-download-${parquetName}`).click();
    const link = panel.getByTestId(`use-data-link-${parquetName}`);
    await link.waitFor();
    expect(await link.textContent()).toBe(`Save ${parquetName}`);
    const file = Buffer.from(await (await fetch((await link.getAttribute('href'))!)).arrayBuffer());
    expect(file.subarray(0, 4).toString('latin1')).toBe('PAR1');
    expect(sha256(file)).toBe(parquetEntry!.sha256);
    expect(await page.getByTestId(`dataset-sha-${parquetName}`).textContent()).toBe(parquetEntry!.sha256);

    // One line of Python and one of R read that file.
    expect(await panel.getByTestId('use-data-python').textContent()).toBe(
      `import pandas as pd; df = pd.read_parquet("${parquetName}")`,
    );
    expect(await panel.getByTestId('use-data-r').textContent()).toBe(`df <- arrow::read_parquet("${parquetName}")`);

    // Nothing in it is wider than the screen: the URL and the lines wrap inside the panel.
    expect(await fitsOnScreen(panel)).toBe(true);
    await keepScreenshot(panel, path.join(ARTIFACTS, `open-data-panel-${width}.png`));

    // The device's own page: its Thing, Parquet from the download panel, and lines that read its Observations.
    await page.goto(web(`/dashboard/devices/${buoy.id}`));
    const devicePanel = page.getByTestId('use-data');
    await devicePanel.getByRole('heading', { name: 'Use this data' }).waitFor();
    expect(await devicePanel.getByTestId('use-data-sta').textContent()).toBe(staUrl);
    expect(await devicePanel.getByTestId('use-data-parquet').textContent()).toMatch(/In Download data, choose Parquet/);
    expect(await page.getByTestId('export-format').locator('option').allTextContents()).toEqual([
      'CSV',
      'JSON',
      'Parquet',
    ]);
    const python = (await devicePanel.getByTestId('use-data-python').textContent())!;
    const observationsUrl = /requests\.get\("([^"]+)"\)/.exec(python)?.[1];
    expect(observationsUrl).toBe(
      `${areaUrl('sensor-data')}/sta/v1.1/Things('${buoy.id}')/Datastreams` +
        '?$expand=Observations($orderby=phenomenonTime%20desc;$top=1000)',
    );
    expect(await devicePanel.getByTestId('use-data-r').textContent()).toContain(
      `jsonlite::fromJSON("${observationsUrl}")`,
    );
    // What the lines read: each Datastream with its readings, newest first.
    const streams = (await (await fetch(observationsUrl!)).json()) as {
      value: { '@iot.id': string; Observations: { result: number }[] }[];
    };
    const pm10 = streams.value.find((stream) => stream['@iot.id'] === `${buoy.id}~pm10`)!;
    expect(pm10.Observations.map((o) => o.result)).toEqual(Array.from({ length: 24 }, (_, i) => 5 + 23 - i));
    expect(await fitsOnScreen(devicePanel)).toBe(true);
    await keepScreenshot(devicePanel, path.join(ARTIFACTS, `open-data-device-panel-${width}.png`));
  });
});
