import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import type { Device } from '../../../../shared/contracts/devices';
import type { DataSummary, Series } from '../../../../shared/contracts/sensor-data-readings';
import type { ValueChoice } from '../../../../shared/sensor-data/quality';
import { useIdleAfterDraw } from '../../lib/after-idle';
import { apiClient } from '../../lib/api';
import { mayManage } from '../../lib/device-access';
import { errorMessage } from '../../lib/error-message';
import { routeQuery } from '../../lib/query';
import { useOptionalUser } from '../../lib/session';
import { type ChartOverlays, overlayOf } from './chart-overlays';
import { hasData } from './chart-rules';
import { lockBand } from './lock-band-rules';
import { OverlayCaption } from './overlay-caption';
import { RangeFields } from './range-fields';
import {
  type ChartRange,
  customRange,
  formatLocal,
  lockedMessage,
  PRESETS,
  presetRange,
  type RangePreset,
  rangeAround,
  viewableRange,
  windowText,
} from './range-rules';
import { onFedReadings } from './reading-feed';
import type { ChartHandle } from './sensor-chart';
import { TierOffer } from './tier-offer';
import { useWidth } from './use-width';
import './sensor-data.css';
import { ErrorAlert } from '../../components/form-parts';

type Loading = { state: 'loading' } | { state: 'done'; series: Series } | { state: 'failed'; error: string };

/**
 * The chart, the data-quality panel under it (its calibration form's preview is a chart too) and uPlot, about 33 kB in
 * chunks of their own, so the device page's first view waits neither for their download nor for uPlot's evaluation
 * (issue 36, decision 104). Asked for as this panel's chunk runs (the router loads it with the device page's), so the
 * download overlaps the page's first reads rather than following them (decision 108). The charts are drawn when the
 * module and the series have both come, in the space "Loading the charts…" held.
 */
const loadChart = () => import('./sensor-charts');
void loadChart().catch(() => undefined);
type ChartModule = Awaited<ReturnType<typeof loadChart>>;

const useChartModule = (): { chart?: ChartModule; error?: string } => {
  const [loaded, setLoaded] = useState<{ chart?: ChartModule; error?: string }>({});
  useEffect(() => {
    let active = true;
    loadChart().then(
      (chart) => active && setLoaded({ chart }),
      (error: unknown) => active && setLoaded({ error: errorMessage(error) }),
    );
    return () => {
      active = false;
    };
  }, []);
  return loaded;
};

/**
 * The device page's sensor data (docs/sensor-data.md, "Reads and charts"): what the caller's tier lets them see,
 * a range picker, and one chart per measurement, fetched once per range as server-side downsampled series. A
 * range past the tier's window says which tier unlocks it (and the API's 403 says why). Live readings fed
 * through reading-feed.ts extend the charts when the range ends now. `at` (a link's moment, an alert's) opens the
 * charts around it; `overlays` (an alert's firing periods and its rule's limit) are drawn on the charts they name.
 */
export const SensorDataPanel = ({
  device,
  at,
  overlays,
}: {
  device: Pick<Device, 'id' | 'productLine' | 'access'>;
  at?: number;
  overlays?: ChartOverlays;
}) => {
  const user = useOptionalUser();
  const summaryQuery = useQuery(routeQuery('sensor-data', 'dataSummary', { params: { id: device.id } }));
  const summary = summaryQuery.data;
  const summaryError = summaryQuery.error ? errorMessage(summaryQuery.error) : undefined;
  const [preset, setPreset] = useState<RangePreset>(at === undefined ? '24h' : 'custom');
  const [range, setRange] = useState<ChartRange>(() =>
    at === undefined ? presetRange('24h', Date.now()) : rangeAround(at, Date.now()),
  );
  const [custom, setCustom] = useState(() => ({ from: formatLocal(range.from), to: formatLocal(range.to) }));
  const [customError, setCustomError] = useState<string>();
  const { ref: widthRef, width } = useWidth();
  const charts = useRef(new Map<string, ChartHandle>());
  const [values, setValues] = useState<Exclude<ValueChoice, 'both'>>('corrected');
  const [dragged, setDragged] = useState<{ from: number; to: number; measurement: string; at: number }>();
  const mayChangeQuality = user !== undefined && mayManage(device);

  // The From and To fields always show the range drawn, so a custom range starts from the preset on screen.
  const choose = (id: Exclude<RangePreset, 'custom'>) => {
    const chosen = presetRange(id, Date.now());
    setPreset(id);
    setCustomError(undefined);
    setRange(chosen);
    setCustom({ from: formatLocal(chosen.from), to: formatLocal(chosen.to) });
  };

  const applyCustom = () => {
    const chosen = customRange(custom);
    if (typeof chosen === 'string') return setCustomError(chosen);
    setCustomError(undefined);
    setPreset('custom');
    setRange(chosen);
  };

  // Primitives, so the summary's arrival reads again only when it moves the start (a range past the tier's window).
  const { from, to } = useMemo(() => viewableRange(summary, range, Date.now()), [summary, range]);
  const seriesRequest = { params: { id: device.id }, query: { from, to, width, values } };
  const seriesQuery = useQuery({
    ...routeQuery('sensor-data', 'series', seriesRequest),
    queryFn: () => {
      performance.mark('sensor-chart-requested');
      return apiClient('sensor-data').series(seriesRequest);
    },
    enabled: width > 0,
    // A range's readings are read once: live points extend the charts, and a refetch would redraw them.
    staleTime: Number.POSITIVE_INFINITY,
    refetchInterval: false,
    refetchOnWindowFocus: false,
  });
  const { chart, error: chartError } = useChartModule();
  const failure = seriesQuery.data || !seriesQuery.error ? chartError : errorMessage(seriesQuery.error);
  const loading: Loading =
    seriesQuery.data && chart
      ? { state: 'done', series: seriesQuery.data }
      : failure
        ? { state: 'failed', error: failure }
        : { state: 'loading' };

  // Live points extend a range that ends now; a range in the past stays as it was read.
  useEffect(
    () =>
      onFedReadings(device.id, (readings) => {
        if (preset === 'custom') return;
        for (const reading of readings) {
          for (const [name, value] of Object.entries(reading.values)) {
            charts.current.get(name)?.append(reading.timestamp, value);
          }
        }
      }),
    [device.id, preset],
  );

  const locked = summary ? lockedMessage(summary, range, Date.now()) : undefined;
  const band = useMemo(() => (summary ? lockBand(summary, range, Date.now()) : undefined), [summary, range]);
  const names = useMemo(() => Object.keys(seriesQuery.data?.series ?? {}), [seriesQuery.data]);

  return (
    <section className="card section-card" aria-labelledby="sensor-data-heading" data-testid="sensor-data">
      <h2 id="sensor-data-heading">Sensor data</h2>
      <ErrorAlert testId="sensor-summary-error" error={summaryError} />
      {summary && <DataSummaryFacts summary={summary} />}

      <fieldset className="range-picker" aria-label="Chart range">
        {PRESETS.map((p) => (
          <button
            key={p.id}
            type="button"
            aria-pressed={preset === p.id}
            data-testid={`sensor-range-${p.id}`}
            onClick={() => choose(p.id)}
          >
            {p.label}
          </button>
        ))}
        <RangeFields value={custom} onChange={setCustom} testIdPrefix="sensor-range" />
        <button type="button" aria-pressed={preset === 'custom'} data-testid="sensor-range-apply" onClick={applyCustom}>
          Show range
        </button>
      </fieldset>
      <ErrorAlert testId="sensor-range-error" error={customError} />
      <fieldset className="values-switch" aria-label="Values">
        <span className="small">Values:</span>
        {(['corrected', 'raw'] as const).map((choice) => (
          <button
            key={choice}
            type="button"
            aria-pressed={values === choice}
            data-testid={`sensor-values-${choice}`}
            onClick={() => setValues(choice)}
          >
            {choice === 'corrected' ? 'Corrected' : 'Raw'}
          </button>
        ))}
      </fieldset>
      {locked && (
        <div className="tier-lock">
          <p data-testid="sensor-tier-lock">{locked}</p>
          {/* Those who may buy for the device get one click from the band to its tier. */}
          <TierOffer device={device} unlocks={band?.unlocks} testIdPrefix="sensor-lock" />
        </div>
      )}

      <div ref={widthRef} className="sensor-charts">
        {loading.state === 'loading' && (
          <p className="muted" data-testid="sensor-loading">
            Loading the charts…
          </p>
        )}
        {loading.state === 'failed' && <ErrorAlert testId="sensor-error" error={loading.error} />}
        {loading.state === 'done' && !hasData(loading.series) && (
          <p className="muted" data-testid="sensor-empty">
            No readings in this range.
          </p>
        )}
        {loading.state === 'done' &&
          chart &&
          hasData(loading.series) &&
          names.map((name) => (
            <div key={name}>
              <h3 className="sensor-chart-title">{loading.series.series[name]!.label}</h3>
              <chart.SensorChart
                ref={(handle) => {
                  if (handle) charts.current.set(name, handle);
                  else charts.current.delete(name);
                }}
                series={loading.series}
                name={name}
                width={width}
                lock={band}
                overlay={overlayOf(overlays, name)}
                onSelect={
                  mayChangeQuality
                    ? (dragFrom, dragTo) =>
                        setDragged({ from: dragFrom, to: dragTo, measurement: name, at: Date.now() })
                    : undefined
                }
              />
              <OverlayCaption overlay={overlayOf(overlays, name)} testId={`sensor-overlay-${name}`} />
            </div>
          ))}
        {/* A resolution of points that are not there ("1740 min per point") says nothing. */}
        {loading.state === 'done' && hasData(loading.series) && (
          <p className="muted small" data-testid="sensor-resolution">
            {loading.series.resolution === 'minute'
              ? 'From the raw readings'
              : `From ${loading.series.resolution}ly roll-ups`}
            , {Math.round(loading.series.bucketMs / 60_000)} min per point.
          </p>
        )}
      </div>
      {loading.state === 'done' && chart && names.length > 0 && (
        <AfterTheCharts>
          <chart.QualityPanel
            deviceId={device.id}
            names={names}
            labels={Object.fromEntries(names.map((name) => [name, loading.series.series[name]!.label]))}
            range={{ from, to }}
            width={width}
            mayChange={mayChangeQuality}
            dragged={dragged}
          />
        </AfterTheCharts>
      )}
    </section>
  );
};

/** The longest the data-quality panel waits for an idle moment after the charts' frames are drawn. */
const QUALITY_WAIT_MS = 300;

/**
 * The data-quality panel is under the charts, below the first view at a phone's and a desktop's height alike: it is
 * drawn at the first idle moment after the charts' frames, so the task that draws a series' answer is not also the
 * one that renders the panel and its calibration form (issue 36). It only adds to the section's end.
 */
const AfterTheCharts = ({ children }: { children: ReactNode }) => (useIdleAfterDraw(QUALITY_WAIT_MS) ? children : null);

/** The tier, how far back charts, downloads and the API reach for this viewer, and what the next tier adds. */
const DataSummaryFacts = ({ summary }: { summary: DataSummary }) => {
  const next = summary.nextTier;
  return (
    <>
      <dl className="facts" data-testid="sensor-summary">
        <dt>Tier</dt>
        <dd data-testid="sensor-tier">{summary.tier.name}</dd>
        <dt>Charts</dt>
        <dd data-testid="sensor-window-view">{windowText(summary.windows.view.days)}</dd>
        <dt>Downloads</dt>
        <dd data-testid="sensor-window-download">{windowText(summary.windows.download.days)}</dd>
        <dt>API</dt>
        <dd data-testid="sensor-window-api">{windowText(summary.windows.api.days)}</dd>
        {summary.campaignWindows && (
          <>
            <dt>Campaign windows</dt>
            <dd data-testid="sensor-campaign-windows">
              {summary.campaignWindows
                .map((w) => `${new Date(w.startsAt).toLocaleString()} – ${new Date(w.endsAt).toLocaleString()}`)
                .join('; ')}
            </dd>
          </>
        )}
      </dl>
      {next && next.features.historicalDataAccessDays > (summary.windows.view.days ?? 0) && (
        <p className="muted small" data-testid="sensor-next-tier">
          {next.name} unlocks {next.features.historicalDataAccessDays} days.
        </p>
      )}
    </>
  );
};
