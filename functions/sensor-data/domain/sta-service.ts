import type { Caller } from '../../../shared/auth/verify-token';
import type { TimeRange } from '../../../shared/campaigns/window';
import { MAX_READINGS_OFFSET } from '../../../shared/contracts/sensor-data-readings';
import type { StaDocument, StaQuery } from '../../../shared/contracts/sensor-data-sta';
import { placeFor } from '../../_shared/devices/location-privacy';
import { DomainError, Forbidden } from '../../_shared/errors';
import type { Log } from '../../_shared/logger';
import type { ReadAhead } from '../../_shared/read-ahead';
import {
  type DataAccess,
  type DataAccessModule,
  type DataDevice,
  type DataPurpose,
  readableRanges,
} from '../../_shared/sensor-data/data-access';
import type { ReadingsStore, StoredReading } from '../../_shared/sensor-data/readings-store';
import { badRequest, StaError } from './sta-errors';
import { checkPaths, matches, singleNavigation, sortEntities } from './sta-evaluate';
import {
  type CampaignRef,
  type DeviceView,
  datastreamOf,
  ENTITY_SETS,
  ENTITY_TYPE,
  type Entity,
  type EntitySet,
  featureOf,
  historicalLocationsOf,
  locationOf,
  NAVIGATION,
  observationOf,
  observedPropertyEntity,
  PROPERTIES,
  SEPARATOR,
  sensorOf,
  sensorOfDevice,
  thingOf,
} from './sta-model';
import { type Expand, type Expr, Instant, parseQueryOptions, type QueryOptions, topOf } from './sta-odata';

/** One device as the caller may see it, and how: what the catalogue lists and a single entity's gate resolves. */
export interface VisibleDevice {
  device: DataDevice;
  /** Staff, owner or administrator: the exact location whatever its privacy. */
  manages: boolean;
  /** The campaigns the caller sees it through (their windows clip its Observations). */
  campaignIds: readonly string[];
}

/** The port the service lists devices and campaigns through (functions/sensor-data/store/sta-catalog.ts). */
export interface StaCatalog {
  /**
   * Every device the caller may see: the public ones, those of their relations and their campaigns (staff: all),
   * each once, with how they see it.
   */
  visible: (caller: Caller | undefined) => Promise<VisibleDevice[]>;
  /** Campaigns' names and windows (unknown ids left out). */
  campaigns: (ids: readonly string[]) => Promise<CampaignRef[]>;
}

/**
 * How a public-API call is metered, once, before any reading is read (refused requests cost nothing): against the one
 * device whose Observations it reads, or, when it reads several devices or none, against the caller's own allowance.
 */
export type StaMeter = (single: DataAccess | undefined) => Promise<void>;

export interface StaDeps {
  catalog: StaCatalog;
  dataAccess: Pick<DataAccessModule, 'resolve'>;
  readings: Pick<ReadingsStore, 'query'>;
  /**
   * The data-quality flags of one value of a reading, where the reading carries them (issue 39 adds them): the
   * Observation's resultQuality. Absent: no flags yet, and Observations carry none.
   */
  qualityOf?: (reading: StoredReading, measurement: string) => unknown;
  log: Log;
  now: () => number;
}

export interface StaRequest {
  caller: Caller | undefined;
  /** The resource path after the version (`Things('a')/Datastreams`), or '' for the service document. */
  path: string;
  query: StaQuery;
  /** The URL as called, without its query: links are built from it. */
  url: string;
  /** `view` for people and guests, `api` for an API key (its tier's API window). */
  purpose: DataPurpose;
  /** Public-API calls only. */
  meter?: StaMeter;
  /** The single device's keys read with the session record, when the path names one. */
  ahead?: ReadAhead;
  /** Asks the answer to carry a header (a text `$value`). */
  setHeader: (name: string, value: string) => void;
}

/** Readings one request may examine for Observations (a filter on `result` reads past what it keeps). */
export const OBSERVATION_BUDGET = 100_000;
/** Readings read in one Query when no page bounds the read (a count, an order other than time). */
const CHUNK = 1_000;

const CONFORMANCE = [
  'http://www.opengis.net/spec/iot_sensing/1.1/req/datamodel',
  'http://www.opengis.net/spec/iot_sensing/1.1/req/resource-path/resource-path-to-entities',
  'http://www.opengis.net/spec/iot_sensing/1.1/req/request-data',
];

/** The device a path's key names first (Things, Datastreams, Observations, … ids start with the device id). */
const DEVICE_BOUND: ReadonlySet<EntitySet> = new Set([
  'Things',
  'Locations',
  'HistoricalLocations',
  'Datastreams',
  'Observations',
  'FeaturesOfInterest',
]);

interface Segment {
  name: string;
  key?: string;
}

/** `Things('a')/Datastreams` as segments; a key is a quoted string (quotes doubled) or a number. */
const segmentsOf = (path: string): Segment[] => {
  const segments: Segment[] = [];
  let rest = path;
  while (rest.length > 0) {
    const m = /^([A-Za-z$@][\w.$@]*)(?:\((?:'((?:[^']|'')*)'|(-?\d+))\))?(?:\/|$)/.exec(rest);
    if (!m) throw new StaError(404, `Not a resource path of this service: /${path}`);
    segments.push({
      name: m[1]!,
      ...(m[2] !== undefined || m[3] !== undefined ? { key: m[2]?.replaceAll("''", "'") ?? m[3] } : {}),
    });
    rest = rest.slice(m[0].length);
  }
  return segments;
};

/** `Things('a')` as a URL: the id quoted (its quotes doubled) and percent-encoded where a URL needs it. */
const keyed = (set: string, id: string) =>
  `${set}('${encodeURIComponent(id.replaceAll("'", "''")).replaceAll('%7E', '~')}')`;

/** A collection, before its options: in memory, or a device's readings. */
type Collection =
  | { kind: 'entities'; set: EntitySet; load: () => Promise<Entity[]> }
  | { kind: 'observations'; sources: () => Promise<ObservationSource[]> };

/** The Observations of some measurements of one device. */
interface ObservationSource {
  device: DeviceView;
  measurements: readonly string[];
}

type Target =
  | { kind: 'root' }
  | { kind: 'collection'; collection: Collection; self: string; ref: boolean }
  | { kind: 'entity'; entity: Entity; ref: boolean }
  | { kind: 'property'; entity: Entity; property: string; raw: boolean };

/** A position in an Observation order: the last one a page held (the next page starts after it). */
interface Cursor {
  t: number;
  id: string;
}

const encodeToken = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url');
const decodeToken = (token: string): Cursor => {
  try {
    const cursor = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Cursor;
    if (typeof cursor.t === 'number' && typeof cursor.id === 'string') return cursor;
  } catch {
    // answered below
  }
  throw badRequest('$skiptoken is not one this service gave', '$skiptoken');
};

/** The phenomenonTime range a filter's top-level `and` pins down, so only that part of the readings is read. */
export const timeBounds = (filter: Expr | undefined): { from?: number; to?: number } => {
  const bounds: { from?: number; to?: number } = {};
  const walk = (node: Expr) => {
    if (node.kind !== 'binary') return;
    if (node.op === 'and') {
      walk(node.left);
      walk(node.right);
      return;
    }
    const flipped = { gt: 'lt', ge: 'le', lt: 'gt', le: 'ge', eq: 'eq' } as const;
    let op = node.op as keyof typeof flipped;
    if (!(op in flipped)) return;
    let [path, literal] = [node.left, node.right];
    if (path.kind !== 'path') {
      [path, literal] = [node.right, node.left];
      op = flipped[op];
    }
    if (path.kind !== 'path' || path.path.join('/') !== 'phenomenonTime' || literal.kind !== 'literal') return;
    const value = literal.value;
    const t = value instanceof Instant ? value.ms : typeof value === 'string' ? Date.parse(value) : Number.NaN;
    if (Number.isNaN(t)) return;
    if (op === 'gt' || op === 'ge' || op === 'eq')
      bounds.from = Math.max(bounds.from ?? -Infinity, op === 'gt' ? t + 1 : t);
    if (op === 'lt' || op === 'le' || op === 'eq') bounds.to = Math.min(bounds.to ?? Infinity, op === 'lt' ? t - 1 : t);
  };
  walk(filter ?? { kind: 'literal', value: null });
  return bounds;
};

/** The order a Observations query asks for, when the readings can be read in it: by time, up or down. */
const timeOrder = (options: QueryOptions): 'asc' | 'desc' | undefined => {
  const [first, ...rest] = options.orderBy;
  if (!first) return 'asc';
  const name = first.expr.kind === 'path' ? first.expr.path.join('/') : '';
  if (name !== 'phenomenonTime' && name !== 'resultTime' && name !== 'id') return undefined;
  // Later keys only order ties of time; the reads order those by id, which is what they are asked for or harmless.
  if (rest.some((o) => o.expr.kind !== 'path' || !['id', 'phenomenonTime'].includes(o.expr.path.join('/')))) {
    return undefined;
  }
  return first.desc ? 'desc' : 'asc';
};

/**
 * The SensorThings API 1.1 (docs/open-data.md): the resource path resolved against what the caller may see, the
 * query options applied (docs/decisions/071-odata-parser.md), Observations read through the readings store's key
 * reads within the caller's windows (never a scan), and every answer's links built from the URL called.
 */
export const createSensorThings = ({ catalog, dataAccess, readings, qualityOf, log, now }: StaDeps) => {
  const viewOf = (visible: VisibleDevice, campaigns: readonly CampaignRef[]): DeviceView => {
    const { device, manages } = visible;
    const seen = device.location ? placeFor(device.location, device.locationPrivacy, manages) : undefined;
    const moves = seen
      ? (device.locationHistory ?? []).map((move) => placeFor(move, device.locationPrivacy, manages)!.place)
      : [];
    return {
      id: device.id,
      name: device.name,
      productLine: device.productLine,
      model: device.model ?? device.productLine.toUpperCase(),
      state: device.state,
      dataVisibility: device.dataVisibility,
      ...(device.created === undefined ? {} : { created: device.created }),
      ...(device.lastSeen === undefined ? {} : { lastSeen: device.lastSeen }),
      ...(seen ? { location: seen.place } : {}),
      locationApproximate: seen?.approximate ?? false,
      moves,
      measurements: [...(device.measurementNames ?? [])].sort(),
      ...(device.measurementUnits ? { units: device.measurementUnits } : {}),
      campaigns: campaigns.filter((c) => visible.campaignIds.includes(c.id)),
    };
  };

  return {
    handle: async (request: StaRequest): Promise<StaDocument> => {
      try {
        return await answer(request);
      } catch (error) {
        if (!(error instanceof DomainError)) log('error', 'SensorThings request failed', { path: request.path, error });
        throw error;
      }
    },
  };

  async function answer(request: StaRequest): Promise<StaDocument> {
    const { caller, purpose } = request;
    const at = now();
    const root = request.path
      ? request.url.slice(0, request.url.length - request.path.length - 1)
      : request.url.replace(/\/$/, '');
    const options = parseQueryOptions(request.query);

    // What the caller may see, read once per request and only when the request needs more than one device.
    let universe: Promise<DeviceView[]> | undefined;
    const everything = () => {
      universe ??= (async () => {
        const visible = await catalog.visible(caller);
        const campaigns = await catalog.campaigns([...new Set(visible.flatMap((v) => v.campaignIds))]);
        return visible.map((v) => viewOf(v, campaigns));
      })();
      return universe;
    };

    // Each device's gate (tier, windows), resolved once, consistently, before any of its readings is read.
    const accesses = new Map<string, Promise<DataAccess>>();
    const accessOf = (deviceId: string, ahead?: ReadAhead) => {
      let access = accesses.get(deviceId);
      if (!access) {
        access = dataAccess.resolve(caller, deviceId, ahead);
        accesses.set(deviceId, access);
      }
      return access;
    };

    /** The one device a keyed path names: through its gate (404 unknown; 401/403 not visible). */
    let single: DataAccess | undefined;
    const device = async (deviceId: string): Promise<DeviceView> => {
      const access = await accessOf(deviceId, request.ahead);
      single ??= access;
      const campaigns = access.campaignIds?.length ? await catalog.campaigns(access.campaignIds) : [];
      return viewOf(
        { device: access.device, manages: access.manages ?? false, campaignIds: access.campaignIds ?? [] },
        campaigns,
      );
    };

    const notFound = (set: EntitySet, id: string) => new StaError(404, `No ${ENTITY_TYPE[set]} with id ${id}`);

    const byId = async (set: EntitySet, id: string): Promise<Entity> => {
      const [deviceId = '', second, third] = id.split(SEPARATOR);
      if (DEVICE_BOUND.has(set)) {
        if (!deviceId) throw notFound(set, id);
        const view = await device(deviceId);
        const time = second === undefined ? undefined : Number(second);
        switch (set) {
          case 'Things':
            if (second !== undefined) throw notFound(set, id);
            return thingOf(view);
          case 'FeaturesOfInterest':
            if (second !== undefined) throw notFound(set, id);
            return featureOf(view);
          case 'Locations': {
            const move = view.moves.find((m) => m.time === time);
            const location = second === undefined ? locationOf(view) : move ? locationOf(view, move) : undefined;
            if (!location || third !== undefined) throw notFound(set, id);
            return location;
          }
          case 'HistoricalLocations': {
            const found = historicalLocationsOf(view).find((h) => h.id === id);
            if (!found) throw notFound(set, id);
            return found;
          }
          case 'Datastreams':
            if (second === undefined || third !== undefined || !view.measurements.includes(second))
              throw notFound(set, id);
            return datastreamOf(view, second);
          default: {
            const timestamp = Number(third);
            if (second === undefined || !view.measurements.includes(second) || !Number.isSafeInteger(timestamp)) {
              throw notFound(set, id);
            }
            const [found] = await observationsAt(view, second, timestamp);
            if (!found) throw notFound(set, id);
            return found;
          }
        }
      }
      const all = await everything();
      if (set === 'Sensors') {
        const owner = all.find((d) => sensorOfDevice(d).id === id);
        if (!owner) throw notFound(set, id);
        return sensorOfDevice(owner);
      }
      if (!all.some((d) => d.measurements.includes(id))) throw notFound(set, id);
      return observedPropertyEntity(id);
    };

    /** The parts of a device's readings the caller may read, within `bounds`; none when the tier gives no access. */
    const partsOf = async (
      view: DeviceView,
      bounds: { from?: number; to?: number },
      strict: boolean,
    ): Promise<TimeRange[]> => {
      const access = await accessOf(view.id);
      let parts: TimeRange[];
      try {
        ({ parts } = readableRanges(access, purpose, { to: bounds.to }, at));
      } catch (error) {
        // A tier without API access: one device asked for is refused; among several it gives no Observations.
        if (!strict && error instanceof Forbidden) return [];
        throw error;
      }
      return parts
        .map((part) => ({
          from: Math.max(part.from, bounds.from ?? part.from),
          to: Math.min(part.to, bounds.to ?? part.to),
        }))
        .filter((part) => part.from <= part.to);
    };

    const observationEntities = (view: DeviceView, measurements: readonly string[], reading: StoredReading) =>
      measurements.flatMap((measurement) => {
        const result = reading.values[measurement];
        if (result === undefined) return [];
        const resultQuality = qualityOf?.(reading, measurement);
        return [
          observationOf(view, measurement, {
            timestamp: reading.timestamp,
            result,
            ...(resultQuality === undefined ? {} : { resultQuality }),
          }),
        ];
      });

    async function observationsAt(view: DeviceView, measurement: string, timestamp: number): Promise<Entity[]> {
      const parts = await partsOf(view, { from: timestamp, to: timestamp }, true);
      if (parts.length === 0) return [];
      const found = await readings.query(view.id, { from: timestamp, to: timestamp, order: 'asc', limit: 1 });
      return found.flatMap((reading) => observationEntities(view, [measurement], reading));
    }

    /**
     * One source's Observations in time order, matching the filter, from `after` on: at most `wanted`, reading at most
     * `budget` readings. `frontier` is where reading stopped short of the range's end (the budget ran out).
     */
    const readSource = async (
      source: ObservationSource,
      filter: Expr | undefined,
      order: 'asc' | 'desc',
      wanted: number,
      budget: number,
      after: Cursor | undefined,
      strict: boolean,
    ): Promise<{ entities: Entity[]; examined: number; frontier?: number }> => {
      const bounds = timeBounds(filter);
      if (after) {
        if (order === 'asc') bounds.from = Math.max(bounds.from ?? -Infinity, after.t);
        else bounds.to = Math.min(bounds.to ?? Infinity, after.t);
      }
      const parts = await partsOf(source.device, bounds, strict);
      const entities: Entity[] = [];
      let examined = 0;
      const ordered = order === 'asc' ? parts : [...parts].reverse();
      for (const part of ordered) {
        let { from, to } = part;
        while (from <= to && entities.length < wanted) {
          if (examined >= budget) return { entities, examined, frontier: order === 'asc' ? from : to };
          // No more readings than the page still needs (a reading gives each source measurement at most one
          // Observation), in one Query: the one past a full page, read to know whether a next link is due, costs one
          // reading, not a second round trip. A read with no page to fill (a count, another order) goes by chunks.
          const limit = Math.min(budget - examined, Number.isFinite(wanted) ? wanted - entities.length : CHUNK);
          const chunk = await readings.query(source.device.id, { from, to, order, limit });
          examined += chunk.length;
          for (const reading of chunk) {
            for (const entity of observationEntities(source.device, source.measurements, reading)) {
              if (after && !isAfter(entity, after, order)) continue;
              if (matches(filter, entity, at)) entities.push(entity);
            }
          }
          if (chunk.length < limit) break;
          const last = chunk[chunk.length - 1]!.timestamp;
          if (order === 'asc') from = last + 1;
          else to = last - 1;
        }
        if (entities.length >= wanted) break;
      }
      return { entities, examined };
    };

    const isAfter = (entity: Entity, cursor: Cursor, order: 'asc' | 'desc') => {
      const t = entity.observation!.timestamp;
      if (t !== cursor.t) return order === 'asc' ? t > cursor.t : t < cursor.t;
      return order === 'asc' ? entity.id > cursor.id : entity.id < cursor.id;
    };

    const byTime = (order: 'asc' | 'desc') => (a: Entity, b: Entity) => {
      const d = a.observation!.timestamp - b.observation!.timestamp;
      const byId = a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
      return order === 'asc' ? d || byId : -d || -byId;
    };

    /**
     * A page of Observations from several sources, merged in time order: each source read for as many as the page
     * needs, the page cut where the first source that ran out of budget stopped (what lies after it is not known yet).
     */
    const observationPage = async (
      sources: ObservationSource[],
      opts: QueryOptions,
      cursor: Cursor | undefined,
      strict: boolean,
    ): Promise<{ entities: Entity[]; more: boolean; count?: number }> => {
      const order = timeOrder(opts);
      const top = topOf(opts);
      if (opts.skip > MAX_READINGS_OFFSET) {
        throw badRequest(
          `$skip on Observations is at most ${MAX_READINGS_OFFSET}: page further with @iot.nextLink`,
          '$skip',
        );
      }
      if (order === undefined || opts.count) {
        // An order the readings are not kept in, or a count: every matching Observation of the range, within budget.
        const all: Entity[] = [];
        let examined = 0;
        for (const source of sources) {
          const read = await readSource(
            source,
            opts.filter,
            'asc',
            Number.POSITIVE_INFINITY,
            OBSERVATION_BUDGET - examined,
            undefined,
            strict,
          );
          examined += read.examined;
          if (read.frontier !== undefined) {
            throw badRequest(
              `More than ${OBSERVATION_BUDGET} readings would be read to ${opts.count ? 'count' : 'order'} these Observations: narrow phenomenonTime with $filter${opts.count ? '' : ' or order by phenomenonTime'}`,
              opts.count ? '$count' : '$orderby',
            );
          }
          all.push(...read.entities);
        }
        const sorted = order === undefined ? sortEntities(all, opts.orderBy, at) : all.sort(byTime(order));
        const start = cursor ? sorted.findIndex((e) => order !== undefined && isAfter(e, cursor, order)) : opts.skip;
        const from = start < 0 ? sorted.length : start;
        return { entities: sorted.slice(from, from + top), more: sorted.length > from + top, count: sorted.length };
      }
      const wanted = (cursor ? 0 : opts.skip) + top + 1;
      const perSource = Math.max(CHUNK, Math.floor(OBSERVATION_BUDGET / Math.max(1, sources.length)));
      const reads = await Promise.all(
        sources.map((source) => readSource(source, opts.filter, order, wanted, perSource, cursor, strict)),
      );
      let merged = reads.flatMap((r) => r.entities).sort(byTime(order));
      const frontiers = reads.flatMap((r) => (r.frontier === undefined ? [] : [r.frontier]));
      let cut = false;
      if (frontiers.length) {
        const frontier = order === 'asc' ? Math.min(...frontiers) : Math.max(...frontiers);
        const kept = merged.filter((e) =>
          order === 'asc' ? e.observation!.timestamp < frontier : e.observation!.timestamp > frontier,
        );
        cut = kept.length < merged.length || kept.length < wanted;
        merged = kept;
      }
      const skip = cursor ? 0 : opts.skip;
      return { entities: merged.slice(skip, skip + top), more: cut || merged.length > skip + top };
    };

    /** The collection a navigation property of an entity leads to. */
    const navigate = (entity: Entity, name: string): Collection | Entity | null => {
      const nav = NAVIGATION[entity.set][name];
      if (!nav) throw new StaError(404, `${ENTITY_TYPE[entity.set]} has no navigation property ${name}`);
      if (!nav.many) return singleNavigation(entity, name) ?? null;
      const view = entity.device;
      const list = (set: EntitySet, load: () => Promise<Entity[]> | Entity[]): Collection => ({
        kind: 'entities',
        set,
        load: async () => load(),
      });
      switch (`${entity.set}.${name}`) {
        case 'Things.Locations': {
          const location = view && locationOf(view);
          return list('Locations', () => (location ? [location] : []));
        }
        case 'Things.HistoricalLocations':
          return list('HistoricalLocations', () => (view ? historicalLocationsOf(view) : []));
        case 'Things.Datastreams':
          return list('Datastreams', () => view!.measurements.map((m) => datastreamOf(view!, m)));
        case 'Locations.Things':
          return list('Things', () => (view && entity.time === undefined ? [thingOf(view)] : []));
        case 'Locations.HistoricalLocations': {
          const time = entity.time ?? view?.moves.at(-1)?.time;
          return list('HistoricalLocations', () =>
            view ? historicalLocationsOf(view).filter((h) => h.time === time) : [],
          );
        }
        case 'HistoricalLocations.Locations': {
          const move = view?.moves.find((m) => m.time === entity.time);
          const location = view && move && locationOf(view, move);
          return list('Locations', () => (location ? [location] : []));
        }
        case 'Datastreams.Observations':
          return {
            kind: 'observations',
            sources: async () => [{ device: view!, measurements: [entity.measurement!] }],
          };
        case 'FeaturesOfInterest.Observations':
          return { kind: 'observations', sources: async () => [{ device: view!, measurements: view!.measurements }] };
        case 'Sensors.Datastreams':
          return list('Datastreams', async () =>
            (await everything())
              .filter((d) => sensorOfDevice(d).id === entity.id)
              .flatMap((d) => d.measurements.map((m) => datastreamOf(d, m))),
          );
        default:
          return list('Datastreams', async () =>
            (await everything())
              .filter((d) => d.measurements.includes(entity.id))
              .flatMap((d) => [datastreamOf(d, entity.id)]),
          );
      }
    };

    const entitySet = (set: EntitySet): Collection => {
      if (set === 'Observations') {
        return {
          kind: 'observations',
          sources: async () => (await everything()).map((d) => ({ device: d, measurements: d.measurements })),
        };
      }
      return {
        kind: 'entities',
        set,
        load: async () => {
          const all = await everything();
          switch (set) {
            case 'Things':
              return all.map(thingOf);
            case 'Locations':
              return all.flatMap((d) => locationOf(d) ?? []);
            case 'HistoricalLocations':
              return all.flatMap(historicalLocationsOf);
            case 'Datastreams':
              return all.flatMap((d) => d.measurements.map((m) => datastreamOf(d, m)));
            case 'Sensors':
              return [...new Map(all.map((d) => [sensorOfDevice(d).id, d])).values()].map((d) =>
                sensorOf(d.productLine, d.model),
              );
            case 'ObservedProperties':
              return [...new Set(all.flatMap((d) => d.measurements))].map(observedPropertyEntity);
            default:
              return all.map(featureOf);
          }
        },
      };
    };

    const setOf = (collection: Collection): EntitySet =>
      collection.kind === 'entities' ? collection.set : 'Observations';

    const selfLink = (entity: Entity) => `${root}/${keyed(entity.set, entity.id)}`;

    // Resolve the path.
    const segments = segmentsOf(request.path);
    let target: Target = { kind: 'root' };
    for (const [index, segment] of segments.entries()) {
      const last = index === segments.length - 1;
      if (segment.name === '$ref') {
        if (!last) throw new StaError(404, '$ref ends a path');
        const current = target as Target;
        if (current.kind === 'collection' || current.kind === 'entity') target = { ...current, ref: true };
        else throw new StaError(404, '$ref follows an entity or a collection');
        continue;
      }
      if (segment.name === '$value') {
        if (!last || target.kind !== 'property') throw new StaError(404, '$value follows a property');
        target = { ...(target as Extract<Target, { kind: 'property' }>), raw: true };
        continue;
      }
      if (target.kind === 'root') {
        const set = ENTITY_SETS.find((s) => s === segment.name);
        if (!set) throw new StaError(404, `No entity set ${segment.name}; this service has ${ENTITY_SETS.join(', ')}`);
        target =
          segment.key === undefined
            ? { kind: 'collection', collection: entitySet(set), self: `${root}/${set}`, ref: false }
            : { kind: 'entity', entity: await byId(set, segment.key), ref: false };
      } else if (target.kind === 'entity') {
        const entity: Entity = target.entity;
        if (NAVIGATION[entity.set][segment.name]) {
          const next = navigate(entity, segment.name);
          if (next === null) throw new StaError(404, `${ENTITY_TYPE[entity.set]} ${entity.id} has no ${segment.name}`);
          if ('kind' in next) {
            const collectionSelf = `${selfLink(entity)}/${segment.name}`;
            if (segment.key === undefined) {
              target = { kind: 'collection', collection: next, self: collectionSelf, ref: false };
            } else {
              const set = setOf(next);
              const found = await byId(set, segment.key);
              const members = next.kind === 'entities' ? await next.load() : [];
              const inside =
                next.kind === 'entities'
                  ? members.some((m) => m.id === found.id)
                  : (await next.sources()).some(
                      (s) => s.device.id === found.device?.id && s.measurements.includes(found.measurement ?? ''),
                    );
              if (!inside) throw new StaError(404, `${ENTITY_TYPE[set]} ${segment.key} is not in ${collectionSelf}`);
              target = { kind: 'entity', entity: found, ref: false };
            }
          } else {
            if (segment.key !== undefined && segment.key !== next.id)
              throw new StaError(404, `No ${segment.name} ${segment.key} here`);
            target = { kind: 'entity', entity: next, ref: false };
          }
        } else if (
          segment.name === 'id' ||
          segment.name === '@iot.id' ||
          PROPERTIES[entity.set].includes(segment.name)
        ) {
          if (segment.key !== undefined) throw new StaError(404, `${segment.name} is a property`);
          target = { kind: 'property', entity, property: segment.name === '@iot.id' ? 'id' : segment.name, raw: false };
        } else {
          throw new StaError(404, `${ENTITY_TYPE[entity.set]} has no property or navigation property ${segment.name}`);
        }
      } else {
        throw new StaError(404, `Not a resource path of this service: /${request.path}`);
      }
    }

    // Metering (a public-API call) happens once the path resolved (a refusal costs nothing) and before any reading.
    const readsOneDevice =
      (target.kind === 'collection' && target.collection.kind === 'observations' && segments.length > 1) ||
      (target.kind !== 'root' &&
        segments.length > 0 &&
        segments[0]!.key !== undefined &&
        DEVICE_BOUND.has(segments[0]!.name as EntitySet) &&
        options.expand.every((e) => e.name !== 'Sensor' && e.name !== 'ObservedProperty'));
    if (request.meter) await request.meter(readsOneDevice ? single : undefined);
    if (readsOneDevice && single && purpose === 'api') readableRanges(single, 'api', {}, at);

    const probe = async (set: EntitySet): Promise<Entity> => {
      const view: DeviceView = {
        id: 'probe',
        name: '',
        productLine: 'sd1',
        model: '',
        state: 'active',
        dataVisibility: 'public',
        locationApproximate: false,
        moves: [],
        measurements: ['probe'],
        campaigns: [],
      };
      const samples: Record<EntitySet, Entity> = {
        Things: thingOf(view),
        Locations: { set: 'Locations', id: 'probe', device: view, props: {} },
        HistoricalLocations: { set: 'HistoricalLocations', id: 'probe', device: view, props: {} },
        Datastreams: datastreamOf(view, 'probe'),
        Sensors: sensorOf('sd1', ''),
        ObservedProperties: observedPropertyEntity('probe'),
        Observations: observationOf(view, 'probe', { timestamp: 0, result: 0 }),
        FeaturesOfInterest: featureOf(view),
      };
      return samples[set];
    };

    /** An entity as JSON, without what $expand adds: its id and links, its properties (or those $select names). */
    const serializeOwn = (entity: Entity, opts: QueryOptions): Record<string, unknown> => {
      const link = selfLink(entity);
      const selected = opts.select?.some((s) => s[0] === '*') ? undefined : opts.select?.map((s) => s[0]!);
      const wants = (name: string) => !selected || selected.includes(name);
      const json: Record<string, unknown> = {};
      if (wants('id')) json['@iot.id'] = entity.id;
      if (!selected) json['@iot.selfLink'] = link;
      for (const property of PROPERTIES[entity.set]) {
        if (wants(property) && Object.hasOwn(entity.props, property)) json[property] = entity.props[property];
      }
      for (const nav of Object.keys(NAVIGATION[entity.set])) {
        if (wants(nav)) json[`${nav}@iot.navigationLink`] = `${link}/${nav}`;
      }
      return json;
    };

    /** An entity as JSON: its own members and what $expand adds. */
    const serialize = async (entity: Entity, opts: QueryOptions, depth: number): Promise<Record<string, unknown>> => {
      const json = serializeOwn(entity, opts);
      for (const expand of opts.expand) await expandInto(json, entity, expand, depth);
      return json;
    };

    /** A page of entities as JSON: with no $expand, written in one pass (no promise per entity of a large page). */
    const serializeAll = (entities: Entity[], opts: QueryOptions, depth: number) =>
      opts.expand.length === 0
        ? entities.map((e) => serializeOwn(e, opts))
        : Promise.all(entities.map((e) => serialize(e, opts, depth)));

    const checkSelect = (set: EntitySet, select: string[][] | undefined) => {
      for (const path of select ?? []) {
        const [name] = path;
        if (name === '*' || name === 'id' || PROPERTIES[set].includes(name!) || NAVIGATION[set][name!]) continue;
        throw badRequest(`${ENTITY_TYPE[set]} has no property ${name}`, '$select');
      }
    };

    const checkOptions = async (set: EntitySet, opts: QueryOptions) => {
      const sample = await probe(set);
      checkPaths(opts.filter, sample, '$filter');
      for (const o of opts.orderBy) checkPaths(o.expr, sample, '$orderby');
      checkSelect(set, opts.select);
      for (const expand of opts.expand) {
        const nav = NAVIGATION[set][expand.name];
        if (!nav) throw badRequest(`${ENTITY_TYPE[set]} has no navigation property ${expand.name}`, '$expand');
        await checkOptions(nav.set, expand.options);
      }
    };

    /** A collection with its options applied: the page, whether more follow, and the count when asked. */
    const page = async (
      collection: Collection,
      opts: QueryOptions,
      cursor: Cursor | undefined,
      strict: boolean,
    ): Promise<{ entities: Entity[]; more: boolean; count?: number }> => {
      if (collection.kind === 'observations') return observationPage(await collection.sources(), opts, cursor, strict);
      const all = (await collection.load()).filter((entity) => matches(opts.filter, entity, at));
      const sorted = sortEntities(all, opts.orderBy, at);
      const top = topOf(opts);
      return {
        entities: sorted.slice(opts.skip, opts.skip + top),
        more: sorted.length > opts.skip + top,
        count: sorted.length,
      };
    };

    /** The URL of the next page: the same query with the position moved on. */
    const nextLink = (base: string, query: StaQuery, opts: QueryOptions, entities: Entity[], observations: boolean) => {
      const params: [string, string][] = Object.entries(query).filter(
        (entry): entry is [string, string] =>
          entry[1] !== undefined && entry[0] !== '$skip' && entry[0] !== '$skiptoken',
      );
      const last = entities.at(-1);
      if (observations && timeOrder(opts) !== undefined && !opts.count && last) {
        params.push(['$skiptoken', encodeToken({ t: last.observation!.timestamp, id: last.id })]);
      } else {
        params.push(['$skip', String(opts.skip + topOf(opts))]);
      }
      // The option names as SensorThings writes them (`$top`), the values encoded.
      return `${base}?${params.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&')}`;
    };

    async function expandInto(json: Record<string, unknown>, entity: Entity, expand: Expand, depth: number) {
      const next = navigate(entity, expand.name);
      if (next === null) {
        json[expand.name] = null;
        return;
      }
      if (!('kind' in next)) {
        json[expand.name] = await serialize(next, expand.options, depth + 1);
        return;
      }
      const { entities, more, count } = await page(next, expand.options, undefined, false);
      json[expand.name] = await serializeAll(entities, expand.options, depth + 1);
      if (expand.options.count && count !== undefined) json[`${expand.name}@iot.count`] = count;
      if (more) {
        const top = topOf(expand.options);
        json[`${expand.name}@iot.nextLink`] =
          `${selfLink(entity)}/${expand.name}?$top=${top}&$skip=${expand.options.skip + top}`;
      }
    }

    switch (target.kind) {
      case 'root':
        return {
          value: ENTITY_SETS.map((name) => ({ name, url: `${root}/${name}` })),
          serverSettings: { conformance: CONFORMANCE },
        };
      case 'property': {
        const { entity, property } = target;
        const value = property === 'id' ? entity.id : entity.props[property];
        if (target.raw) {
          request.setHeader('content-type', 'text/plain; charset=utf-8');
          return value === null || value === undefined
            ? ''
            : typeof value === 'object'
              ? JSON.stringify(value)
              : String(value);
        }
        return { [property === 'id' ? '@iot.id' : property]: (value ?? null) as never };
      }
      case 'entity': {
        if (target.ref) return { '@iot.selfLink': selfLink(target.entity) };
        await checkOptions(target.entity.set, options);
        return (await serialize(target.entity, options, 1)) as StaDocument;
      }
      case 'collection': {
        const set = setOf(target.collection);
        await checkOptions(set, options);
        const cursor = request.query.$skiptoken === undefined ? undefined : decodeToken(request.query.$skiptoken);
        const strict = target.collection.kind === 'observations' && segments.length > 1;
        const { entities, more, count } = await page(target.collection, options, cursor, strict);
        const document: Record<string, unknown> = {};
        if (options.count && count !== undefined) document['@iot.count'] = count;
        if (more)
          document['@iot.nextLink'] = nextLink(target.self, request.query, options, entities, set === 'Observations');
        document.value = target.ref
          ? entities.map((e) => ({ '@iot.selfLink': selfLink(e) }))
          : await serializeAll(entities, options, 1);
        return document as StaDocument;
      }
    }
  }
};

export type SensorThings = ReturnType<typeof createSensorThings>;
