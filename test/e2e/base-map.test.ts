import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page, Response } from 'playwright-core';
import { pagePerTest, web } from '../support/browser';
import { type MapPixels, mapPixels } from '../support/map-pixels';
import { openInteractiveMap, previewShowsDevice } from './registry-fixtures';

const testPage = pagePerTest();
/** Screenshots of what the test saw, kept by CI (git-ignored). */
const ARTIFACTS = path.resolve(import.meta.dirname, 'artifacts');
/** The demo's public lake buoy (infra/local/demo-data.ts), on Lake Union in Seattle: a guest may open its page. */
const BUOY = 'demo-device-2';

const save = (name: string, png: Buffer) => {
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(path.join(ARTIFACTS, `${name}-${page().viewportSize()?.width ?? 0}.png`), png);
};
const page = () => testPage();

/** Reads the map until `ready` holds (the view eases, then the worker tiles the base map), or gives up. */
const settle = async (target: Page, ready: (pixels: MapPixels) => boolean, timeout = 10_000) => {
  const map = target.getByTestId('devices-map-canvas');
  const until = Date.now() + timeout;
  for (;;) {
    const png = await map.screenshot();
    const pixels = await mapPixels(target, map, png);
    if (ready(pixels) || Date.now() > until) return { pixels, png };
    await target.waitForTimeout(250);
  }
};

describe('the offline base map', () => {
  it("draws land, water and coast around a guest's public device, borders and names when zoomed out (a phone's after a press)", async () => {
    const target = page();
    const baseMap: Response[] = [];
    target.on('response', (response) => {
      if (/\/assets\/base-map-[^/]+\.json$/.test(new URL(response.url()).pathname)) baseMap.push(response);
    });
    const started = Date.now();
    await target.goto(web(`/dashboard/devices/${BUOY}`));
    const figure = target.getByTestId('devices-map');
    await figure.waitFor();
    // The map loads when it comes near the window (decision 080), as a person scrolls to it.
    await figure.scrollIntoViewIfNeeded();
    if (target.viewportSize()!.width <= 640) {
      // A phone draws the plain plot first and loads MapLibre and the base map only when asked (decision 101).
      expect(await figure.getAttribute('data-mode')).toBe('preview');
      await previewShowsDevice(target, BUOY);
      await target.waitForTimeout(1_000);
      expect(baseMap).toHaveLength(0);
      await openInteractiveMap(target, 'keyboard');
    }
    // Chromium here renders WebGL 2 in software (SwiftShader): the map, not its fallback plot, must show; at a
    // desktop's width it loads by itself, with no press.
    expect(await figure.getAttribute('data-mode')).toBe('map');
    const map = target.locator('[data-testid="devices-map-canvas"][data-drawn="true"]');
    // Alone on this machine the map draws in a few seconds; with four engineers' suites on two cores, 20 s and more.
    await map.waitFor({ timeout: 60_000 });
    const drawnAfter = Date.now() - started;
    await map.scrollIntoViewIfNeeded();

    // Fitted to the buoy: Puget Sound and the land around it, the coast between them.
    const near = await settle(target, (pixels) => pixels.water > 0.05 && pixels.land > 0.05);
    save('base-map-device', near.png);
    expect(near.pixels.water).toBeGreaterThan(0.05);
    expect(near.pixels.land).toBeGreaterThan(0.2);
    expect(near.pixels.water + near.pixels.land).toBeGreaterThan(0.6);
    expect(near.pixels.coast).toBeGreaterThan(0.002);

    // Further out: the border between the United States and Canada, dashed across the land.
    const zoomOut = target.locator('.maplibregl-ctrl-zoom-out');
    for (let step = 0; step < 3; step++) await zoomOut.click();
    const far = await settle(target, (pixels) => pixels.border > 0.0005 && pixels.water > 0.1);
    save('base-map-region', far.png);
    expect(far.pixels.border).toBeGreaterThan(0.0005);
    expect(far.pixels.water).toBeGreaterThan(0.1);
    expect(far.pixels.land).toBeGreaterThan(0.1);

    // The world: the countries' names, drawn without any glyph file. A loaded machine draws each zoom step late and
    // a narrow map shows less of the world per zoom, so it zooms on out (to the world at most) until names show.
    for (let step = 0; step < 3; step++) await zoomOut.click();
    let world = await settle(target, (pixels) => pixels.label > 0.001);
    for (let more = 0; more < 4 && world.pixels.label <= 0.001; more++) {
      await zoomOut.click();
      world = await settle(target, (pixels) => pixels.label > 0.001);
    }
    save('base-map-world', world.png);
    expect(world.pixels.label).toBeGreaterThan(0.001);
    expect(world.pixels.land).toBeGreaterThan(0.1);

    // One file (the detailed one: the view is fitted to the buoy), fetched once and compressed on the wire, from the
    // web app's own origin.
    expect(baseMap).toHaveLength(1);
    const headers = await baseMap[0]!.allHeaders();
    expect(headers['content-type']).toMatch(/^application\/json/);
    expect(headers['content-encoding']).toMatch(/^(br|gzip)$/);
    console.log(
      `base map: ${headers['content-length']} bytes (${headers['content-encoding']}), map drawn ${drawnAfter} ms after navigation`,
      { near: near.pixels, far: far.pixels, world: world.pixels },
    );
  }, 120_000);
});
