import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { whenIdle } from '../../lib/idle';
import { isPhone } from '../../lib/phone';
import {
  boundsOf,
  fitAspect,
  formatCoordinate,
  gridStep,
  type MapPoint,
  plotProjection,
  STATUS_COLOURS,
  statusColour,
  statusCounts,
  toFeatureCollection,
} from './map-points';
import type { MapHandle } from './maplibre-map';
import { hasWebGl2 } from './webgl-support';
import './map.css';

type Mode = 'preview' | 'map' | 'fallback';

const NO_WEBGL = 'This browser offers no WebGL, which the interactive map needs.';

export interface DevicesMapProps {
  points: readonly MapPoint[];
  /** Prefix of the test ids (`${testId}`, `${testId}-fallback`, …). */
  testId?: string;
  /** Said when no device has a location yet. */
  emptyText?: string;
}

/**
 * The devices that have a location, on a MapLibre GL map drawn offline (the Natural Earth base map built into the
 * app, decision 023, a graticule and the points: no tile is downloaded), fitted to the points, coloured by status, clustered where they crowd;
 * a point opens a popup with the device's link. Without WebGL (or when MapLibre fails) the same points are
 * drawn as a plain SVG plot with a list, and the page says why. On a phone (decision 101) the plot is drawn first as
 * a preview, and MapLibre loads only when the person opens the interactive map: its parse and the base map would
 * otherwise hold a phone's main thread for seconds on every visit, for a map most visits do not pan.
 */
export const DevicesMap = ({ points, testId = 'devices-map', emptyText }: DevicesMapProps) => {
  // A phone's preview needs no WebGL: the probe (a WebGL context made and thrown away, a long task where WebGL is
  // drawn in software) waits for the press that opens the map (decision 104).
  const [mode, setMode] = useState<Mode>(() => (isPhone() ? 'preview' : hasWebGl2() ? 'map' : 'fallback'));
  const [reason, setReason] = useState<string>(mode === 'fallback' ? NO_WEBGL : '');
  // Opened from the preview: the map loads at once and takes the focus where the button was (or, without WebGL, the
  // notice that says why the plot stays).
  const [opened, setOpened] = useState(false);
  const focusNotice = useRef(false);
  const fail = (why: string) => {
    setReason(why);
    setMode('fallback');
  };

  if (!points.length) {
    return (
      <p className="muted" data-testid={`${testId}-empty`}>
        {emptyText ?? 'No device with a location yet.'}
      </p>
    );
  }
  return (
    <figure className="devices-map" data-testid={testId} data-mode={mode} data-points={points.length}>
      {mode === 'map' ? (
        <InteractiveMap points={points} testId={testId} onFailure={fail} opened={opened} />
      ) : mode === 'preview' ? (
        <MapPreview
          points={points}
          testId={testId}
          onOpen={() => {
            setOpened(true);
            if (hasWebGl2()) return setMode('map');
            focusNotice.current = true;
            fail(NO_WEBGL);
          }}
        />
      ) : (
        <FallbackPlot
          points={points}
          testId={`${testId}-fallback`}
          pointTestId={testId}
          note={
            <p
              className="notice small"
              data-testid={`${testId}-fallback-reason`}
              tabIndex={-1}
              ref={(notice) => {
                if (!notice || !focusNotice.current) return;
                focusNotice.current = false;
                notice.focus();
              }}
            >
              {reason} Showing the devices on a plain plot (longitude across, latitude up) instead.
            </p>
          }
        />
      )}
      <Legend points={points} />
      {mode === 'fallback' ? (
        <PointList points={points} testId={testId} />
      ) : (
        // The canvas says nothing to a screen reader or a keyboard: the same devices as links.
        <details className="small">
          <summary>The devices on this map as a list</summary>
          <PointList points={points} testId={testId} />
        </details>
      )}
    </figure>
  );
};

/**
 * A phone's first form of the map (decision 101): the plain plot, in the frame the interactive map will fill (the same
 * height, so nothing below moves when it opens), and the button that opens it.
 */
const MapPreview = ({
  points,
  testId,
  onOpen,
}: {
  points: readonly MapPoint[];
  testId: string;
  onOpen: () => void;
}) => (
  <FallbackPlot
    points={points}
    testId={`${testId}-preview`}
    pointTestId={testId}
    className="devices-map-preview"
    size={PHONE_PLOT}
    note={
      <p className="muted small" data-testid={`${testId}-preview-caption`}>
        The devices on a plain plot (longitude across, latitude up).
      </p>
    }
  >
    <button type="button" className="primary devices-map-open" data-testid={`${testId}-open`} onClick={onOpen}>
      Open the interactive map
    </button>
  </FallbackPlot>
);

const InteractiveMap = ({
  points,
  testId,
  onFailure,
  opened,
}: {
  points: readonly MapPoint[];
  testId: string;
  onFailure: (why: string) => void;
  /** Asked for by the person (the phone's preview): loads at once and takes the focus. */
  opened: boolean;
}) => {
  const container = useRef<HTMLElement>(null);
  const handle = useRef<MapHandle>(undefined);
  const navigate = useNavigate();
  const [loaded, setLoaded] = useState(false);
  const [drawn, setDrawn] = useState(false);
  // Once the base map and the points are first drawn; until then the frame shows no water and no grid.
  const [shown, setShown] = useState(false);
  // The latest callbacks without re-creating the map when the page re-renders.
  const latest = useRef({ navigate, onFailure });
  latest.current = { navigate, onFailure };

  // biome-ignore lint/correctness/useExhaustiveDependencies: the map is made once; `opened` only says how it started.
  useEffect(() => {
    let cancelled = false;
    const start = () =>
      import('./maplibre-map')
        .then(({ createDevicesMap }) => {
          if (cancelled || !container.current) return;
          handle.current = createDevicesMap(container.current, {
            popupContent: (deviceId, name, status, href) => popupElement(deviceId, name, status, href, latest),
            onFailure: (error) => latest.current.onFailure(`The interactive map could not draw (${describe(error)}).`),
            onDrawn: () => {
              setDrawn(true);
              setShown(true);
            },
          });
          setLoaded(true);
        })
        .catch((error: unknown) => {
          if (!cancelled) {
            latest.current.onFailure(`The interactive map could not start (${describe(error)}).`);
          }
        });
    let stopWaiting: (() => void) | undefined;
    if (opened) {
      container.current?.focus();
      void start();
    } else if (container.current) {
      stopWaiting = whenNearAndIdle(container.current, () => void start());
    }
    return () => {
      cancelled = true;
      stopWaiting?.();
      handle.current?.remove();
      handle.current = undefined;
    };
  }, []);

  useEffect(() => {
    if (!loaded) return;
    setDrawn(false);
    handle.current?.show(toFeatureCollection(points), boundsOf(points));
  }, [loaded, points]);

  return (
    <section
      ref={container}
      className="devices-map-canvas"
      data-testid={`${testId}-canvas`}
      data-drawn={drawn}
      data-shown={shown}
      // Focusable from script only: where the focus goes when the person opens the map from the phone's preview.
      tabIndex={-1}
      aria-label={`Map of ${points.length} device${points.length === 1 ? '' : 's'}`}
    />
  );
};

/** How far below the viewport the map starts loading (a phone's flick), so it is drawn by the time it is seen. */
const NEAR_VIEWPORT = '400px';
/** The longest the map waits for an idle moment once it is near: a page that is never idle still gets its map. */
const IDLE_WAIT_MS = 2_000;

/**
 * Runs `start` once `element` is near the viewport and the page has an idle moment (issue 36): MapLibre's megabyte
 * and the base map block a phone's main thread for seconds, so they wait until the page's own content is drawn and
 * the map is about to be seen. Returns what cancels the wait.
 */
const whenNearAndIdle = (element: Element, start: () => void): (() => void) => {
  let cancelIdle = () => {};
  const startWhenIdle = () => {
    cancelIdle = whenIdle(start, IDLE_WAIT_MS);
  };
  if (typeof IntersectionObserver !== 'function') {
    startWhenIdle();
    return () => cancelIdle();
  }
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      startWhenIdle();
    },
    { rootMargin: `0px 0px ${NEAR_VIEWPORT} 0px` },
  );
  observer.observe(element);
  return () => {
    observer.disconnect();
    cancelIdle();
  };
};

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The popup is MapLibre's DOM, outside React: its link navigates through the router, not a page load. */
const popupElement = (
  deviceId: string,
  name: string,
  status: string,
  href: string,
  latest: { current: { navigate: ReturnType<typeof useNavigate> } },
): HTMLElement => {
  const box = document.createElement('div');
  box.className = 'map-popup';
  box.dataset.testid = 'devices-map-popup';
  const link = document.createElement('a');
  link.href = href;
  link.textContent = name;
  link.dataset.testid = `devices-map-link-${deviceId}`;
  link.addEventListener('click', (event) => {
    event.preventDefault();
    latest.current.navigate(href);
  });
  const state = document.createElement('span');
  state.className = 'muted small';
  state.textContent = ` ${status}`;
  box.append(link, state);
  return box;
};

interface PlotSize {
  width: number;
  height: number;
  /** Room for the axis labels around the plotted area. */
  padding: number;
}

/** The plot's drawing units: its 10-unit labels come out near 10 px in a frame of about its width. */
const WIDE_PLOT: PlotSize = { width: 900, height: 320, padding: 28 };
/** A phone's preview: a frame about 300 px wide, so its labels stay readable rather than shrink to a third. */
const PHONE_PLOT: PlotSize = { width: 340, height: 300, padding: 40 };

/**
 * The same points as an SVG plot over a labelled grid (the list follows it in the figure): the map without WebGL, and
 * a phone's preview of it.
 */
const FallbackPlot = ({
  points,
  testId,
  pointTestId,
  note,
  className,
  children,
  size = WIDE_PLOT,
}: {
  points: readonly MapPoint[];
  /** The plot's own test id. */
  testId: string;
  /** The prefix of each point's test id (`${pointTestId}-point-${id}`). */
  pointTestId: string;
  /** Said above the plot. */
  note: ReactNode;
  className?: string;
  /** Shown below the plot. */
  children?: ReactNode;
  size?: PlotSize;
}) => {
  const bounds = fitAspect(boundsOf(points, 2)!, (size.width - 2 * size.padding) / (size.height - 2 * size.padding));
  const project = plotProjection(bounds, size.width, size.height, size.padding);
  const [[west, south], [east, north]] = bounds;
  const lonStep = gridStep(east - west);
  const latStep = gridStep(north - south);
  const lons = useMemo(() => steps(west, east, lonStep), [west, east, lonStep]);
  const lats = useMemo(() => steps(south, north, latStep), [south, north, latStep]);
  const topLeft = project(north, west);
  const bottomRight = project(south, east);

  return (
    <div className={className} data-testid={testId}>
      {note}
      <svg
        className="devices-plot"
        viewBox={`0 0 ${size.width} ${size.height}`}
        // No role="img": its points are links, and an image's content is not read (axe: nested-interactive).
        aria-label={`Plot of ${points.length} device location${points.length === 1 ? '' : 's'}`}
      >
        <rect
          x={topLeft.x}
          y={topLeft.y}
          width={bottomRight.x - topLeft.x}
          height={bottomRight.y - topLeft.y}
          className="plot-area"
        />
        {lons.map((lon) => {
          const { x } = project(south, lon);
          return (
            <g key={`lon${lon}`} className="plot-grid">
              <line x1={x} x2={x} y1={topLeft.y} y2={bottomRight.y} />
              <text x={x} y={bottomRight.y + 14} textAnchor="middle">
                {formatDegrees(lon, 'E', 'W')}
              </text>
            </g>
          );
        })}
        {lats.map((lat) => {
          const { y } = project(lat, west);
          return (
            <g key={`lat${lat}`} className="plot-grid">
              <line x1={topLeft.x} x2={bottomRight.x} y1={y} y2={y} />
              <text x={topLeft.x - 4} y={y + 4} textAnchor="end">
                {formatDegrees(lat, 'N', 'S')}
              </text>
            </g>
          );
        })}
        {points.map((point) => {
          const { x, y } = project(point.lat, point.lon);
          return (
            <Link
              key={point.id}
              to={point.href}
              aria-label={`${point.name} (${point.status})`}
              data-testid={`${pointTestId}-point-${point.id}`}
            >
              <circle cx={x} cy={y} r={7} fill={statusColour(point.status)} className="plot-point">
                <title>{`${point.name} (${point.status})`}</title>
              </circle>
            </Link>
          );
        })}
      </svg>
      {children}
    </div>
  );
};

const PointList = ({ points, testId }: { points: readonly MapPoint[]; testId: string }) => (
  <ul className="link-list small" data-testid={`${testId}-list`}>
    {points.map((point) => (
      <li key={point.id}>
        <span className="status-dot" style={{ background: statusColour(point.status) }} aria-hidden="true" />
        <Link to={point.href} data-testid={`${testId}-item-${point.id}`}>
          {point.name}
        </Link>{' '}
        <span className="muted">
          {point.status} · {formatCoordinate(point.lat, point.lon)}
        </span>
      </li>
    ))}
  </ul>
);

const steps = (low: number, high: number, step: number): number[] => {
  const values: number[] = [];
  for (let value = Math.ceil(low / step) * step; value <= high + 1e-9; value += step) {
    values.push(Number(value.toFixed(6)));
  }
  return values;
};

const formatDegrees = (value: number, positive: string, negative: string) =>
  value === 0 ? '0°' : `${Number(Math.abs(value).toFixed(3))}°${value > 0 ? positive : negative}`;

const Legend = ({ points }: { points: readonly MapPoint[] }) => (
  <figcaption className="map-legend small">
    {statusCounts(points).map(([status, count]) => (
      <span key={status} className="legend-item">
        <span
          className="status-dot"
          style={{ background: STATUS_COLOURS[status] ?? statusColour(status) }}
          aria-hidden="true"
        />
        {status} ({count})
      </span>
    ))}
  </figcaption>
);
