import type { Locator, Page } from 'playwright-core';

/** The share (0 to 1) of a map's pixels in each of the base map's colours, as a person sees the map. */
export interface MapPixels {
  width: number;
  height: number;
  water: number;
  land: number;
  /** Coastline pixels: the coast colour, anti-aliased edges included. */
  coast: number;
  /** Border pixels (dashed, so fewer than a solid line of the same length). */
  border: number;
  /** Label pixels: the names' text colour, anti-aliased (the halo is the land's colour). */
  label: number;
  /** Distinct colours (to 4 bits a channel): a blank or one-colour canvas has one or two. */
  colours: number;
}

/**
 * Reads a map as it is on screen: a screenshot of the element (WebGL keeps no drawing buffer to read back, and a
 * screenshot is what a person sees, controls and points included), decoded by the page itself from a `data:` image
 * (allowed by the CSP's img-src, unlike a fetch), each pixel matched against the theme's map tokens. A pixel is
 * water or land when every channel lies within `flat` of the token (fills are flat colours); coast or border when
 * within `line` (lines and text are anti-aliased against the fills around them).
 */
export const mapPixels = async (page: Page, map: Locator, png?: Buffer, flat = 10, line = 40): Promise<MapPixels> => {
  const shot = png ?? (await map.screenshot());
  return page.evaluate(
    async ({ data, flat, line }) => {
      const image = new Image();
      image.src = `data:image/png;base64,${data}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      const context = canvas.getContext('2d', { willReadFrequently: true })!;
      context.drawImage(image, 0, 0);
      const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
      const token = (name: string) => {
        // The browser turns any CSS colour into rgb(): a probe element computes the token's value.
        const probe = document.createElement('span');
        probe.style.color = `var(${name})`;
        document.body.append(probe);
        const rgb = (getComputedStyle(probe).color.match(/\d+/g) ?? []).slice(0, 3).map(Number);
        probe.remove();
        return rgb;
      };
      const water = token('--map-bg');
      const land = token('--map-land');
      const coast = token('--map-coast');
      const border = token('--map-border');
      const label = token('--map-label');
      const near = (i: number, rgb: number[], tolerance: number) =>
        Math.abs(pixels[i]! - rgb[0]!) <= tolerance &&
        Math.abs(pixels[i + 1]! - rgb[1]!) <= tolerance &&
        Math.abs(pixels[i + 2]! - rgb[2]!) <= tolerance;
      const counts = { water: 0, land: 0, coast: 0, border: 0, label: 0 };
      const colours = new Set<number>();
      const total = canvas.width * canvas.height;
      for (let i = 0; i < pixels.length; i += 4) {
        colours.add(((pixels[i]! >> 4) << 8) | ((pixels[i + 1]! >> 4) << 4) | (pixels[i + 2]! >> 4));
        if (near(i, water, flat)) counts.water++;
        else if (near(i, land, flat)) counts.land++;
        else if (near(i, coast, line)) counts.coast++;
        else if (near(i, border, line)) counts.border++;
        else if (near(i, label, line)) counts.label++;
      }
      return {
        width: canvas.width,
        height: canvas.height,
        water: counts.water / total,
        land: counts.land / total,
        coast: counts.coast / total,
        border: counts.border / total,
        label: counts.label / total,
        colours: colours.size,
      };
    },
    { data: shot.toString('base64'), flat, line },
  );
};
