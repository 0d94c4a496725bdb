import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Series } from '../../../../shared/contracts/sensor-data-readings';
import { chartData } from './range-rules';

/** Appends points to a drawn chart without a React render: the live view's readings. */
export interface ChartHandle {
  append: (timestamp: number, value: number) => void;
}

const HEIGHT = 200;
const LINE = '#1d4ed8';
const BAND = 'rgba(29, 78, 216, 0.16)';

/**
 * One measurement's chart: min and max as a band, the mean as the line, the unit on the y axis. uPlot draws on a
 * canvas from typed arrays; React renders this component once per fetched series, never per point. When drawn,
 * the container gets `data-painted` and a `sensor-chart-painted` performance mark (the chart bench waits for it).
 */
export const SensorChart = forwardRef<ChartHandle, { series: Series; name: string; width: number }>(
  function SensorChart({ series, name, width }, ref) {
    const container = useRef<HTMLDivElement>(null);
    const plot = useRef<uPlot | null>(null);
    const columns = series.series[name]!;

    useEffect(() => {
      const element = container.current;
      if (!element) return;
      delete element.dataset.painted;
      const label = columns.unit ? `${columns.label} (${columns.unit})` : columns.label;
      const options: uPlot.Options = {
        width,
        height: HEIGHT,
        scales: { x: { time: true } },
        axes: [{}, { label, size: 64, labelSize: 18 }],
        legend: { show: true },
        series: [
          {},
          { label: 'min', stroke: BAND, width: 0, points: { show: false } },
          { label: 'max', stroke: BAND, width: 0, points: { show: false } },
          { label: 'mean', stroke: LINE, width: 1.5, points: { show: false } },
        ],
        bands: [{ series: [2, 1], fill: BAND }],
        hooks: {
          draw: [
            () => {
              element.dataset.painted = 'true';
              performance.mark('sensor-chart-painted');
            },
          ],
        },
      };
      const made = new uPlot(options, chartData(series, columns) as uPlot.AlignedData, element);
      plot.current = made;
      return () => {
        made.destroy();
        plot.current = null;
      };
    }, [series, columns, width]);

    useImperativeHandle(
      ref,
      () => ({
        append: (timestamp, value) => {
          const u = plot.current;
          if (!u) return;
          const [xs, ...ys] = u.data as unknown as [ArrayLike<number>, ...(number | null)[][]];
          const next = new Float64Array(xs.length + 1);
          next.set(xs as ArrayLike<number>);
          next[xs.length] = timestamp / 1000;
          u.setData([next, ...ys.map((column) => [...column, value])] as unknown as uPlot.AlignedData);
        },
      }),
      [],
    );

    return <div ref={container} className="sensor-chart" data-testid="sensor-chart" data-measurement={name} />;
  },
);
