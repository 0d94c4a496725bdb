import { deflateSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { apiAs, tokenOf, uniqueId } from '../support/stack';

/**
 * What the registry end-to-end tests share: a device registered through the API (as the demo distributor, who
 * may register; registering changes no account), a real PNG made in memory, and the map's two renderings.
 */

/** A serial the contract accepts (upper-case letters, digits, inner dashes; at most 32) and no one else has. */
export const uniqueSerial = (prefix = 'E2E') =>
  uniqueId(prefix)
    .toUpperCase()
    .replace(/[^A-Z0-9-]/g, '')
    .slice(0, 32);

/** Registers a serial as the demo distributor; answers the device and its one-time claim code. */
export const registerDevice = async (serial = uniqueSerial()) => {
  const devices = apiAs('devices', await tokenOf('distributor@example.com'));
  return devices.register({ body: { serial, productLine: 'al30', model: 'AL30-E2E', firmwareVersion: '1.0.0' } });
};

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Buffer) => {
  let c = 0xffffffff;
  for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type: string, data: Buffer) => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};

/** A real PNG (8-bit RGB, a two-colour diagonal), small enough for any logo limit. */
export const pngImage = (size = 32): Buffer => {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc(size * (1 + size * 3));
  for (let y = 0; y < size; y++) {
    const row = y * (1 + size * 3);
    for (let x = 0; x < size; x++) {
      const colour = x > y ? [31, 95, 191] : [26, 127, 55];
      rows.set(colour, row + 1 + x * 3);
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
};

/** Chooses a file through the page's file chooser, as a person does (a click on the file input). */
export const chooseFile = async (
  page: Page,
  testId: string,
  file: { name: string; mimeType: string; buffer: Buffer },
) => {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId(testId).click()]);
  await chooser.setFiles(file);
};

/**
 * Waits until the devices map shows a device: the MapLibre canvas where the browser has WebGL (the device is then
 * in the map's list of links), else the fallback plot and list with the device's link. On a phone the map starts as
 * its preview (decision 101): the device's point is seen on the plot, then the person opens the interactive map.
 * Answers the mode shown at the end.
 */
export const mapShowsDevice = async (page: Page, deviceId: string): Promise<'map' | 'fallback'> => {
  const map = page.getByTestId('devices-map');
  await map.waitFor();
  // The map loads when it comes near the window (decision 080): a person scrolls to it to see it.
  await map.scrollIntoViewIfNeeded();
  let mode = (await map.getAttribute('data-mode')) as 'preview' | 'map' | 'fallback';
  await page.getByTestId(`devices-map-item-${deviceId}`).waitFor({ state: 'attached' });
  if (mode === 'preview') {
    await previewShowsDevice(page, deviceId);
    mode = await openInteractiveMap(page);
  }
  if (mode === 'fallback') {
    await page.getByTestId('devices-map-fallback-reason').waitFor();
    await page.getByTestId(`devices-map-point-${deviceId}`).waitFor({ state: 'attached' });
  } else {
    await page.locator('[data-testid="devices-map-canvas"] canvas').waitFor();
  }
  return mode;
};

/**
 * A phone's preview of the map (decision 101): the plain plot with its caption, no "no WebGL" notice, the device's
 * point drawn in the plot's frame in its status colour, and no interactive map loaded yet.
 */
export const previewShowsDevice = async (page: Page, deviceId: string) => {
  const preview = page.getByTestId('devices-map-preview');
  await page.getByTestId('devices-map-preview-caption').getByText('The devices on a plain plot').waitFor();
  const point = page.getByTestId(`devices-map-point-${deviceId}`);
  await point.waitFor();
  const [frame, dot] = [(await preview.boundingBox())!, (await point.boundingBox())!];
  expect(dot.width).toBeGreaterThan(5);
  expect(dot.x >= frame.x && dot.x + dot.width <= frame.x + frame.width).toBe(true);
  expect(dot.y >= frame.y && dot.y + dot.height <= frame.y + frame.height).toBe(true);
  // The point as a person sees it: the centre pixel of its screenshot is its status colour.
  const fill = (await point.locator('circle').getAttribute('fill'))!;
  const centre = await page.evaluate(
    async (data) => {
      const image = new Image();
      image.src = `data:image/png;base64,${data}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      [canvas.width, canvas.height] = [image.naturalWidth, image.naturalHeight];
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0);
      return [...context.getImageData(canvas.width >> 1, canvas.height >> 1, 1, 1).data.slice(0, 3)];
    },
    (await point.screenshot()).toString('base64'),
  );
  const expected = [1, 3, 5].map((at) => Number.parseInt(fill.slice(at, at + 2), 16));
  expect({ fill, centre, near: centre.every((value, at) => Math.abs(value - expected[at]!) <= 12) }).toEqual({
    fill,
    centre,
    near: true,
  });
  expect(await page.getByTestId('devices-map-fallback-reason').count()).toBe(0);
  expect(await page.getByTestId('devices-map-canvas').count()).toBe(0);
};

/**
 * Presses the preview's button (a touch target, 44 px tall at least), with a click or from the keyboard (Tab from the
 * point before it, then Enter), and sees the interactive map open in its place: the focus on the map's region, and
 * what follows the map (its legend) where it was. A browser without WebGL (asked only at the press, decision 104)
 * shows the plain plot with the notice saying why instead, the focus on that notice. Answers the mode shown.
 */
export const openInteractiveMap = async (page: Page, by: 'click' | 'keyboard' = 'click') => {
  const open = page.getByTestId('devices-map-open');
  expect(await open.textContent()).toBe('Open the interactive map');
  expect((await open.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  const legend = page.locator('[data-testid="devices-map"] .map-legend');
  const before = (await legend.boundingBox())!.y;
  if (by === 'click') {
    await open.click();
  } else {
    await page.locator('[data-testid="devices-map-preview"] svg a').last().focus();
    await page.keyboard.press('Tab');
    expect(await open.evaluate((button) => button === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
  }
  await page.locator('[data-testid="devices-map"]:is([data-mode="map"], [data-mode="fallback"])').waitFor();
  const mode = (await page.getByTestId('devices-map').getAttribute('data-mode')) as 'map' | 'fallback';
  const focused = mode === 'map' ? 'devices-map-canvas' : 'devices-map-fallback-reason';
  await page.waitForFunction((id) => document.activeElement?.getAttribute('data-testid') === id, focused);
  if (mode === 'map') expect((await legend.boundingBox())!.y).toBeCloseTo(before, 0);
  return mode;
};

/**
 * On a map of one device (fitted, so the device sits at the centre), a click on the device opens its popup with
 * the device's link. Only where the browser has WebGL.
 */
export const openPopupAtCentre = async (page: Page, deviceId: string) => {
  await page.getByTestId('devices-map-canvas').scrollIntoViewIfNeeded();
  const canvas = page.locator('[data-testid="devices-map-canvas"][data-drawn="true"] canvas');
  await canvas.waitFor();
  await canvas.scrollIntoViewIfNeeded();
  const box = (await canvas.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.getByTestId('devices-map-popup').waitFor();
  return page.getByTestId(`devices-map-link-${deviceId}`);
};

/** Makes the page's browser one without WebGL, as some machines and locked-down browsers are. */
export const withoutWebGl = (page: Page) =>
  page.addInitScript(() => {
    const original = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (this: HTMLCanvasElement, kind: string, ...rest: unknown[]) {
      if (kind.startsWith('webgl') || kind === 'experimental-webgl') return null;
      return (original as (...args: unknown[]) => unknown).call(this, kind, ...rest);
    } as typeof original;
  });
