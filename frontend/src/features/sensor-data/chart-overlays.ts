/**
 * What other features draw over a measurement's chart (docs/alerts.md, "Screens"): shaded periods (an alert's firing,
 * a preview's would-have-fired) and horizontal lines (a rule's limit and clear level). The chart draws them; what
 * they mean is the feature's that made them.
 */
export interface OverlayBand {
  from: number;
  /** Undefined: still going at the chart's end. */
  to?: number;
  label: string;
  tone: 'firing' | 'preview';
}

export interface OverlayLine {
  value: number;
  label: string;
  tone: 'limit' | 'clear';
}

export interface ChartOverlay {
  bands: OverlayBand[];
  lines: OverlayLine[];
}

/** Overlays by measurement name; `*` applies to every chart (a device's silence). */
export type ChartOverlays = Record<string, ChartOverlay>;

export const NO_OVERLAY: ChartOverlay = { bands: [], lines: [] };

/** The overlay of one measurement's chart: its own and the device-wide ones. */
export const overlayOf = (overlays: ChartOverlays | undefined, measurement: string): ChartOverlay => {
  const own = overlays?.[measurement] ?? NO_OVERLAY;
  const all = overlays?.['*'] ?? NO_OVERLAY;
  return { bands: [...all.bands, ...own.bands], lines: [...all.lines, ...own.lines] };
};
