import { useEffect, useMemo, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { CampaignSeries } from '../../../../shared/contracts/sensor-data-campaigns';
import { useTokens } from '../../lib/theme';
import { comparisonLines, PALETTE_SIZE, readoutText, styleOf } from './comparison-rules';

const HEIGHT = 240;
/** How near (CSS px) the pointer must come to a line to pick out its device. */
const FOCUS_PX = 16;
/** The other lines while one is picked out, on hover or from the legend. */
const DIMMED = 0.2;

const timeText = (ms: number) =>
  new Date(ms).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

export interface ComparisonChartProps {
  answer: CampaignSeries;
  measurement: CampaignSeries['measurements'][number];
  width: number;
  /** Each charted device's name and its place in the answer (which decides its colour and dash). */
  devices: ReadonlyMap<string, { name: string; style: number }>;
  /** Devices toggled off in the legend. */
  hidden: ReadonlySet<string>;
  /** The device picked out from the legend (pointer or keyboard focus on its entry). */
  picked: string | undefined;
  /** Charts of one comparison share a cursor: hovering one shows the same time on all. */
  syncKey: string;
}

/**
 * One measurement of a campaign's comparison: a mean line per device in its colour and dash (comparison-rules.ts),
 * broken only where that device was silent. Hovering picks out the nearest line and names its device, value and
 * time in the line above the canvas (text, not colour alone); the legend's toggles show and hide lines without
 * drawing the chart anew. When drawn, the container gets `data-painted` and a `comparison-chart-painted`
 * performance mark (the bench waits for them).
 */
export const ComparisonChart = ({
  answer,
  measurement,
  width,
  devices,
  hidden,
  picked,
  syncKey,
}: ComparisonChartProps) => {
  const container = useRef<HTMLDivElement>(null);
  const readout = useRef<HTMLParagraphElement>(null);
  const plot = useRef<uPlot | null>(null);
  // The line picked out from the legend now, so a chart just drawn (nothing picked) is not drawn again for nothing.
  const pickedNow = useRef<number | null>(null);
  const lines = useMemo(() => comparisonLines(answer, measurement.name), [answer, measurement.name]);
  const tokens = useTokens();
  const title = measurement.unit ? `${measurement.label} (${measurement.unit})` : measurement.label;
  // Read when the chart is made; later changes go through setSeries, without a new chart.
  const hiddenNow = useRef(hidden);
  hiddenNow.current = hidden;

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    delete element.dataset.painted;
    // Each colour read once: a style read per line would recompute the page's styles 50 times over.
    const colours = new Map(
      Array.from({ length: PALETTE_SIZE }, (_, i) => {
        const { token } = styleOf(i);
        return [token, tokens.read(token, '#2563eb')] as const;
      }),
    );
    const axis = {
      stroke: tokens.read('--chart-axis', '#3d4553'),
      grid: { stroke: tokens.read('--chart-grid', 'rgb(0 0 0 / 0.08)') },
      ticks: { stroke: tokens.read('--chart-grid', 'rgb(0 0 0 / 0.08)') },
    };
    const lineOf = (deviceId: string) => answer.devices.find((d) => d.deviceId === deviceId)?.series[measurement.name];
    // Thinner lines once there are many, so crossings stay readable.
    const lineWidth = lines.deviceIds.length > 10 ? 1.5 : 2;
    let focused: number | null = null;

    const say = (u: uPlot) => {
      const target = readout.current;
      if (!target) return;
      const row = focused === null ? null : (u.cursor.idxs?.[focused] ?? u.cursor.idx);
      const value = focused === null || row === null || row === undefined ? undefined : u.data[focused]![row];
      if (focused === null || value === null || value === undefined) {
        target.textContent = '';
        return;
      }
      const deviceId = lines.deviceIds[focused - 1]!;
      const unit = lineOf(deviceId)?.unit ?? measurement.unit;
      target.textContent = readoutText(
        devices.get(deviceId)?.name ?? deviceId,
        value,
        unit,
        timeText(u.data[0][row!]! * 1000),
      );
    };

    const options: uPlot.Options = {
      width,
      height: HEIGHT,
      // The range charted, not the data's extent: a device that began late shows where.
      scales: {
        x: { time: true, range: (_u, _min, max) => [answer.from / 1000, Math.max(answer.to / 1000, max)] },
      },
      axes: [axis, { ...axis, label: title, size: 64, labelSize: 18 }],
      legend: { show: false },
      focus: { alpha: DIMMED },
      cursor: {
        sync: { key: syncKey, setSeries: false },
        focus: { prox: FOCUS_PX },
        // The nearest real value of each line, never a break's "no value".
        hover: { skip: [null, undefined] },
      },
      series: [
        {},
        ...lines.deviceIds.map((deviceId, i) => {
          const style = styleOf(devices.get(deviceId)?.style ?? 0);
          const colour = colours.get(style.token)!;
          return {
            label: devices.get(deviceId)?.name ?? deviceId,
            show: !hiddenNow.current.has(deviceId),
            stroke: colour,
            width: lineWidth,
            dash: [...style.dash],
            points: { show: false, size: 6, fill: colour, filter: () => lines.isolated[i] ?? null },
          } satisfies uPlot.Series;
        }),
      ],
      hooks: {
        setSeries: [
          (_u, index, opts) => {
            // uPlot's type names the series options, but a focus change passes `{ focus }`.
            if ((opts as { focus?: boolean }).focus) focused = index;
          },
        ],
        setCursor: [say],
        draw: [
          () => {
            element.dataset.painted = 'true';
            performance.mark('comparison-chart-painted');
          },
        ],
      },
    };
    const made = new uPlot(options, lines.data as uPlot.AlignedData, element);
    plot.current = made;
    pickedNow.current = null;
    return () => {
      made.destroy();
      plot.current = null;
    };
  }, [answer, measurement, lines, width, tokens, devices, syncKey, title]);

  useEffect(() => {
    const u = plot.current;
    if (!u) return;
    lines.deviceIds.forEach((deviceId, i) => {
      const show = !hidden.has(deviceId);
      if (u.series[i + 1]!.show !== show) u.setSeries(i + 1, { show });
    });
  }, [hidden, lines]);

  useEffect(() => {
    const u = plot.current;
    if (!u) return;
    // A hidden line is not picked out: that would only dim the lines that are shown.
    const index = picked === undefined || hidden.has(picked) ? -1 : lines.deviceIds.indexOf(picked);
    const focus = index < 0 ? null : index + 1;
    if (focus === pickedNow.current) return;
    pickedNow.current = focus;
    // Not fired as the chart's own hover: the readout follows the pointer only.
    u.setSeries(focus, { focus: true }, false);
  }, [picked, hidden, lines]);

  return (
    <div className="comparison-measurement">
      <div className="comparison-chart-head">
        <h3 className="sensor-chart-title">{title}</h3>
        {lines.deviceIds.every((deviceId) => hidden.has(deviceId)) ? (
          <p className="comparison-readout small muted">Every device of this chart is hidden.</p>
        ) : (
          // Written by uPlot's cursor hook, not by React: it changes with every pointer move.
          <p ref={readout} className="comparison-readout small" data-testid="comparison-readout" />
        )}
      </div>
      <div
        ref={container}
        className="comparison-chart"
        data-testid="comparison-chart"
        data-measurement={measurement.name}
        data-devices={lines.deviceIds.join(',')}
      />
    </div>
  );
};
