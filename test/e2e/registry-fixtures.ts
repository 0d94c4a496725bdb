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
 * in the map's list of links), else the fallback plot and list with the device's link. Answers the mode shown.
 */
export const mapShowsDevice = async (page: Page, deviceId: string): Promise<'map' | 'fallback'> => {
  const map = page.getByTestId('devices-map');
  await map.waitFor();
  // The map loads when it comes near the window (decision 080): a person scrolls to it to see it.
  await map.scrollIntoViewIfNeeded();
  const mode = (await map.getAttribute('data-mode')) as 'map' | 'fallback';
  await page.getByTestId(`devices-map-item-${deviceId}`).waitFor({ state: 'attached' });
  if (mode === 'fallback') {
    await page.getByTestId('devices-map-fallback-reason').waitFor();
    await page.getByTestId(`devices-map-point-${deviceId}`).waitFor({ state: 'attached' });
  } else {
    await page.locator('[data-testid="devices-map-canvas"] canvas').waitFor();
  }
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
