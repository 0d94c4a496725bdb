/**
 * The devices map's data, as pure functions (no MapLibre, no DOM), so the WebGL map and its fallback plot
 * draw exactly the same points and the unit tests run in node.
 */

import type { MapDevice } from '../../../../shared/contracts/devices';

/** One device with a location, as both maps draw it. */
export interface MapPoint {
  id: string;
  /** The label: the device's name, else its serial or id. */
  name: string;
  lat: number;
  lon: number;
  /** The device's derived status (online, offline, provisioned, retired); colours the point. */
  status: string;
  /** The device's page. */
  href: string;
}

/** Status colours, readable on the map's pale background and distinct for the common colour blindnesses. */
export const STATUS_COLOURS: Record<string, string> = {
  online: '#1a7f37',
  offline: '#b3261e',
  provisioned: '#1f5fbf',
  retired: '#6e7781',
};
export const UNKNOWN_STATUS_COLOUR = '#8250df';

export const statusColour = (status: string): string => STATUS_COLOURS[status] ?? UNKNOWN_STATUS_COLOUR;

/** A coordinate a map can place: finite, latitude within ±90 and longitude within ±180. */
export const isPlaceable = (lat: number | undefined, lon: number | undefined): boolean =>
  typeof lat === 'number' &&
  typeof lon === 'number' &&
  Number.isFinite(lat) &&
  Number.isFinite(lon) &&
  Math.abs(lat) <= 90 &&
  Math.abs(lon) <= 180;

export type Bounds = [[west: number, south: number], [east: number, north: number]];

/**
 * The box around the points, widened to at least `minSpan` degrees so one device (or devices a few metres
 * apart) does not zoom the map to street level, and clamped to the Web Mercator world. Undefined when no
 * point is given.
 */
export const boundsOf = (points: readonly Pick<MapPoint, 'lat' | 'lon'>[], minSpan = 0.5): Bounds | undefined => {
  if (!points.length) return undefined;
  let west = 180;
  let east = -180;
  let south = 90;
  let north = -90;
  for (const { lat, lon } of points) {
    west = Math.min(west, lon);
    east = Math.max(east, lon);
    south = Math.min(south, lat);
    north = Math.max(north, lat);
  }
  const widen = (low: number, high: number, limit: number): [number, number] => {
    const missing = minSpan - (high - low);
    if (missing <= 0) return [low, high];
    return [Math.max(-limit, low - missing / 2), Math.min(limit, high + missing / 2)];
  };
  [west, east] = widen(west, east, 180);
  [south, north] = widen(south, north, MERCATOR_MAX_LAT);
  return [
    [west, Math.max(south, -MERCATOR_MAX_LAT)],
    [east, Math.min(north, MERCATOR_MAX_LAT)],
  ];
};

/** Web Mercator ends here; MapLibre cannot show the poles. */
export const MERCATOR_MAX_LAT = 85.0511;

interface PointFeature {
  type: 'Feature';
  id: number;
  geometry: { type: 'Point'; coordinates: [number, number] };
  properties: { deviceId: string; name: string; status: string; colour: string; href: string };
}

export interface PointCollection {
  type: 'FeatureCollection';
  features: PointFeature[];
}

/** The points as a GeoJSON source's data; each carries its colour so the style needs no status table. */
export const toFeatureCollection = (points: readonly MapPoint[]): PointCollection => ({
  type: 'FeatureCollection',
  features: points.map((point, index) => ({
    type: 'Feature',
    id: index,
    geometry: { type: 'Point', coordinates: [point.lon, point.lat] },
    properties: {
      deviceId: point.id,
      name: point.name,
      status: point.status,
      colour: statusColour(point.status),
      href: point.href,
    },
  })),
});

interface LineFeature {
  type: 'Feature';
  geometry: { type: 'LineString'; coordinates: [number, number][] };
  properties: { kind: 'meridian' | 'parallel' | 'equator' };
}

/**
 * A coarse graticule (meridians and parallels every `step` degrees), drawn under the base map's land so it
 * shows on the sea, where it gives a sense of place and scale. Lines carry intermediate vertices so they stay
 * straight under any projection MapLibre applies.
 */
export const graticule = (step = 30): { type: 'FeatureCollection'; features: LineFeature[] } => {
  const features: LineFeature[] = [];
  for (let lon = -180; lon <= 180; lon += step) {
    const coordinates: [number, number][] = [];
    for (let lat = -80; lat <= 80; lat += 10) coordinates.push([lon, lat]);
    features.push({ type: 'Feature', geometry: { type: 'LineString', coordinates }, properties: { kind: 'meridian' } });
  }
  for (let lat = -Math.floor(80 / step) * step; lat <= 80; lat += step) {
    const coordinates: [number, number][] = [];
    for (let lon = -180; lon <= 180; lon += 10) coordinates.push([lon, lat]);
    features.push({
      type: 'Feature',
      geometry: { type: 'LineString', coordinates },
      properties: { kind: lat === 0 ? 'equator' : 'parallel' },
    });
  }
  return { type: 'FeatureCollection', features };
};

/** Counts per status, in the legend's order (known statuses first, then any other), only those present. */
export const statusCounts = (points: readonly Pick<MapPoint, 'status'>[]): [status: string, count: number][] => {
  const counts = new Map<string, number>();
  for (const { status } of points) counts.set(status, (counts.get(status) ?? 0) + 1);
  const known = Object.keys(STATUS_COLOURS).filter((status) => counts.has(status));
  const other = [...counts.keys()].filter((status) => !(status in STATUS_COLOURS)).sort();
  return [...known, ...other].map((status) => [status, counts.get(status)!]);
};

/**
 * The fallback plot's projection: equirectangular over the given bounds, padded, into a `width`×`height`
 * box (y grows downwards). Returns the position of a coordinate in the box.
 */
export const plotProjection = (bounds: Bounds, width: number, height: number, padding = 24) => {
  const [[west, south], [east, north]] = bounds;
  const spanLon = Math.max(east - west, 1e-9);
  const spanLat = Math.max(north - south, 1e-9);
  const scale = Math.min((width - 2 * padding) / spanLon, (height - 2 * padding) / spanLat);
  const offsetX = (width - spanLon * scale) / 2;
  const offsetY = (height - spanLat * scale) / 2;
  return (lat: number, lon: number): { x: number; y: number } => ({
    x: offsetX + (lon - west) * scale,
    y: offsetY + (north - lat) * scale,
  });
};

/**
 * Bounds grown by `margin` (a fraction of each span) and then in one direction until they have the plot's
 * `ratio` (width over height), so the points spread over the whole plot instead of a thin strip at its middle.
 * Latitude stays within ±90 and longitude within ±180 (the box may then stay narrower than the ratio).
 */
export const fitAspect = (bounds: Bounds, ratio: number, margin = 0.08): Bounds => {
  let [[west, south], [east, north]] = bounds;
  const padLon = (east - west) * margin;
  const padLat = (north - south) * margin;
  west -= padLon;
  east += padLon;
  south -= padLat;
  north += padLat;
  const lonSpan = east - west;
  const latSpan = north - south;
  if (lonSpan / latSpan < ratio) {
    const grow = (latSpan * ratio - lonSpan) / 2;
    west -= grow;
    east += grow;
  } else {
    const grow = (lonSpan / ratio - latSpan) / 2;
    south -= grow;
    north += grow;
  }
  return [
    [Math.max(-180, west), Math.max(-90, south)],
    [Math.min(180, east), Math.min(90, north)],
  ];
};

/** Where to put grid lines across a span: a round step giving about `target` lines. */
export const gridStep = (span: number, target = 4): number => {
  const raw = span / target;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((candidate) => candidate >= raw) ?? 10 * magnitude;
  return step;
};

/** A coordinate in words, e.g. "52.5200° N, 13.4050° E". */
export const formatCoordinate = (lat: number, lon: number): string =>
  `${Math.abs(lat).toFixed(4)}° ${lat >= 0 ? 'N' : 'S'}, ${Math.abs(lon).toFixed(4)}° ${lon >= 0 ? 'E' : 'W'}`;

/** The map's points from the map route's answer. */
export const mapPointsOf = (items: readonly MapDevice[], base: string): MapPoint[] =>
  items.map((device) => ({
    id: device.id,
    name: device.name || device.id,
    lat: device.location.lat,
    lon: device.location.lon,
    status: device.status,
    href: `${base}/devices/${encodeURIComponent(device.id)}`,
  }));
