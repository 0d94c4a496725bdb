import { forwardRef, useEffect, useImperativeHandle, useMemo, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Series } from '../../../../shared/contracts/sensor-data-readings';
import { nextTask } from '../../lib/idle';
import { useTokens } from '../../lib/theme';
import type { ChartOverlay } from './chart-overlays';
import { type ChartPoint, lineOf, pointsOf } from './chart-rules';
import type { LockBand } from './lock-band-rules';
import { MARK_COLOURS, type QualityMark, qualityMarks } from './quality-rules';
import './lock-band.css';

/** Appends points to a drawn chart without a React render: the live view's readings. */
export interface ChartHandle {
  append: (timestamp: number, value: number) => void;
}

const HEIGHT = 200;

/** The locked band's shade: grey, apart from the blue line and its min/max band (the e2e reads it by colour). */
const LOCKED_FILL = { light: 'rgb(100 116 139 / 0.25)', dark: 'rgb(148 163 184 / 0.25)' } as const;

/**
 * The locked history (lock-band-rules.ts) shaded on the canvas under the axes and the line, and its label as text
 * over the plot, kept on the band at every redraw (a resize moves it).
 */
const lockedBandHooks = (lock: Pick<LockBand, 'from' | 'to' | 'label'>, fill: string): uPlot.Hooks.Arrays => {
  let label: HTMLDivElement | undefined;
  return {
    ready: [
      (u) => {
        label = document.createElement('div');
        label.className = 'sensor-lock-band';
        label.dataset.testid = 'sensor-lock-band';
        const text = document.createElement('span');
        text.textContent = lock.label;
        label.append(text);
        u.over.append(label);
      },
    ],
    drawClear: [
      (u) => {
        const left = Math.max(u.bbox.left, u.valToPos(lock.from / 1000, 'x', true));
        const right = Math.min(u.bbox.left + u.bbox.width, u.valToPos(lock.to / 1000, 'x', true));
        if (right <= left) return;
        u.ctx.save();
        u.ctx.fillStyle = fill;
        u.ctx.fillRect(left, u.bbox.top, right - left, u.bbox.height);
        u.ctx.restore();
      },
    ],
    draw: [
      (u) => {
        if (!label) return;
        const left = Math.max(0, u.valToPos(lock.from / 1000, 'x'));
        const right = Math.min(u.over.clientWidth, u.valToPos(lock.to / 1000, 'x'));
        label.style.left = `${left}px`;
        label.style.width = `${Math.max(0, right - left)}px`;
      },
    ],
  };
};

/**
 * The narrowest an overlay's period is drawn (CSS px): wide enough to show on both sides of the line's own rise and fall
 * at a short spike. At 5 px the line's two steep segments and the min/max band of the buckets the period straddles
 * covered most of it at 1280 px, so whether any of it showed depended on where the buckets fell.
 */
const MIN_BAND_PX = 8;

interface OverlayColours {
  firing: string;
  preview: string;
  limit: string;
  clear: string;
}

/**
 * Another feature's overlay (chart-overlays.ts): its periods shaded on the canvas under the axes and the line, its
 * lines dashed over the plot. The y scale reaches every line, so a limit above the data still shows.
 */
const overlayHooks = (overlay: ChartOverlay, colours: OverlayColours): uPlot.Hooks.Arrays => ({
  drawClear: [
    (u) => {
      const right = u.bbox.left + u.bbox.width;
      u.ctx.save();
      for (const band of overlay.bands) {
        const from = Math.max(u.bbox.left, u.valToPos(band.from / 1000, 'x', true));
        const to = band.to === undefined ? right : Math.min(right, u.valToPos(band.to / 1000, 'x', true));
        if (to < u.bbox.left || from > right) continue;
        // A period too short to see at this range (20 minutes of 7 days is under a pixel, and under the min/max
        // band there) is drawn MIN_BAND_PX wide around its middle, so a person still finds it.
        const least = MIN_BAND_PX * devicePixelRatio;
        const start = to - from >= least ? from : Math.max(u.bbox.left, (from + to) / 2 - least / 2);
        u.ctx.fillStyle = colours[band.tone];
        u.ctx.fillRect(start, u.bbox.top, Math.max(to - start, least), u.bbox.height);
      }
      u.ctx.restore();
    },
  ],
  draw: [
    (u) => {
      u.ctx.save();
      u.ctx.lineWidth = Math.max(1, devicePixelRatio);
      u.ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
      for (const line of overlay.lines) {
        const y = Math.round(u.valToPos(line.value, 'y', true)) + 0.5;
        if (y < u.bbox.top || y > u.bbox.top + u.bbox.height) continue;
        u.ctx.strokeStyle = colours[line.tone];
        u.ctx.beginPath();
        u.ctx.moveTo(u.bbox.left, y);
        u.ctx.lineTo(u.bbox.left + u.bbox.width, y);
        u.ctx.stroke();
      }
      u.ctx.restore();
    },
  ],
});

/** Suspect and bad readings drawn where their bucket's highest value is, under the line. */
const qualityMarkHook = (marks: readonly QualityMark[]) => (u: uPlot) => {
  const radius = 4.5 * uPlot.pxRatio;
  u.ctx.save();
  u.ctx.lineWidth = 2 * uPlot.pxRatio;
  for (const mark of marks) {
    const x = u.valToPos(mark.x / 1000, 'x', true);
    const y = u.valToPos(mark.y, 'y', true);
    u.ctx.beginPath();
    u.ctx.arc(x, y, radius, 0, 2 * Math.PI);
    if (mark.kind === 'bad') {
      u.ctx.fillStyle = MARK_COLOURS.bad;
      u.ctx.fill();
    } else {
      u.ctx.strokeStyle = MARK_COLOURS.suspect;
      u.ctx.stroke();
    }
  }
  u.ctx.restore();
};

/**
 * One measurement's chart: min and max as a band, the mean as the line, the unit on the y axis, over the range
 * asked for. The line is broken only where the device was silent (the series' `gapMs`), and a value with no
 * neighbour shows as a point. uPlot draws on a canvas from typed arrays; React renders this component once per
 * fetched series, never per point. When drawn, the container gets `data-painted` and a `sensor-chart-painted`
 * performance mark (the chart bench waits for it).
 */
export const SensorChart = forwardRef<
  ChartHandle,
  {
    series: Series;
    name: string;
    width: number;
    lock?: Pick<LockBand, 'from' | 'to' | 'label'>;
    /** Periods and lines another feature draws over the chart (an alert's firing, a rule's limit). */
    overlay?: ChartOverlay;
    /** A range dragged across the plot (ms): where a person may exclude readings, the form takes it. */
    onSelect?: (from: number, to: number) => void;
  }
>(function SensorChart({ series, name, width, lock, overlay, onSelect }, ref) {
  const container = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const line = useRef<{ points: ChartPoint[]; isolated: number[]; data: uPlot.AlignedData }>({
    points: [],
    isolated: [],
    data: [[]],
  });
  const columns = series.series[name]!;
  // The colours come from the theme's tokens (app/tokens.css), read again when the scheme changes.
  const tokens = useTokens();
  // Primitives, so a band recomputed with the same place and text draws nothing again.
  const lockFrom = lock?.from;
  const lockTo = lock?.to;
  const lockLabel = lock?.label;
  // Compared by content: a panel that works its overlay out again on each render draws nothing again.
  const overlayKey = JSON.stringify(overlay ?? null);
  // Read at the drag's end, so a new callback does not draw the chart again.
  const selected = useRef(onSelect);
  selected.current = onSelect;
  const selectable = onSelect !== undefined;

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    delete element.dataset.painted;
    const lineColour = tokens.read('--chart-line', '#1d4ed8');
    const bandColour = tokens.read('--chart-band', 'rgb(29 78 216 / 0.16)');
    const axis = {
      stroke: tokens.read('--chart-axis', '#3d4553'),
      grid: { stroke: tokens.read('--chart-grid', 'rgb(0 0 0 / 0.08)') },
      ticks: { stroke: tokens.read('--chart-grid', 'rgb(0 0 0 / 0.08)') },
    };
    const points = pointsOf(series, columns);
    const marks = qualityMarks(series, columns);
    const drawn = lineOf(points, columns.gapMs);
    line.current = { points, isolated: drawn.isolated, data: drawn.data as uPlot.AlignedData };
    const label = columns.unit ? `${columns.label} (${columns.unit})` : columns.label;
    const locked =
      lockFrom !== undefined && lockTo !== undefined && lockLabel !== undefined
        ? { from: lockFrom, to: lockTo, label: lockLabel }
        : undefined;
    // The series starts at the tier's window; a locked band before it widens the chart to the range asked for.
    const start = Math.min(series.from, locked?.from ?? series.from);
    const lockedHooks = locked ? lockedBandHooks(locked, LOCKED_FILL[tokens.scheme]) : {};
    const overlayDrawn = JSON.parse(overlayKey) as ChartOverlay | null;
    const overlaid = overlayDrawn
      ? overlayHooks(overlayDrawn, {
          firing: tokens.read('--chart-firing', 'rgb(220 38 38 / 0.2)'),
          preview: tokens.read('--chart-preview', 'rgb(234 88 12 / 0.24)'),
          limit: tokens.read('--chart-limit', '#b91c1c'),
          clear: tokens.read('--chart-clear', '#15803d'),
        })
      : {};
    const levels = overlayDrawn?.lines.map((line) => line.value) ?? [];
    const options: uPlot.Options = {
      width,
      height: HEIGHT,
      // The range asked for, not the data's extent: a device that began reporting mid-range shows where.
      scales: {
        x: { time: true, range: (_u, _min, max) => [start / 1000, Math.max(series.to / 1000, max)] },
        ...(levels.length
          ? {
              y: {
                range: (_u, min, max) =>
                  uPlot.rangeNum(
                    Math.min(min ?? Infinity, ...levels),
                    Math.max(max ?? -Infinity, ...levels),
                    0.1,
                    true,
                  ),
              },
            }
          : {}),
      },
      axes: [axis, { ...axis, label, size: 64, labelSize: 18 }],
      legend: { show: true },
      // Hovering a break shows the nearest real value rather than "--". Where the viewer may exclude data, dragging
      // selects the range for the form instead of zooming.
      cursor: {
        hover: { skip: [null, undefined] },
        ...(selectable ? { drag: { x: true, y: false, setScale: false } } : {}),
      },
      series: [
        {},
        { label: 'min', stroke: bandColour, width: 0, points: { show: false } },
        { label: 'max', stroke: bandColour, width: 0, points: { show: false } },
        {
          label: 'mean',
          stroke: lineColour,
          width: 2,
          points: { show: false, size: 7, fill: lineColour, filter: () => line.current.isolated },
        },
      ],
      bands: [{ series: [2, 1], fill: bandColour }],
      hooks: {
        ...lockedHooks,
        drawClear: [...(lockedHooks.drawClear ?? []), ...(overlaid.drawClear ?? [])],
        setSelect: [
          (u) => {
            if (u.select.width < 3) return;
            const from = u.posToVal(u.select.left, 'x') * 1000;
            const to = u.posToVal(u.select.left + u.select.width, 'x') * 1000;
            selected.current?.(Math.round(from), Math.round(to));
          },
        ],
        // Under the line, so a mark never breaks it (a break means a silence, docs/sensor-data.md "Gaps").
        drawAxes: [qualityMarkHook(marks)],
        draw: [
          ...(lockedHooks.draw ?? []),
          ...(overlaid.draw ?? []),
          () => {
            element.dataset.painted = 'true';
            performance.mark('sensor-chart-painted');
          },
        ],
      },
    };
    // Each chart is made in a task of its own (uPlot lays out and paints as it is made): the device page's five
    // charts made in the commit that revealed them held a phone's main thread for 0.7 s at once (issue 36). Made
    // from the line as it is then, with what the live view appended meanwhile.
    let made: uPlot | undefined;
    const cancel = nextTask(() => {
      made = new uPlot(options, line.current.data, element);
      plot.current = made;
    });
    return () => {
      cancel();
      made?.destroy();
      plot.current = null;
    };
  }, [series, columns, width, tokens, lockFrom, lockTo, lockLabel, overlayKey, selectable]);

  useImperativeHandle(
    ref,
    () => ({
      append: (timestamp, value) => {
        const points = [...line.current.points, { x: timestamp, min: value, max: value, mean: value }];
        const drawn = lineOf(points, columns.gapMs);
        line.current = { points, isolated: drawn.isolated, data: drawn.data as uPlot.AlignedData };
        plot.current?.setData(line.current.data);
      },
    }),
    [columns.gapMs],
  );

  const counts = useMemo(() => {
    const marks = qualityMarks(series, columns);
    return {
      suspect: marks.filter((m) => m.kind === 'suspect').length,
      bad: marks.filter((m) => m.kind === 'bad').length,
    };
  }, [series, columns]);

  return (
    <>
      <div ref={container} className="sensor-chart" data-testid="sensor-chart" data-measurement={name} />
      {counts.suspect + counts.bad > 0 && (
        <p className="quality-legend small" data-testid="quality-legend">
          <span className="quality-key suspect" aria-hidden="true" /> Suspect: {points(counts.suspect)}
          <span className="quality-key bad" aria-hidden="true" /> Bad: {points(counts.bad)}
        </p>
      )}
    </>
  );
});

const points = (n: number) => `${n} ${n === 1 ? 'point' : 'points'}`;
