import { badRequest, notImplemented, StaError } from './sta-errors';
import { type Geometry, GeometryError, geoDistance, geoLength, isGeometry, spatialRelation } from './sta-geo';
import {
  datastreamOf,
  type Entity,
  featureOf,
  NAVIGATION,
  observedPropertyEntity,
  PROPERTIES,
  sensorOfDevice,
  TIME_PROPERTIES,
  thingOf,
} from './sta-model';
import { Duration, type Expr, Instant, type OrderBy, type Value } from './sta-odata';

/**
 * $filter and $orderby over entities (OGC 18-088 §9.3.3): property paths (through single navigation properties:
 * `Datastream/Thing/name`), the built-in operators and the built-in functions of Table 23 that apply to our data.
 * A path to a property the entity type does not have is a 400 naming it; a comparison with a null is false except
 * `eq null`; a number compared with a string is compared as a string (the cast the standard asks for).
 */

/** The one entity a single navigation property leads to, from what the entity belongs to. */
export const singleNavigation = (entity: Entity, name: string): Entity | undefined => {
  const device = entity.device;
  switch (`${entity.set}.${name}`) {
    case 'Observations.Datastream':
    case 'Datastreams.Thing':
    case 'HistoricalLocations.Thing':
    case 'Observations.FeatureOfInterest':
    case 'Datastreams.Sensor':
    case 'Datastreams.ObservedProperty':
      break;
    default:
      return undefined;
  }
  if (!device) return undefined;
  if (name === 'Datastream') return datastreamOf(device, entity.measurement!);
  if (name === 'Thing') return thingOf(device);
  if (name === 'FeatureOfInterest') return featureOf(device);
  if (name === 'Sensor') return sensorOfDevice(device);
  return observedPropertyEntity(entity.measurement!);
};

const asGeometry = (value: unknown): Geometry | undefined => {
  if (isGeometry(value)) return value;
  // A FeatureOfInterest's feature may be a GeoJSON Feature: its geometry.
  const geometry = (value as { geometry?: unknown } | null)?.geometry;
  return isGeometry(geometry) ? geometry : undefined;
};

/** The value at a path of an entity; throws a 400 for a property the type does not have. */
const valueAt = (entity: Entity, path: readonly string[]): Value => {
  const [head, ...rest] = path;
  if (head === undefined) return undefined;
  if (head === 'id' && rest.length === 0) return entity.id;
  const navigation = NAVIGATION[entity.set][head];
  if (navigation) {
    if (navigation.many) {
      throw notImplemented(
        `$filter: ${head} is a collection; lambda operators (any, all) are not supported`,
        '$filter',
      );
    }
    const target = singleNavigation(entity, head);
    return target ? valueAt(target, rest) : null;
  }
  if (!PROPERTIES[entity.set].includes(head)) {
    throw badRequest(`${entity.set.slice(0, -1)} has no property ${head}`, '$filter');
  }
  let value: unknown = entity.props[head];
  if (rest.length === 0 && typeof value === 'string' && TIME_PROPERTIES.has(head))
    return new Instant(Date.parse(value));
  for (const key of rest) {
    value =
      value !== null && typeof value === 'object' && Object.hasOwn(value, key)
        ? (value as Record<string, unknown>)[key]
        : null;
  }
  if (value === undefined) return null;
  return value as Value;
};

const isNumber = (value: Value): value is number => typeof value === 'number';
const isText = (value: Value): value is string => typeof value === 'string';

/** Two values made comparable: instants as ms, a number against a string as strings. */
const comparable = (a: Value, b: Value): [unknown, unknown] => {
  if (a instanceof Instant && isText(b)) return [a.ms, Date.parse(b)];
  if (b instanceof Instant && isText(a)) return [Date.parse(a), b.ms];
  if (a instanceof Instant || a instanceof Duration)
    return [a.ms, b instanceof Instant || b instanceof Duration ? b.ms : b];
  if (b instanceof Instant || b instanceof Duration) return [a, b.ms];
  if (isText(a) && (isNumber(b) || typeof b === 'boolean')) return [a, String(b)];
  if (isText(b) && (isNumber(a) || typeof a === 'boolean')) return [String(a), b];
  return [a, b];
};

const equal = (a: Value, b: Value): boolean => {
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  const [x, y] = comparable(a, b);
  if (typeof x === 'object' || typeof y === 'object') return JSON.stringify(x) === JSON.stringify(y);
  return x === y;
};

const compare = (a: Value, b: Value): number | undefined => {
  if (a === null || a === undefined || b === null || b === undefined) return undefined;
  const [x, y] = comparable(a, b);
  if (typeof x !== typeof y || (typeof x !== 'number' && typeof x !== 'string' && typeof x !== 'boolean'))
    return undefined;
  return (x as number) < (y as number) ? -1 : (x as number) > (y as number) ? 1 : 0;
};

const arithmetic = (op: string, a: Value, b: Value): Value => {
  if (a === null || a === undefined || b === null || b === undefined) return null;
  if (a instanceof Instant && b instanceof Duration) return new Instant(op === 'sub' ? a.ms - b.ms : a.ms + b.ms);
  if (a instanceof Instant && b instanceof Instant && op === 'sub') return new Duration(a.ms - b.ms);
  if (!isNumber(a) || !isNumber(b)) throw badRequest(`$filter: ${op} needs two numbers`, '$filter');
  switch (op) {
    case 'add':
      return a + b;
    case 'sub':
      return a - b;
    case 'mul':
      return a * b;
    case 'div':
      return b === 0 ? null : a / b;
    default:
      return b === 0 ? null : a % b;
  }
};

const text = (fn: string, value: Value): string | null => {
  if (value === null || value === undefined) return null;
  if (isText(value)) return value;
  if (isNumber(value) || typeof value === 'boolean') return String(value);
  throw badRequest(`$filter: ${fn} needs text`, '$filter');
};

const instant = (fn: string, value: Value): Date | null => {
  if (value === null || value === undefined) return null;
  if (value instanceof Instant) return new Date(value.ms);
  if (isText(value) && !Number.isNaN(Date.parse(value))) return new Date(Date.parse(value));
  throw badRequest(`$filter: ${fn} needs a time`, '$filter');
};

const number = (fn: string, value: Value): number | null => {
  if (value === null || value === undefined) return null;
  if (isNumber(value)) return value;
  throw badRequest(`$filter: ${fn} needs a number`, '$filter');
};

const ARITY: Record<string, number[]> = {
  substringof: [2],
  contains: [2],
  endswith: [2],
  startswith: [2],
  length: [1],
  indexof: [2],
  substring: [2, 3],
  tolower: [1],
  toupper: [1],
  trim: [1],
  concat: [2],
  year: [1],
  month: [1],
  day: [1],
  hour: [1],
  minute: [1],
  second: [1],
  fractionalseconds: [1],
  date: [1],
  time: [1],
  totaloffsetminutes: [1],
  now: [0],
  mindatetime: [0],
  maxdatetime: [0],
  round: [1],
  floor: [1],
  ceiling: [1],
  'geo.distance': [2],
  'geo.length': [1],
  'geo.intersects': [2],
  st_equals: [2],
  st_disjoint: [2],
  st_touches: [2],
  st_within: [2],
  st_overlaps: [2],
  st_crosses: [2],
  st_intersects: [2],
  st_contains: [2],
};

const call = (fn: string, args: Value[], now: number): Value => {
  const expected = ARITY[fn];
  if (!expected) throw notImplemented(`$filter: the function ${fn} is not supported`, '$filter');
  if (!expected.includes(args.length))
    throw badRequest(`$filter: ${fn} takes ${expected.join(' or ')} arguments`, '$filter');
  const [a, b, c] = args;
  switch (fn) {
    case 'substringof': {
      const [needle, haystack] = [text(fn, a), text(fn, b)];
      return needle === null || haystack === null ? null : haystack.includes(needle);
    }
    case 'contains':
    case 'endswith':
    case 'startswith': {
      const [haystack, needle] = [text(fn, a), text(fn, b)];
      if (haystack === null || needle === null) return null;
      return fn === 'contains'
        ? haystack.includes(needle)
        : fn === 'endswith'
          ? haystack.endsWith(needle)
          : haystack.startsWith(needle);
    }
    case 'length':
      return text(fn, a)?.length ?? null;
    case 'indexof': {
      const [haystack, needle] = [text(fn, a), text(fn, b)];
      return haystack === null || needle === null ? null : haystack.indexOf(needle);
    }
    case 'substring': {
      const s = text(fn, a);
      const start = number(fn, b);
      const count = c === undefined ? undefined : number(fn, c);
      if (s === null || start === null || count === null) return null;
      return count === undefined ? s.slice(start) : s.slice(start, start + count);
    }
    case 'tolower':
      return text(fn, a)?.toLowerCase() ?? null;
    case 'toupper':
      return text(fn, a)?.toUpperCase() ?? null;
    case 'trim':
      return text(fn, a)?.trim() ?? null;
    case 'concat': {
      const [x, y] = [text(fn, a), text(fn, b)];
      return x === null || y === null ? null : x + y;
    }
    case 'year':
    case 'month':
    case 'day':
    case 'hour':
    case 'minute':
    case 'second':
    case 'fractionalseconds':
    case 'date':
    case 'time':
    case 'totaloffsetminutes': {
      const d = instant(fn, a);
      if (d === null) return null;
      // Every time this service holds is UTC.
      switch (fn) {
        case 'year':
          return d.getUTCFullYear();
        case 'month':
          return d.getUTCMonth() + 1;
        case 'day':
          return d.getUTCDate();
        case 'hour':
          return d.getUTCHours();
        case 'minute':
          return d.getUTCMinutes();
        case 'second':
          return d.getUTCSeconds();
        case 'fractionalseconds':
          return d.getUTCMilliseconds() / 1000;
        case 'date':
          return new Instant(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
        case 'time':
          return new Duration(d.getTime() - Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
        default:
          return 0;
      }
    }
    case 'now':
      return new Instant(now);
    case 'mindatetime':
      return new Instant(-62_135_596_800_000);
    case 'maxdatetime':
      return new Instant(253_402_300_799_999);
    case 'round':
    case 'floor':
    case 'ceiling': {
      const n = number(fn, a);
      return n === null ? null : fn === 'round' ? Math.round(n) : fn === 'floor' ? Math.floor(n) : Math.ceil(n);
    }
    default: {
      const geometries = args.map(asGeometry);
      if (geometries.some((g) => g === undefined)) return null;
      try {
        if (fn === 'geo.distance') return geoDistance(geometries[0]!, geometries[1]!);
        if (fn === 'geo.length') return geoLength(geometries[0]!);
        return spatialRelation(fn, geometries[0]!, geometries[1]!);
      } catch (error) {
        if (error instanceof GeometryError) throw notImplemented(`$filter: ${error.message}`, '$filter');
        throw error;
      }
    }
  }
};

export const evaluate = (expr: Expr, entity: Entity, now: number): Value => {
  switch (expr.kind) {
    case 'literal':
      return expr.value;
    case 'path':
      return valueAt(entity, expr.path);
    case 'not': {
      const value = evaluate(expr.expr, entity, now);
      return value === null || value === undefined ? null : !value;
    }
    case 'negate': {
      const value = evaluate(expr.expr, entity, now);
      if (value instanceof Duration) return new Duration(-value.ms);
      return value === null || value === undefined ? null : -number('-', value)!;
    }
    case 'call':
      return call(
        expr.fn,
        expr.args.map((arg) => evaluate(arg, entity, now)),
        now,
      );
    case 'binary': {
      if (expr.op === 'and' || expr.op === 'or') {
        const left = evaluate(expr.left, entity, now) === true;
        if (expr.op === 'and' && !left) return false;
        if (expr.op === 'or' && left) return true;
        return evaluate(expr.right, entity, now) === true;
      }
      const left = evaluate(expr.left, entity, now);
      const right = evaluate(expr.right, entity, now);
      switch (expr.op) {
        case 'eq':
          return equal(left, right);
        case 'ne':
          return !equal(left, right);
        case 'gt':
        case 'ge':
        case 'lt':
        case 'le': {
          const order = compare(left, right);
          if (order === undefined) return false;
          return expr.op === 'gt'
            ? order > 0
            : expr.op === 'ge'
              ? order >= 0
              : expr.op === 'lt'
                ? order < 0
                : order <= 0;
        }
        default:
          return arithmetic(expr.op, left, right);
      }
    }
  }
};

/** Whether an entity passes a filter (a filter that is not true, null included, leaves it out). */
export const matches = (filter: Expr | undefined, entity: Entity, now: number): boolean =>
  filter === undefined || evaluate(filter, entity, now) === true;

/** Checks every path of an expression against an entity type up front, so a bad name fails on an empty set too. */
export const checkPaths = (expr: Expr | undefined, probe: Entity, target: string): void => {
  if (!expr) return;
  const walk = (node: Expr) => {
    if (node.kind === 'path') {
      try {
        valueAt(probe, node.path);
      } catch (error) {
        if (error instanceof StaError) throw new StaError(error.status, error.message, target);
        throw error;
      }
    } else if (node.kind === 'binary') {
      walk(node.left);
      walk(node.right);
    } else if (node.kind === 'not' || node.kind === 'negate') {
      walk(node.expr);
    } else if (node.kind === 'call') {
      node.args.forEach(walk);
    }
  };
  walk(expr);
};

/** Sorts by $orderby (nulls first ascending, as OData), then by id so pages never overlap. */
export const sortEntities = (entities: Entity[], orderBy: readonly OrderBy[], now: number): Entity[] => {
  const keyed = entities.map((entity) => ({ entity, keys: orderBy.map((o) => evaluate(o.expr, entity, now)) }));
  keyed.sort((x, y) => {
    for (const [i, o] of orderBy.entries()) {
      const a = x.keys[i];
      const b = y.keys[i];
      const an = a === null || a === undefined;
      const bn = b === null || b === undefined;
      let order = an && bn ? 0 : an ? -1 : bn ? 1 : (compare(a, b) ?? 0);
      if (o.desc) order = -order;
      if (order !== 0) return order;
    }
    return x.entity.id < y.entity.id ? -1 : x.entity.id > y.entity.id ? 1 : 0;
  });
  return keyed.map((k) => k.entity);
};
