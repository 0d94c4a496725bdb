import * as z from 'zod';
import { apiKey, defineRoute, guest, type Routes } from './define-route';

/**
 * The OGC SensorThings API 1.1 (OGC 18-088), read-only, over our devices and readings (docs/open-data.md;
 * docs/decisions/070-sensorthings-mapping.md). Two roots answer the same service: `/sta/v1.1` for guests and
 * signed-in people (what the app's reads show them), `/v1/sta/v1.1` for an API key (the public API's tier windows,
 * quota and rate-limit headers). The OData query options are read by the service itself. Every refusal on these
 * paths, whoever makes it (a missing key, a quota, a schema's limit, a method they do not take), is answered in
 * OData's error shape, `{"error": {"code", "message", "target"?}}` (`errorShape`, docs/decisions/093-…).
 */

/** The version segment of every SensorThings URL. */
export const STA_VERSION = 'v1.1';
/** Where the service answers, inside the sensor-data area, for guests and people signed in. */
export const STA_ROOT_PATH = `/sta/${STA_VERSION}`;
/** Where it answers for an API key. */
export const STA_API_ROOT_PATH = `/v1/sta/${STA_VERSION}`;

/** At most this many entities in one answer ($top is capped to it). */
export const STA_MAX_TOP = 10_000;
/** Entities in one answer when $top is not sent. */
export const STA_DEFAULT_TOP = 100;

const option = (name: string) =>
  z
    .string()
    .max(4_000, `${name} is at most 4000 characters`)
    .optional()
    .describe(`The OData ${name} query option (OGC 18-088 §9.3).`);

/**
 * OData's system query options, as sent: the service parses them (docs/open-data.md), so a syntax error is an OData
 * error rather than a schema issue.
 */
export const StaQuery = z.object({
  $filter: option('$filter'),
  $orderby: option('$orderby'),
  $top: option('$top'),
  $skip: option('$skip'),
  $count: option('$count'),
  $select: option('$select'),
  $expand: option('$expand'),
  $skiptoken: option('$skiptoken'),
  $resultFormat: option('$resultFormat'),
});
export type StaQuery = z.infer<typeof StaQuery>;

const StaPath = z.object({
  path: z
    .string()
    .min(1)
    .max(2_000, 'The resource path is at most 2000 characters')
    .describe(
      "A resource path: an entity set, an entity by id (`Things('demo-device-1')`), then navigation or a property.",
    ),
});

/**
 * A SensorThings answer: an entity, a collection (`value`, `@iot.count`, `@iot.nextLink`), a property, or `$value` text.
 * Its members are not checked one by one: the service writes every document itself from JSON values, and checking each
 * value of up to 10,000 entities again cost more than building them (docs/decisions/094-sensorthings-page-speed.md).
 */
export const StaDocument = z.union([
  z.record(z.string(), z.unknown().describe('A JSON value: an entity, a list of entities, a link, a count')),
  z.string(),
]);
export type StaDocument = z.infer<typeof StaDocument>;

const ROOT_SUMMARY =
  'The SensorThings API 1.1 service document: the entity sets and the conformance classes this service claims.';
const RESOURCE_SUMMARY =
  'A SensorThings API 1.1 resource: Things (devices), Locations, HistoricalLocations, Datastreams (a measurement of ' +
  'a device), Sensors (device models), ObservedProperties, Observations (readings) and FeaturesOfInterest, with ' +
  '$filter, $orderby, $top (at most 10000), $skip, $count, $select and $expand; collections page with @iot.nextLink.';

/** The sensor-data area's SensorThings routes (composed into the area in sensor-data.ts). */
export const staRoutes = {
  staRoot: defineRoute({
    method: 'GET',
    path: STA_ROOT_PATH,
    access: guest,
    summary: `${ROOT_SUMMARY} Guests see public devices; signed-in people what they may see.`,
    response: StaDocument,
    errorShape: 'odata',
  }),
  staResource: defineRoute({
    method: 'GET',
    path: `${STA_ROOT_PATH}/{path+}`,
    access: guest,
    summary: `${RESOURCE_SUMMARY} Guests see public devices and their public windows; signed-in people what they may see.`,
    params: StaPath,
    query: StaQuery,
    response: StaDocument,
    errorShape: 'odata',
  }),
  apiStaRoot: defineRoute({
    method: 'GET',
    path: STA_API_ROOT_PATH,
    access: apiKey,
    summary: `Public API: ${ROOT_SUMMARY} Metered like every public-API call.`,
    response: StaDocument,
    errorShape: 'odata',
  }),
  apiStaResource: defineRoute({
    method: 'GET',
    path: `${STA_API_ROOT_PATH}/{path+}`,
    access: apiKey,
    summary:
      `Public API: ${RESOURCE_SUMMARY} Observations reach as far back as the tier's API window; each call is ` +
      'metered (a device its own, several devices or none against your own allowance) and answers x-ratelimit-* headers.',
    params: StaPath,
    query: StaQuery,
    response: StaDocument,
    errorShape: 'odata',
  }),
} satisfies Routes;
