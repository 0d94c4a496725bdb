import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type {
  Feature,
  FeatureCollection,
  Polygon as GeoPolygon,
  LineString,
  MultiLineString,
  MultiPolygon,
  Point,
  Position,
} from 'geojson';
import { feature, mesh } from 'topojson-client';
import type { Topology } from 'topojson-specification';
import type { Plugin, ResolvedConfig } from 'vite';

/**
 * The offline base map (decision 023): land, coastlines, country borders and country names from Natural Earth
 * 1:50m (the `world-atlas` package's TopoJSON), turned at build time into one GeoJSON file that MapLibre's worker
 * fetches from the app's own origin. No tile server, no glyphs, no third party: the same file in both homes.
 */

type Ring = [number, number][];
type Polygon = Ring[];

/** What a feature of the file is; the style's layers filter on it. */
export type BaseMapKind = 'land' | 'border' | 'label';

export interface BaseMapProperties {
  kind: BaseMapKind;
  /** Labels: the country's short Natural Earth name. */
  name?: string;
  /** Labels: 1 for the largest countries (shown from the world view), 2 and 3 for smaller ones (closer in). */
  tier?: 1 | 2 | 3;
  /** Labels: order by size, largest first, so where labels collide the larger country keeps its name. */
  rank?: number;
}

export type BaseMap = FeatureCollection<GeoPolygon | LineString | Point, BaseMapProperties>;

/** A longitude step of more than half the globe is the antimeridian crossed, not a line across the map. */
const wraps = (from: number, to: number) => Math.abs(to - from) > 180;

const normalizedStep = (from: number, to: number) => {
  let step = to - from;
  if (step > 180) step -= 360;
  if (step < -180) step += 360;
  return step;
};

/**
 * One ring drawn on the plane: Natural Earth's rings live on the sphere, and a ring crossing the antimeridian
 * (Russia, Fiji) or going round a pole (Antarctica) would be drawn as a band across the whole map. The ring is
 * unwrapped into continuous longitudes (closed over the pole when it encircles one), cut into the world's
 * 360° windows, and each piece shifted back into −180…180.
 */
export const planarRings = (ring: readonly Position[]): Ring[] => {
  const open = ring.slice(0, sameLonLat(ring[0], ring.at(-1)) ? -1 : undefined);
  if (open.length < 3) return [];
  const unwrapped: Ring = [[open[0]![0]!, open[0]![1]!]];
  for (let i = 1; i < open.length; i++) {
    const previous = unwrapped[i - 1]!;
    unwrapped.push([previous[0] + normalizedStep(open[i - 1]![0]!, open[i]![0]!), open[i]![1]!]);
  }
  const last = unwrapped.at(-1)!;
  const closing = last[0] + normalizedStep(open.at(-1)![0]!, open[0]![0]!);
  if (Math.abs(closing - unwrapped[0]![0]) > 180) {
    // The ring goes once round the globe: it holds a pole, so it is closed along the pole's parallel.
    const pole = unwrapped.reduce((sum, [, lat]) => sum + lat, 0) < 0 ? -90 : 90;
    unwrapped.push([closing, unwrapped[0]![1]], [closing, pole], [unwrapped[0]![0], pole]);
  }
  if (!unwrapped.some(([lon]) => lon < -180 || lon > 180)) return [close(unwrapped)];
  const lons = unwrapped.map(([lon]) => lon);
  const first = Math.floor((Math.min(...lons) + 180) / 360);
  const lastWindow = Math.ceil((Math.max(...lons) + 180) / 360) - 1;
  const pieces: Ring[] = [];
  for (let k = first; k <= lastWindow; k++) {
    const west = -180 + 360 * k;
    const clipped = clipX(clipX(unwrapped, west, true), west + 360, false);
    if (clipped.length >= 3) pieces.push(close(clipped.map(([lon, lat]) => [lon - 360 * k, lat])));
  }
  return pieces;
};

const sameLonLat = (a: Position | undefined, b: Position | undefined) => !!a && !!b && a[0] === b[0] && a[1] === b[1];

const close = (ring: Ring): Ring => (sameLonLat(ring[0], ring.at(-1)) ? ring : [...ring, [ring[0]![0], ring[0]![1]]]);

/** Sutherland–Hodgman against one vertical line: keeps the side east (`keepEast`) or west of `x`. */
const clipX = (ring: Ring, x: number, keepEast: boolean): Ring => {
  const inside = ([lon]: [number, number]) => (keepEast ? lon >= x : lon <= x);
  const crossing = (a: [number, number], b: [number, number]): [number, number] => [
    x,
    a[1] + ((b[1] - a[1]) * (x - a[0])) / (b[0] - a[0]),
  ];
  const out: Ring = [];
  for (let i = 0; i < ring.length; i++) {
    const current = ring[i]!;
    const previous = ring[(i + ring.length - 1) % ring.length]!;
    if (inside(current)) {
      if (!inside(previous)) out.push(crossing(previous, current));
      out.push(current);
    } else if (inside(previous)) {
      out.push(crossing(previous, current));
    }
  }
  return out;
};

/** A polygon (outer ring and holes) as planar polygons: each piece of the outer ring with the hole pieces in it. */
export const planarPolygons = (polygon: readonly (readonly Position[])[]): Polygon[] => {
  const [outer, ...holes] = polygon;
  if (!outer) return [];
  const outers = planarRings(outer);
  const holePieces = holes.flatMap((hole) => planarRings(hole));
  return outers.map((ring) => [
    ring,
    ...holePieces.filter((hole) => hole[0] && insideRing(hole[0], ring) && !sameRing(hole, ring)),
  ]);
};

const sameRing = (a: Ring, b: Ring) => a.length === b.length && a.every((p, i) => sameLonLat(p, b[i]));

/** A line on the plane: cut where it crosses the antimeridian, with the crossing point on both sides. */
export const planarLines = (line: readonly Position[]): Ring[] => {
  const lines: Ring[] = [];
  let current: Ring = [];
  for (const position of line) {
    const point: [number, number] = [position[0]!, position[1]!];
    const previous = current.at(-1);
    if (previous && wraps(previous[0], point[0])) {
      const edge = previous[0] > 0 ? 180 : -180;
      const unwrappedLon = previous[0] + normalizedStep(previous[0], point[0]);
      const lat = previous[1] + ((point[1] - previous[1]) * (edge - previous[0])) / (unwrappedLon - previous[0]);
      current.push([edge, lat]);
      lines.push(current);
      current = [[-edge, lat]];
    }
    current.push(point);
  }
  lines.push(current);
  return lines.filter((piece) => piece.length >= 2);
};

/** Coordinates to `precision` decimals (1:50m data has nothing finer than ~1 km), repeated points dropped. */
export const rounded = (ring: readonly [number, number][], precision: number): Ring => {
  const factor = 10 ** precision;
  const out: Ring = [];
  for (const [lon, lat] of ring) {
    const point: [number, number] = [Math.round(lon * factor) / factor, Math.round(lat * factor) / factor];
    if (!sameLonLat(out.at(-1), point)) out.push(point);
  }
  return out;
};

/** A ring's planar area (degrees², positive either way round) and centroid. */
export const ringArea = (ring: Ring): { area: number; centroid: [number, number] } => {
  let twice = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < ring.length - 1; i++) {
    const [x0, y0] = ring[i]!;
    const [x1, y1] = ring[i + 1]!;
    const cross = x0 * y1 - x1 * y0;
    twice += cross;
    cx += (x0 + x1) * cross;
    cy += (y0 + y1) * cross;
  }
  if (twice === 0) return { area: 0, centroid: ring[0] ?? [0, 0] };
  return { area: Math.abs(twice / 2), centroid: [cx / (3 * twice), cy / (3 * twice)] };
};

export const insideRing = ([x, y]: [number, number], ring: Ring): boolean => {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
};

/**
 * Where a country's name goes: the centroid of its largest piece, or, for a piece whose centroid falls outside it
 * (a crescent, a bay), the middle of the widest stretch of the piece along the centroid's parallel.
 */
export const labelPoint = (polygons: readonly Polygon[]): [number, number] | undefined => {
  let best: { ring: Ring; area: number; centroid: [number, number] } | undefined;
  for (const [outer] of polygons) {
    if (!outer) continue;
    const { area, centroid } = ringArea(outer);
    if (!best || area > best.area) best = { ring: outer, area, centroid };
  }
  if (!best) return undefined;
  if (insideRing(best.centroid, best.ring)) return best.centroid;
  const y = best.centroid[1];
  const xs: number[] = [];
  for (let i = 0; i < best.ring.length - 1; i++) {
    const [x0, y0] = best.ring[i]!;
    const [x1, y1] = best.ring[i + 1]!;
    if (y0 > y !== y1 > y) xs.push(x0 + ((x1 - x0) * (y - y0)) / (y1 - y0));
  }
  xs.sort((a, b) => a - b);
  let widest: [number, number] | undefined;
  for (let i = 0; i + 1 < xs.length; i += 2) {
    if (!widest || xs[i + 1]! - xs[i]! > widest[1] - widest[0]) widest = [xs[i]!, xs[i + 1]!];
  }
  return widest ? [(widest[0] + widest[1]) / 2, y] : best.ring[0];
};

/** The area on the globe, roughly (degrees² shrunk by the cosine of the latitude): ranks countries by size. */
const globeArea = (polygons: readonly Polygon[]) =>
  polygons.reduce((sum, [outer]) => {
    if (!outer) return sum;
    const { area, centroid } = ringArea(outer);
    return sum + area * Math.cos((centroid[1] * Math.PI) / 180);
  }, 0);

/** Countries ranked below this many are named from the world view; then closer in (see the style's layers). */
const TIER_1 = 30;
const TIER_2 = 90;

export interface AtlasInput {
  /** world-atlas `land-50m.json` (object `land`). */
  land: Topology;
  /** world-atlas `countries-50m.json` (object `countries`, each with a `name`). */
  countries: Topology;
}

const polygonsOf = (geometry: Feature['geometry']): Position[][][] =>
  geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.type === 'MultiPolygon' ? geometry.coordinates : [];

const roundPolygon = (polygon: Polygon, precision: number): Polygon =>
  polygon.map((ring) => rounded(ring, precision)).filter((ring) => ring.length >= 4);

/** The base map's features from Natural Earth's TopoJSON: land, borders between countries, and country names. */
export const baseMapFromAtlas = ({ land, countries }: AtlasInput, precision = 2): BaseMap => {
  const landObject = land.objects.land;
  const countriesObject = countries.objects.countries;
  if (!landObject || !countriesObject) throw new Error('The atlas lacks its "land" or "countries" object');

  const landShapes = feature(land, landObject) as unknown as FeatureCollection | Feature;
  const landFeatures = 'features' in landShapes ? landShapes.features : [landShapes];
  const landPolygons = landFeatures
    .flatMap((shape) => polygonsOf(shape.geometry))
    .flatMap(planarPolygons)
    .map((polygon) => roundPolygon(polygon, precision))
    .filter((polygon) => polygon.length > 0);

  // Only arcs two countries share: the coast is the land's outline, drawn from the land itself.
  const borders = mesh(countries, countriesObject as never, (a, b) => a !== b) as MultiLineString;
  const borderLines = borders.coordinates
    .flatMap(planarLines)
    .map((line) => rounded(line, precision))
    .filter((line) => line.length >= 2);

  const shapes = feature(countries, countriesObject) as unknown as FeatureCollection<
    MultiPolygon | { type: 'Polygon'; coordinates: Position[][] },
    { name?: string }
  >;
  const named = shapes.features
    .map((country) => {
      const polygons = polygonsOf(country.geometry as Feature['geometry']).flatMap(planarPolygons);
      return { name: country.properties?.name, at: labelPoint(polygons), size: globeArea(polygons) };
    })
    .filter(
      (country): country is { name: string; at: [number, number]; size: number } => !!country.name && !!country.at,
    )
    .sort((a, b) => b.size - a.size || a.name.localeCompare(b.name));

  const factor = 10 ** precision;
  const labels: Feature<Point, BaseMapProperties>[] = named.map(({ name, at }, rank) => ({
    type: 'Feature',
    geometry: {
      type: 'Point',
      coordinates: [Math.round(at[0] * factor) / factor, Math.round(at[1] * factor) / factor],
    },
    properties: { kind: 'label', name, rank, tier: rank < TIER_1 ? 1 : rank < TIER_2 ? 2 : 3 },
  }));

  // One feature per polygon and per line, not one world-sized feature: MapLibre's tiler (geojson-vt) then skips
  // by bounding box what a tile does not touch, which halves the first tiles' time.
  return {
    type: 'FeatureCollection',
    features: [
      ...landPolygons.map(
        (coordinates): Feature<GeoPolygon, BaseMapProperties> => ({
          type: 'Feature',
          geometry: { type: 'Polygon', coordinates },
          properties: { kind: 'land' },
        }),
      ),
      ...borderLines.map(
        (coordinates): Feature<LineString, BaseMapProperties> => ({
          type: 'Feature',
          geometry: { type: 'LineString', coordinates },
          properties: { kind: 'border' },
        }),
      ),
      ...labels,
    ],
  };
};

const atlasFile = (name: string) => createRequire(import.meta.url).resolve(`world-atlas/${name}`);

/**
 * The base map comes in two files, by zoom (issue 36): the world and continents from Natural Earth's 1:110m at 0.1°
 * (about 33 kB gzipped), closer in 1:50m at 0.01° (about 350 kB), which the map fetches only when its view is
 * zoomed in that far (DETAIL_ZOOM in src/features/map/base-map-style.ts). Below that zoom a degree is under 12 px, so
 * 0.1° is under a pixel; from it on, 1:110m's coasts look coarse, and at FIT_MAX_ZOOM 0.01° is about a pixel.
 */
export const BASE_MAP_LEVELS = {
  world: { scale: '110m', precision: 1 },
  detail: { scale: '50m', precision: 2 },
} as const;

export type BaseMapLevel = keyof typeof BASE_MAP_LEVELS;

/** Reads the installed world-atlas files and builds one level's base map as JSON text. */
export const buildBaseMap = async (level: BaseMapLevel = 'detail'): Promise<string> => {
  const { scale, precision } = BASE_MAP_LEVELS[level];
  const [land, countries] = await Promise.all(
    [`land-${scale}.json`, `countries-${scale}.json`].map(async (name) =>
      JSON.parse(await readFile(atlasFile(name), 'utf8')),
    ),
  );
  return JSON.stringify(baseMapFromAtlas({ land, countries }, precision));
};

/** The module through which the map's code learns the base map files' addresses (`baseMapUrls`, by level). */
export const BASE_MAP_MODULE = 'virtual:base-map';
const RESOLVED = `\0${BASE_MAP_MODULE}`;
/** Where the dev server answers with a level's base map (the build emits content-hashed assets instead). */
export const devBaseMapPath = (level: BaseMapLevel) => `/@base-map/base-map-${level}.json`;

const LEVELS = Object.keys(BASE_MAP_LEVELS) as BaseMapLevel[];

/**
 * The Vite plugin. Build: each level becomes `assets/base-map-{level}-{hash}.json` (cached for good like every hashed
 * asset, compressed by CloudFront and the local server) and `virtual:base-map` exports their URLs. Dev server: a file
 * is built on its first request and served from memory. Only the lazy map chunk imports the module.
 */
export const baseMapPlugin = (): Plugin => {
  let config: ResolvedConfig | undefined;
  const built = new Map<BaseMapLevel, Promise<string>>();
  const text = (level: BaseMapLevel) => {
    if (!built.has(level)) built.set(level, buildBaseMap(level));
    return built.get(level)!;
  };
  return {
    name: 'base-map',
    configResolved(resolved) {
      config = resolved;
    },
    resolveId(id) {
      return id === BASE_MAP_MODULE ? RESOLVED : null;
    },
    async load(id) {
      if (id !== RESOLVED) return null;
      if (config?.command !== 'build') {
        const urls = Object.fromEntries(LEVELS.map((level) => [level, devBaseMapPath(level)]));
        return `export const baseMapUrls = ${JSON.stringify(urls)};`;
      }
      const entries = await Promise.all(
        LEVELS.map(async (level) => {
          const reference = this.emitFile({ type: 'asset', name: `base-map-${level}.json`, source: await text(level) });
          return `${JSON.stringify(level)}: import.meta.ROLLUP_FILE_URL_${reference}`;
        }),
      );
      return `export const baseMapUrls = { ${entries.join(', ')} };`;
    },
    configureServer(server) {
      for (const level of LEVELS) {
        server.middlewares.use(devBaseMapPath(level), (_request, response, next) => {
          text(level).then((body) => {
            response.setHeader('content-type', 'application/json');
            response.setHeader('cache-control', 'no-cache');
            response.end(body);
          }, next);
        });
      }
    },
  };
};
