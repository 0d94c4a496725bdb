import type { ChartOverlay } from './chart-overlays';

// Built at its first band, not as the module runs: a first DateTimeFormat loads the locale's data, about 90 ms of the
// main thread at Lighthouse's 4× slowdown in the task that ran the device page's chunks, for a caption most charts
// never show (issue 36, decision 109).
let time: Intl.DateTimeFormat | undefined;
const formatTime = (ms: number) => {
  time ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return time.format(ms);
};

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
          {band.label}: {formatTime(band.from)} – {band.to === undefined ? 'now' : formatTime(band.to)}
        </li>
      ))}
    </ul>
  );
