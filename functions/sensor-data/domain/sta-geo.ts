/**
 * The geometry a SensorThings filter compares: GeoJSON geometries (what Locations and FeaturesOfInterest hold), the
 * WKT literals of `geography'…'` / `geometry'…'` read into them, and the spatial functions of OGC 18-088 Table 23
 * (`geo.distance`, `geo.length`, `geo.intersects`, `st_*`). Our entities are points (a device's location), so each
 * relation is decided with one side a point; two areas or lines are refused (501) rather than answered wrongly.
 * Distances and lengths are planar, in the units of the CRS (degrees for WGS 84), as the standard defines them.
 */

export type Position = [number, number];

export type Geometry =
  | { type: 'Point'; coordinates: Position }
  | { type: 'LineString'; coordinates: Position[] }
  | { type: 'Polygon'; coordinates: Position[][] }
  | { type: 'MultiPoint'; coordinates: Position[] }
  | { type: 'MultiLineString'; coordinates: Position[][] }
  | { type: 'MultiPolygon'; coordinates: Position[][][] };

/** A geometry that is not one this module reads or compares. */
export class GeometryError extends Error {}

const KINDS: Record<string, Geometry['type']> = {
  POINT: 'Point',
  LINESTRING: 'LineString',
  POLYGON: 'Polygon',
  MULTIPOINT: 'MultiPoint',
  MULTILINESTRING: 'MultiLineString',
  MULTIPOLYGON: 'MultiPolygon',
};

/** Nested lists of `x y` positions: `(1 2, 3 4)` is a list of positions, `((…), (…))` a list of lists. */
type Nested = Position | Nested[];

/** Reads WKT (`POINT(-122 43)`, `POLYGON((0 0, 1 0, 1 1, 0 0))`, an optional `SRID=4326;` first) into GeoJSON. */
export const readWkt = (text: string): Geometry => {
  const wkt = text.trim().replace(/^SRID=\d{1,5};/i, '');
  const head = /^([A-Za-z]+)\s*(\(.*\))$/s.exec(wkt);
  const type = head ? KINDS[head[1]!.toUpperCase()] : undefined;
  if (!head || !type) throw new GeometryError(`Not a WKT geometry this service reads: ${text}`);
  const body = head[2]!;
  let index = 0;
  const skip = () => {
    while (index < body.length && /\s/.test(body[index]!)) index += 1;
  };
  const list = (): Nested => {
    skip();
    if (body[index] !== '(') throw new GeometryError(`Expected "(" at ${index} in ${text}`);
    index += 1;
    skip();
    const items: Nested[] = [];
    if (body[index] === '(') {
      for (;;) {
        items.push(list());
        skip();
        if (body[index] === ',') {
          index += 1;
          continue;
        }
        break;
      }
    } else {
      const numbers = /^[^()]*/.exec(body.slice(index))![0];
      index += numbers.length;
      for (const pair of numbers.split(',')) {
        const xy = pair.trim().split(/\s+/).map(Number);
        if (xy.length < 2 || xy.length > 3 || xy.some((n) => !Number.isFinite(n))) {
          throw new GeometryError(`Not a position: "${pair.trim()}" in ${text}`);
        }
        items.push([xy[0]!, xy[1]!]);
      }
    }
    skip();
    if (body[index] !== ')') throw new GeometryError(`Expected ")" at ${index} in ${text}`);
    index += 1;
    return items;
  };
  const nested = list();
  skip();
  if (index !== body.length) throw new GeometryError(`Unexpected text after the geometry in ${text}`);
  const depth = (node: Nested): number => (typeof node[0] === 'number' ? 0 : 1 + depth(node[0] as Nested));
  const expected = { Point: 1, LineString: 1, MultiPoint: 1, Polygon: 2, MultiLineString: 2, MultiPolygon: 3 }[type];
  if (depth(nested) !== expected) throw new GeometryError(`A ${type} of the wrong shape: ${text}`);
  if (type === 'Point') {
    if ((nested as Position[]).length !== 1) throw new GeometryError(`A point has one position: ${text}`);
    return { type, coordinates: (nested as Position[])[0]! };
  }
  return { type, coordinates: nested } as Geometry;
};

export const isGeometry = (value: unknown): value is Geometry =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { type?: unknown }).type === 'string' &&
  Object.values(KINDS).includes((value as { type: Geometry['type'] }).type) &&
  Array.isArray((value as { coordinates?: unknown }).coordinates);

const distanceToSegment = ([px, py]: Position, [ax, ay]: Position, [bx, by]: Position): number => {
  const dx = bx - ax;
  const dy = by - ay;
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / length2));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
};

/** Ray casting; a point on the ring's edge counts as inside (closed sets, as OGC simple features). */
const inRing = (point: Position, ring: Position[]): boolean => {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i, i += 1) {
    if (distanceToSegment(point, ring[j]!, ring[i]!) === 0) return true;
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > point[1] !== yj > point[1] && point[0] < ((xj - xi) * (point[1] - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
};

const onRingEdge = (point: Position, ring: Position[]) =>
  ring.some((corner, i) => i > 0 && distanceToSegment(point, ring[i - 1]!, corner) === 0);

const inPolygon = (point: Position, rings: Position[][]) =>
  inRing(point, rings[0]!) && !rings.slice(1).some((hole) => inRing(point, hole) && !onRingEdge(point, hole));

const pathsOf = (geometry: Geometry): Position[][] => {
  switch (geometry.type) {
    case 'Point':
      return [[geometry.coordinates]];
    case 'MultiPoint':
      return geometry.coordinates.map((p) => [p]);
    case 'LineString':
      return [geometry.coordinates];
    case 'MultiLineString':
      return geometry.coordinates;
    case 'Polygon':
      return geometry.coordinates;
    case 'MultiPolygon':
      return geometry.coordinates.flat();
  }
};

/** Planar distance from a point to a geometry: 0 inside an area. */
const pointDistance = (point: Position, geometry: Geometry): number => {
  if (geometry.type === 'Polygon' && inPolygon(point, geometry.coordinates)) return 0;
  if (geometry.type === 'MultiPolygon' && geometry.coordinates.some((rings) => inPolygon(point, rings))) return 0;
  let best = Number.POSITIVE_INFINITY;
  for (const path of pathsOf(geometry)) {
    if (path.length === 1) best = Math.min(best, Math.hypot(point[0] - path[0]![0], point[1] - path[0]![1]));
    for (let i = 1; i < path.length; i += 1) best = Math.min(best, distanceToSegment(point, path[i - 1]!, path[i]!));
  }
  return best;
};

const pointsOf = (geometry: Geometry): Position[] | undefined =>
  geometry.type === 'Point'
    ? [geometry.coordinates]
    : geometry.type === 'MultiPoint'
      ? geometry.coordinates
      : undefined;

/** The two sides with the points first, or a refusal when neither side is points. */
const withPoints = (a: Geometry, b: Geometry): { points: Position[]; other: Geometry; swapped: boolean } => {
  const pa = pointsOf(a);
  if (pa) return { points: pa, other: b, swapped: false };
  const pb = pointsOf(b);
  if (pb) return { points: pb, other: a, swapped: true };
  throw new GeometryError('Spatial relations between two lines or areas are not supported: one side must be a point');
};

/** Whether a point lies on the boundary of a geometry (a polygon's rings, a line's ends). */
const onBoundary = (point: Position, geometry: Geometry): boolean => {
  if (geometry.type === 'Polygon') return geometry.coordinates.some((ring) => onRingEdge(point, ring));
  if (geometry.type === 'MultiPolygon') return geometry.coordinates.flat().some((ring) => onRingEdge(point, ring));
  if (geometry.type === 'LineString') {
    const line = geometry.coordinates;
    return [line[0]!, line[line.length - 1]!].some((end) => end[0] === point[0] && end[1] === point[1]);
  }
  return false;
};

const dimension = (geometry: Geometry) =>
  geometry.type === 'Point' || geometry.type === 'MultiPoint'
    ? 0
    : geometry.type === 'LineString' || geometry.type === 'MultiLineString'
      ? 1
      : 2;

export const geoDistance = (a: Geometry, b: Geometry): number => {
  const { points, other } = withPoints(a, b);
  return Math.min(...points.map((point) => pointDistance(point, other)));
};

export const geoLength = (geometry: Geometry): number =>
  geometry.type === 'LineString' || geometry.type === 'MultiLineString'
    ? pathsOf(geometry).reduce(
        (sum, path) =>
          sum + path.slice(1).reduce((s, p, i) => s + Math.hypot(p[0] - path[i]![0], p[1] - path[i]![1]), 0),
        0,
      )
    : 0;

/** The DE-9IM named predicates of OGC 18-088 Table 23 (`st_relate` excepted), with one side a point. */
export const spatialRelation = (name: string, a: Geometry, b: Geometry): boolean => {
  const { points, other, swapped } = withPoints(a, b);
  const hits = points.map((point) => pointDistance(point, other) === 0);
  const intersects = hits.some(Boolean);
  const allIn = hits.every(Boolean);
  const boundaryOnly = points.every((point, i) => !hits[i] || onBoundary(point, other));
  switch (name) {
    case 'geo.intersects':
    case 'st_intersects':
      return intersects;
    case 'st_disjoint':
      return !intersects;
    case 'st_equals': {
      const others = pointsOf(other);
      const same = (p: Position, q: Position) => p[0] === q[0] && p[1] === q[1];
      return (
        !!others &&
        points.every((p) => others.some((q) => same(p, q))) &&
        others.every((q) => points.some((p) => same(p, q)))
      );
    }
    case 'st_within':
      // points within the other: every point in it, not all on its boundary; the other within points: only a point.
      return swapped ? dimension(other) === 0 && allIn : allIn && (dimension(other) === 0 || !boundaryOnly);
    case 'st_contains':
      return swapped ? allIn && (dimension(other) === 0 || !boundaryOnly) : dimension(other) === 0 && allIn;
    case 'st_touches':
      return dimension(other) > 0 && intersects && boundaryOnly;
    case 'st_overlaps':
    case 'st_crosses':
      // A point never overlaps or crosses anything of its own or a higher dimension.
      return false;
    default:
      throw new GeometryError(`Unknown spatial function ${name}`);
  }
};
