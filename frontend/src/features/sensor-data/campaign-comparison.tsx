import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { CampaignSeries, ComparedDevice } from '../../../../shared/contracts/sensor-data-campaigns';
import { ErrorAlert } from '../../components/form-parts';
import { apiClient } from '../../lib/api';
import { errorOf, routeQuery } from '../../lib/query';
import { ComparisonChart } from './comparison-chart';
import { chartedDevices, hasComparisonData, styleOf } from './comparison-rules';
import { useWidth } from './use-width';
import './comparison.css';

const dateText = (ms: number) => new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const NOT_CHARTED: Record<Exclude<ComparedDevice['status'], 'shown'>, string> = {
  'no-access': 'you may not see this device’s data',
  'not-found': 'no such device',
  'before-window': 'nothing of the campaign’s window lies inside this device’s tier window',
};

/**
 * A campaign's devices compared (docs/sensor-data.md, "Campaign comparison"): one chart per measurement, one line
 * per device over the campaign's window, from one request. Each device shows only what the viewer may see of it;
 * one the viewer may not see is listed, not charted. The legend names every device beside its line's colour and
 * dash and toggles it on all charts; its entries are buttons, so the keyboard reaches them. Loaded on demand by
 * the campaign page: uPlot stays out of the entry and the page's own chunk.
 */
export const CampaignComparison = ({ campaignId }: { campaignId: string }) => {
  const { ref, width } = useWidth();
  const request = { params: { id: campaignId }, query: { width } };
  const query = useQuery({
    ...routeQuery('sensor-data', 'campaignSeries', request),
    queryFn: () => {
      performance.mark('comparison-requested');
      return apiClient('sensor-data').campaignSeries(request);
    },
    enabled: width > 0,
    // Fifty devices' charts are drawn anew on every answer: read once a visit, and again on demand (reload).
    staleTime: 5 * 60_000,
    refetchInterval: false,
    refetchOnWindowFocus: false,
  });
  const answer = query.data;
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const [picked, setPicked] = useState<string>();
  const charted = useMemo(() => (answer ? chartedDevices(answer) : []), [answer]);
  const devices = useMemo(
    () => new Map(charted.map((device, style) => [device.deviceId, { name: device.name ?? device.deviceId, style }])),
    [charted],
  );

  const toggle = (deviceId: string) =>
    setHidden((now) => {
      const next = new Set(now);
      if (!next.delete(deviceId)) next.add(deviceId);
      return next;
    });

  return (
    <section className="card section-card" aria-labelledby="campaign-data-heading" data-testid="campaign-comparison">
      <h2 id="campaign-data-heading">Device data</h2>
      <p className="muted small">
        Every device of the campaign over its window, one line per device (its mean per point). Each device shows only
        what you may see of it.
      </p>
      <ErrorAlert testId="comparison-error" error={errorOf(query)} />
      <div ref={ref} className="comparison">
        {!answer && !query.error && (
          <p className="muted" data-testid="comparison-loading">
            Loading the charts…
          </p>
        )}
        {answer && body(answer)}
      </div>
    </section>
  );

  // A render helper, not a component: a component defined in here would be a new type at every render, and React
  // would draw every chart anew on each hover of the legend.
  function body(answer: CampaignSeries) {
    if (answer.devices.length === 0) {
      return (
        <p className="muted" data-testid="comparison-empty">
          This campaign holds no devices yet.
        </p>
      );
    }
    const limited = charted.filter((device) => device.message);
    const notCharted = answer.devices.filter((device) => device.status !== 'shown');
    return (
      <>
        <p className="small" data-testid="comparison-summary">
          {charted.length} of {answer.devices.length} devices charted, {dateText(answer.from)} – {dateText(answer.to)}.{' '}
          {answer.resolution === 'minute' ? 'From the raw readings' : `From ${answer.resolution}ly roll-ups`},{' '}
          {Math.round(answer.bucketMs / 60_000)} min per point.
          {answer.moreDevices > 0 && ` ${answer.moreDevices} more devices of the campaign are not compared here.`}
        </p>
        {charted.length > 0 && (
          <DeviceLegend
            devices={charted}
            hidden={hidden}
            toggle={toggle}
            showAll={() => setHidden(new Set())}
            hideAll={() => setHidden(new Set(charted.map((device) => device.deviceId)))}
            pick={setPicked}
          />
        )}
        {limited.length > 0 && (
          <ul className="comparison-notes small" data-testid="comparison-limited">
            {limited.map((device) => (
              <li key={device.deviceId}>
                <strong>{device.name}</strong> from {dateText(device.from ?? answer.from)}: {device.message}
              </li>
            ))}
          </ul>
        )}
        {notCharted.length > 0 && (
          <div className="comparison-notes small" data-testid="comparison-not-charted">
            <p>Not charted:</p>
            <ul>
              {notCharted.map((device) => (
                <li key={device.deviceId} data-testid={`comparison-not-charted-${device.deviceId}`}>
                  <span className="mono">{device.name ?? device.deviceId}</span>:{' '}
                  {device.status === 'before-window' && device.message
                    ? device.message
                    : NOT_CHARTED[device.status as keyof typeof NOT_CHARTED]}
                </li>
              ))}
            </ul>
          </div>
        )}
        {!hasComparisonData(answer) ? (
          <p className="muted" data-testid="comparison-no-data">
            {answer.from > Date.now()
              ? `The campaign starts ${dateText(answer.from)}: nothing to compare yet.`
              : 'No readings in this range.'}
          </p>
        ) : (
          answer.measurements.map((measurement) => (
            <ComparisonChart
              key={measurement.name}
              answer={answer}
              measurement={measurement}
              width={width}
              devices={devices}
              hidden={hidden}
              picked={picked}
              syncKey={`campaign-${campaignId}`}
            />
          ))
        )}
      </>
    );
  }
};

/**
 * The devices on the charts: each a toggle button with its line's colour and dash and its name, so a line is never
 * told by colour alone; pointing at or focusing an entry picks its line out on every chart.
 */
const DeviceLegend = ({
  devices,
  hidden,
  toggle,
  showAll,
  hideAll,
  pick,
}: {
  devices: readonly ComparedDevice[];
  hidden: ReadonlySet<string>;
  toggle: (deviceId: string) => void;
  showAll: () => void;
  hideAll: () => void;
  pick: (deviceId: string | undefined) => void;
}) => (
  <fieldset className="comparison-legend" data-testid="comparison-legend">
    <legend className="small">Devices: press one to hide or show its line; point at a line to name its device</legend>
    <ul>
      {devices.map((device, index) => {
        const style = styleOf(index);
        const shown = !hidden.has(device.deviceId);
        const silent = Object.keys(device.series).length === 0;
        return (
          <li key={device.deviceId}>
            <button
              type="button"
              className="comparison-toggle"
              aria-pressed={shown}
              data-testid={`comparison-toggle-${device.deviceId}`}
              onClick={() => toggle(device.deviceId)}
              onPointerEnter={() => pick(device.deviceId)}
              onPointerLeave={() => pick(undefined)}
              onFocus={() => pick(device.deviceId)}
              onBlur={() => pick(undefined)}
            >
              <svg width="28" height="10" aria-hidden="true" focusable="false">
                <line
                  x1="1"
                  y1="5"
                  x2="27"
                  y2="5"
                  style={{ stroke: `var(${style.token})` }}
                  strokeWidth="3"
                  strokeDasharray={style.dash.length ? style.dash.join(' ') : undefined}
                />
              </svg>
              <span>{device.name ?? device.deviceId}</span>
              {silent && <span className="muted"> (no readings)</span>}
            </button>
          </li>
        );
      })}
    </ul>
    <div className="comparison-legend-actions">
      <button type="button" onClick={showAll} data-testid="comparison-show-all">
        Show all
      </button>
      <button type="button" onClick={hideAll} data-testid="comparison-hide-all">
        Hide all
      </button>
    </div>
  </fieldset>
);
