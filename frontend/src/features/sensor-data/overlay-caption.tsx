import type { ChartOverlay } from './chart-overlays';

const TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** What a chart's overlay shows, in words: the canvas's shades and lines for whoever cannot see them. */
export const OverlayCaption = ({ overlay, testId }: { overlay: ChartOverlay; testId: string }) =>
  overlay.bands.length + overlay.lines.length > 0 && (
    <ul className="sensor-overlay-caption muted small" data-testid={testId}>
      {overlay.lines.map((line) => (
        <li key={`${line.tone}-${line.label}-${line.value}`}>
          <span className={`sensor-overlay-key sensor-overlay-${line.tone}`} aria-hidden="true" />
          {line.label}
        </li>
      ))}
      {overlay.bands.map((band) => (
        <li key={`${band.tone}-${band.from}`}>
          <span className={`sensor-overlay-key sensor-overlay-${band.tone}`} aria-hidden="true" />
          {band.label}: {TIME.format(band.from)} – {band.to === undefined ? 'now' : TIME.format(band.to)}
        </li>
      ))}
    </ul>
  );
