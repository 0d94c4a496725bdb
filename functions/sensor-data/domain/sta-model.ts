import type { ProductLine } from '../../../shared/contracts/shapes';
import { labelOf } from '../../../shared/sensor-data/measurements';
import { observedPropertyOf, unitOfMeasurementOf } from './sta-vocabulary';

/**
 * Our model as SensorThings entities (docs/decisions/070-sensorthings-mapping.md): a device is a Thing, its place a
 * Location (each move a HistoricalLocation) and its FeatureOfInterest, each measurement of a device a Datastream of
 * an ObservedProperty measured by a Sensor (the device's model), each value of a reading an Observation. Ids are the
 * platform's own, joined by `~` (which no device id, measurement name or time holds).
 */

export const ENTITY_SETS = [
  'Things',
  'Locations',
  'HistoricalLocations',
  'Datastreams',
  'Sensors',
  'ObservedProperties',
  'Observations',
  'FeaturesOfInterest',
] as const;
export type EntitySet = (typeof ENTITY_SETS)[number];

/** Navigation properties of each entity type: a single entity or a collection, and the set it is in. */
export const NAVIGATION: Record<EntitySet, Record<string, { set: EntitySet; many: boolean }>> = {
  Things: {
    Locations: { set: 'Locations', many: true },
    HistoricalLocations: { set: 'HistoricalLocations', many: true },
    Datastreams: { set: 'Datastreams', many: true },
  },
  Locations: {
    Things: { set: 'Things', many: true },
    HistoricalLocations: { set: 'HistoricalLocations', many: true },
  },
  HistoricalLocations: {
    Thing: { set: 'Things', many: false },
    Locations: { set: 'Locations', many: true },
  },
  Datastreams: {
    Thing: { set: 'Things', many: false },
    Sensor: { set: 'Sensors', many: false },
    ObservedProperty: { set: 'ObservedProperties', many: false },
    Observations: { set: 'Observations', many: true },
  },
  Sensors: { Datastreams: { set: 'Datastreams', many: true } },
  ObservedProperties: { Datastreams: { set: 'Datastreams', many: true } },
  Observations: {
    Datastream: { set: 'Datastreams', many: false },
    FeatureOfInterest: { set: 'FeaturesOfInterest', many: false },
  },
  FeaturesOfInterest: { Observations: { set: 'Observations', many: true } },
};

/** Each entity type's properties (besides `@iot.id`): what $select and $orderby may name. */
export const PROPERTIES: Record<EntitySet, readonly string[]> = {
  Things: ['name', 'description', 'properties'],
  Locations: ['name', 'description', 'encodingType', 'location', 'properties'],
  HistoricalLocations: ['time'],
  Datastreams: [
    'name',
    'description',
    'observationType',
    'unitOfMeasurement',
    'observedArea',
    'phenomenonTime',
    'resultTime',
    'properties',
  ],
  Sensors: ['name', 'description', 'encodingType', 'metadata', 'properties'],
  ObservedProperties: ['name', 'definition', 'description', 'properties'],
  Observations: ['phenomenonTime', 'resultTime', 'result', 'resultQuality', 'validTime', 'parameters'],
  FeaturesOfInterest: ['name', 'description', 'encodingType', 'feature', 'properties'],
};

/** Properties that hold a time (ISO 8601 in the JSON), compared as instants in $filter and $orderby. */
export const TIME_PROPERTIES = new Set(['phenomenonTime', 'resultTime', 'time', 'validTime']);

/** The entity sets in the singular, as `@iot.id` paths and messages name them. */
export const ENTITY_TYPE: Record<EntitySet, string> = {
  Things: 'Thing',
  Locations: 'Location',
  HistoricalLocations: 'HistoricalLocation',
  Datastreams: 'Datastream',
  Sensors: 'Sensor',
  ObservedProperties: 'ObservedProperty',
  Observations: 'Observation',
  FeaturesOfInterest: 'FeatureOfInterest',
};

/** A place, as the caller may see it (a device's privacy may round or hide it). */
export interface Place {
  lat: number;
  lon: number;
}

/** A campaign the caller sees a device through: its window clips the device's Observations. */
export interface CampaignRef {
  id: string;
  name: string;
  startsAt: number;
  endsAt: number;
}

/** What the caller may see of one device: everything the entities of its Thing are made of. */
export interface DeviceView {
  id: string;
  name: string;
  productLine: ProductLine;
  model: string;
  state: string;
  dataVisibility: string;
  created?: number;
  lastSeen?: number;
  /** Absent when the device has none or it is hidden from the caller. */
  location?: Place;
  /** True when `location` (and the moves) are rounded for the caller. */
  locationApproximate: boolean;
  /** Each recorded move, oldest first, as visible as `location`. */
  moves: ({ time: number } & Place)[];
  measurements: string[];
  units?: Record<string, string>;
  /** Only for a caller who sees the device through campaigns: those campaigns. */
  campaigns: CampaignRef[];
}

/** One value of one reading: an Observation's content. */
export interface ObservationValue {
  timestamp: number;
  result: number;
  /** The data-quality flags of this value where the reading carries them (issue 39), else absent. */
  resultQuality?: unknown;
}

/** An entity: its set and id, its JSON properties, and what it belongs to (for navigation). */
export interface Entity {
  set: EntitySet;
  id: string;
  props: Record<string, unknown>;
  device?: DeviceView;
  measurement?: string;
  /** A HistoricalLocation's time, or a past Location's. */
  time?: number;
  observation?: ObservationValue;
  /** A Sensor's product line and model. */
  model?: { productLine: ProductLine; model: string };
}

export const SEPARATOR = '~';

export const datastreamId = (deviceId: string, measurement: string) => `${deviceId}${SEPARATOR}${measurement}`;
export const observationId = (deviceId: string, measurement: string, timestamp: number) =>
  `${deviceId}${SEPARATOR}${measurement}${SEPARATOR}${timestamp}`;
export const sensorId = (productLine: string, model: string) => `${productLine}${SEPARATOR}${model}`;
export const movedId = (deviceId: string, time: number) => `${deviceId}${SEPARATOR}${time}`;

const iso = (ms: number) => new Date(ms).toISOString();

const point = ({ lat, lon }: Place) => ({ type: 'Point', coordinates: [lon, lat] });

/** GeoJSON's media type (OGC 18-088 Table 7 names it for Locations and FeaturesOfInterest). */
export const GEOJSON = 'application/geo+json';

export const thingOf = (device: DeviceView): Entity => ({
  set: 'Things',
  id: device.id,
  device,
  props: {
    name: device.name,
    description: `${device.productLine.toUpperCase()} ${device.model} device "${device.name}"`,
    properties: {
      productLine: device.productLine,
      model: device.model,
      dataVisibility: device.dataVisibility,
      state: device.state,
      ...(device.lastSeen === undefined ? {} : { lastSeen: iso(device.lastSeen) }),
      ...(device.campaigns.length
        ? {
            campaigns: device.campaigns.map((c) => ({
              id: c.id,
              name: c.name,
              startsAt: iso(c.startsAt),
              endsAt: iso(c.endsAt),
            })),
          }
        : {}),
    },
  },
});

const locationProps = (device: DeviceView, place: Place) => ({
  name: device.name,
  description: `Where the device "${device.name}" stands${device.locationApproximate ? ' (rounded to about 1 km)' : ''}`,
  encodingType: GEOJSON,
  location: point(place),
  properties: { approximate: device.locationApproximate },
});

/** The device's current place (its id is the device's), or one it had before (`{deviceId}~{time}`). */
export const locationOf = (device: DeviceView, move?: { time: number } & Place): Entity | undefined => {
  const latest = device.moves.at(-1);
  if (!move || (latest && move.time === latest.time)) {
    return device.location
      ? { set: 'Locations', id: device.id, device, props: locationProps(device, device.location) }
      : undefined;
  }
  return {
    set: 'Locations',
    id: movedId(device.id, move.time),
    device,
    time: move.time,
    props: locationProps(device, move),
  };
};

export const historicalLocationsOf = (device: DeviceView): Entity[] =>
  device.moves.map((move) => ({
    set: 'HistoricalLocations',
    id: movedId(device.id, move.time),
    device,
    time: move.time,
    props: { time: iso(move.time) },
  }));

export const datastreamOf = (device: DeviceView, measurement: string): Entity => {
  const property = observedPropertyOf(measurement);
  return {
    set: 'Datastreams',
    id: datastreamId(device.id, measurement),
    device,
    measurement,
    props: {
      name: `${device.name}: ${labelOf(measurement)}`,
      description: `${property.description}, measured by the device "${device.name}"`,
      observationType: 'http://www.opengis.net/def/observationType/OGC-OM/2.0/OM_Measurement',
      unitOfMeasurement: unitOfMeasurementOf(measurement, device.units),
      ...(device.location ? { observedArea: point(device.location) } : {}),
      properties: { deviceId: device.id, measurement },
    },
  };
};

export const sensorOf = (productLine: ProductLine, model: string): Entity => ({
  set: 'Sensors',
  id: sensorId(productLine, model),
  model: { productLine, model },
  props: {
    name: model,
    description: `The ${productLine.toUpperCase()} device model ${model}`,
    encodingType: 'text/plain',
    metadata: `${productLine.toUpperCase()} ${model}`,
    properties: { productLine, model },
  },
});

export const observedPropertyEntity = (measurement: string): Entity => {
  const property = observedPropertyOf(measurement);
  return {
    set: 'ObservedProperties',
    id: measurement,
    measurement,
    props: { ...property, properties: { measurement } },
  };
};

/** Where a device's Observations were made: its place as the caller may see it (a Feature without a geometry when hidden). */
export const featureOf = (device: DeviceView): Entity => ({
  set: 'FeaturesOfInterest',
  id: device.id,
  device,
  props: {
    name: `${device.name}: where it measures`,
    description: `The air around the device "${device.name}"`,
    encodingType: GEOJSON,
    feature: device.location
      ? point(device.location)
      : { type: 'Feature', geometry: null, properties: { deviceId: device.id } },
    properties: { approximate: device.locationApproximate },
  },
});

export const observationOf = (device: DeviceView, measurement: string, value: ObservationValue): Entity => ({
  set: 'Observations',
  id: observationId(device.id, measurement, value.timestamp),
  device,
  measurement,
  observation: value,
  props: {
    phenomenonTime: iso(value.timestamp),
    resultTime: null,
    result: value.result,
    ...(value.resultQuality === undefined ? {} : { resultQuality: value.resultQuality }),
  },
});

/** A device's Sensor: its model (a device record without one is named by its product line). */
export const sensorOfDevice = (device: DeviceView) => sensorOf(device.productLine, device.model);

/** An id split at the separator, for the sets whose ids name a device first. */
export const splitId = (id: string): string[] => id.split(SEPARATOR);
