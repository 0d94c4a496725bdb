import { useQuery } from '@tanstack/react-query';
import { labelOf } from '../../../../shared/sensor-data/measurements';
import { ErrorAlert } from '../../components/form-parts';
import { errorMessage } from '../../lib/error-message';
import { routeQuery } from '../../lib/query';
import type { ChartOverlay } from './chart-overlays';
import { OverlayCaption } from './overlay-caption';
import { SensorChart } from './sensor-chart';
import { useWidth } from './use-width';
import './sensor-data.css';

/**
 * One measurement of a device over a range with an overlay drawn on it, for a screen outside the sensor-data panel
 * (the alert rule form's preview marks). The same series and chart as the panel's, with the same tier gates.
 */
export const OverlayChart = ({
  deviceId,
  measurement,
  from,
  to,
  overlay,
  testId,
}: {
  deviceId: string;
  measurement: string;
  from: number;
  to: number;
  overlay: ChartOverlay;
  testId: string;
}) => {
  const { ref, width } = useWidth();
  const query = useQuery({
    ...routeQuery('sensor-data', 'series', { params: { id: deviceId }, query: { from, to, width } }),
    enabled: width > 0,
  });
  const series = query.data;
  return (
    <div ref={ref} className="sensor-charts" data-testid={testId}>
      {query.isPending && width > 0 && <p className="muted">Loading the chart…</p>}
      <ErrorAlert testId={`${testId}-error`} error={query.error ? errorMessage(query.error) : undefined} />
      {series && !series.series[measurement] && (
        <p className="muted" data-testid={`${testId}-empty`}>
          No readings of {labelOf(measurement)} in this range.
        </p>
      )}
      {series?.series[measurement] && (
        <>
          <SensorChart series={series} name={measurement} width={width} overlay={overlay} />
          <OverlayCaption overlay={overlay} testId={`${testId}-caption`} />
        </>
      )}
    </div>
  );
};
