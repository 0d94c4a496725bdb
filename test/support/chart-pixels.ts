import type { Locator, Page } from 'playwright-core';

/**
 * Does `act` (a click or key press that chooses the device page's range), waits for its `/series` answer and for every
 * chart of that answer to be drawn, and answers those charts.
 */
export const chartsDrawnAfter = async (page: Page, act: () => Promise<unknown>): Promise<Locator[]> => {
  const answered = page.waitForResponse((r) => r.url().includes('/series') && r.request().method() === 'GET');
  await act();
  const count = Object.keys((await (await answered).json()).series).length;
  await page
    .locator('[data-testid="sensor-chart"][data-painted]')
    .nth(count - 1)
    .waitFor();
  return (await page.getByTestId('sensor-chart').all()).slice(0, count);
};

/** What a person sees of a chart's line, read from the canvas pixels of its plot area (CSS pixels). */
export interface ChartPixels {
  /** The plot area's width. */
  width: number;
  /** The share of the plot area's columns in which the line (or a point of it) is drawn, 0 to 1. */
  covered: number;
  /** Runs of columns without the line that have line on both sides: where the line is broken. */
  breaks: { from: number; to: number }[];
}

/**
 * Reads one uPlot chart (a `[data-testid=sensor-chart]` element) as a person would see it: which columns of its
 * plot area hold a pixel of the mean line's colour (#1d4ed8, anti-aliased edges included, the pale min/max band
 * not). A chart that draws no line covers nothing, whatever its canvas holds.
 */
export const chartPixels = (chart: Locator): Promise<ChartPixels> => readLine(chart);

/** What a person sees of one line of a given colour: as ChartPixels, and where (CSS px) the line is in each column. */
export interface LinePixels extends ChartPixels {
  /** Per column of the plot area, the middle of the line's pixels from the plot's top (CSS px); null where none. */
  ys: (number | null)[];
  /** Per column, the line's highest pixel (CSS px from the plot's top); null where none. */
  tops: (number | null)[];
}

/**
 * Reads the line of one colour (`rgb(r, g, b)`, as getComputedStyle gives it) from a uPlot chart of several lines,
 * e.g. a campaign comparison's: a pixel is the line's when each channel lies within `tolerance` of it, opaque
 * (other lines and the grid are other colours; the anti-aliased edges blend and are left out).
 */
export const linePixels = (chart: Locator, colour: string, tolerance = 40): Promise<LinePixels> =>
  readLine(chart, { rgb: (colour.match(/\d+/g) ?? []).slice(0, 3).map(Number) as [number, number, number], tolerance });

const readLine = (chart: Locator, wanted?: { rgb: [number, number, number]; tolerance: number }) =>
  chart.evaluate((element, match) => {
    const canvas = element.querySelector('canvas');
    const over = element.querySelector('.u-over');
    if (!canvas || !over) throw new Error('No uPlot canvas in this chart');
    const box = canvas.getBoundingClientRect();
    const plot = over.getBoundingClientRect();
    const ratio = canvas.width / box.width;
    const left = Math.round((plot.left - box.left) * ratio);
    const top = Math.round((plot.top - box.top) * ratio);
    const width = Math.round(plot.width * ratio);
    const height = Math.round(plot.height * ratio);
    const { data } = canvas.getContext('2d')!.getImageData(left, top, width, height);
    const isLine = match
      ? (r: number, g: number, b: number, a: number) =>
          a > 200 &&
          Math.abs(r - match.rgb[0]) <= match.tolerance &&
          Math.abs(g - match.rgb[1]) <= match.tolerance &&
          Math.abs(b - match.rgb[2]) <= match.tolerance
      : (r: number, g: number, b: number, a: number) => a > 200 && r < 120 && g < 160 && b > 150 && b - r > 80;
    const rows: number[][] = Array.from({ length: width }, () => []);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 4;
        if (isLine(data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!)) rows[x]!.push(y);
      }
    }
    // Back to CSS pixels: a column is drawn when any of its device pixels is.
    const cssWidth = Math.round(plot.width);
    const columnsOf = (x: number) =>
      rows.slice(Math.floor(x * ratio), Math.max(Math.floor(x * ratio) + 1, Math.floor((x + 1) * ratio))).flat();
    const ys = Array.from({ length: cssWidth }, (_, x) => {
      const found = columnsOf(x);
      return found.length ? found.reduce((sum, y) => sum + y, 0) / found.length / ratio : null;
    });
    const tops = Array.from({ length: cssWidth }, (_, x) => {
      const found = columnsOf(x);
      return found.length ? Math.min(...found) / ratio : null;
    });
    const drawn = ys.map((y) => y !== null);
    const breaks: { from: number; to: number }[] = [];
    const first = drawn.indexOf(true);
    const last = drawn.lastIndexOf(true);
    for (let x = first; first >= 0 && x < last; x++) {
      if (drawn[x]) continue;
      const from = x;
      while (!drawn[x]) x++;
      breaks.push({ from, to: x });
    }
    return { width: cssWidth, covered: drawn.filter(Boolean).length / cssWidth, breaks, ys, tops };
  }, wanted);

/**
 * An element's text (trimmed) once it `matches`, or as it reads after `frames` animation frames: uPlot writes its
 * legend and a chart's readout as a pointer move reaches the chart, which a busy renderer hands on a frame or two late.
 */
export const textOnce = (element: Locator, matches: RegExp, frames = 5): Promise<string> =>
  element.evaluate(
    (node, { source, flags, frames: most }) => {
      const pattern = new RegExp(source, flags);
      return new Promise<string>((resolve) => {
        let seen = 0;
        const look = () => {
          const text = node.textContent?.trim() ?? '';
          if (pattern.test(text) || ++seen > most) resolve(text);
          else requestAnimationFrame(look);
        };
        look();
      });
    },
    { source: matches.source, flags: matches.flags, frames },
  );

/** The legend's value for one series ("mean") once it `matches` (`textOnce`). */
export const legendValueOnce = (chart: Locator, label: string, matches: RegExp): Promise<string> =>
  textOnce(
    chart
      .locator('.u-legend .u-series')
      .filter({ has: chart.page().locator('.u-label', { hasText: new RegExp(`^${label}$`) }) })
      .locator('.u-value'),
    matches,
  );

/**
 * Which columns of a chart's plot area a translucent shade of `rgb` covers, as a person sees it (an alert's firing
 * period, a preview's would-have-fired): a column is shaded when most of its pixels hold that colour at a low alpha
 * (the line and its min/max band are blue, the grid near-transparent black, the background transparent).
 */
export const shadeColumns = (chart: Locator, rgb: [number, number, number]): Promise<boolean[]> =>
  chart.evaluate((element, wanted) => {
    const canvas = element.querySelector('canvas')!;
    const over = element.querySelector('.u-over')!;
    const box = canvas.getBoundingClientRect();
    const plot = over.getBoundingClientRect();
    const ratio = canvas.width / box.width;
    const left = Math.round((plot.left - box.left) * ratio);
    const top = Math.round((plot.top - box.top) * ratio);
    const width = Math.round(plot.width * ratio);
    const height = Math.round(plot.height * ratio);
    const { data } = canvas.getContext('2d')!.getImageData(left, top, width, height);
    const shaded = (x: number) => {
      let count = 0;
      for (let y = 0; y < height; y++) {
        const i = (y * width + x) * 4;
        const [r, g, b, a] = [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
        if (a >= 30 && a <= 120 && Math.abs(r - wanted[0]) + Math.abs(g - wanted[1]) + Math.abs(b - wanted[2]) <= 90) {
          count++;
        }
      }
      return count / height > 0.6;
    };
    return Array.from({ length: Math.round(plot.width) }, (_, x) => shaded(Math.min(width - 1, Math.floor(x * ratio))));
  }, rgb);
