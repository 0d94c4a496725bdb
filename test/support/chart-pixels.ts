import type { Locator } from 'playwright-core';

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
export const chartPixels = (chart: Locator): Promise<ChartPixels> =>
  chart.evaluate((element) => {
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
    const device = new Array<boolean>(width).fill(false);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 4;
        const [r, g, b, a] = [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
        if (a > 200 && r < 120 && g < 160 && b > 150 && b - r > 80) device[x] = true;
      }
    }
    // Back to CSS pixels: a column is drawn when any of its device pixels is.
    const cssWidth = Math.round(plot.width);
    const drawn = Array.from({ length: cssWidth }, (_, x) =>
      device
        .slice(Math.floor(x * ratio), Math.max(Math.floor(x * ratio) + 1, Math.floor((x + 1) * ratio)))
        .some(Boolean),
    );
    const breaks: { from: number; to: number }[] = [];
    const first = drawn.indexOf(true);
    const last = drawn.lastIndexOf(true);
    for (let x = first; first >= 0 && x < last; x++) {
      if (drawn[x]) continue;
      const from = x;
      while (!drawn[x]) x++;
      breaks.push({ from, to: x });
    }
    return { width: cssWidth, covered: drawn.filter(Boolean).length / cssWidth, breaks };
  });

/** The value uPlot's legend shows for one series ("mean") while the pointer is over the chart. */
export const legendValue = (chart: Locator, label: string): Promise<string> =>
  chart.evaluate((element, wanted) => {
    const row = [...element.querySelectorAll('.u-legend .u-series')].find(
      (r) => r.querySelector('.u-label')?.textContent?.trim() === wanted,
    );
    return row?.querySelector('.u-value')?.textContent?.trim() ?? '';
  }, label);
