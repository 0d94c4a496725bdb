import { StaError } from './sta-errors';
import { evaluate } from './sta-evaluate';
import { type DeviceView, datastreamOf, observationOf, thingOf } from './sta-model';
import { Instant, parseQueryOptions } from './sta-odata';
import { timeBounds } from './sta-service';

const T = Date.UTC(2026, 2, 10, 12, 0, 0);

const device: DeviceView = {
  id: 'dev-a',
  name: 'Rooftop station',
  productLine: 'sd1',
  model: 'SD1-A',
  state: 'active',
  dataVisibility: 'public',
  location: { lat: 47.6, lon: -122.3 },
  locationApproximate: false,
  moves: [],
  measurements: ['pm2_5', 'temperature'],
  campaigns: [],
};
const observation = observationOf(device, 'pm2_5', { timestamp: T, result: 12.5 });

const refusal = (query: Record<string, string>): StaError => {
  try {
    parseQueryOptions(query);
  } catch (error) {
    if (error instanceof StaError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
};

const holds = (filter: string, entity = observation) =>
  evaluate(parseQueryOptions({ $filter: filter }).filter!, entity, T + 1000);

describe('SensorThings query options through @odata/parser', () => {
  it('reads comparison, logical and arithmetic operators over properties and navigation paths', () => {
    expect(holds('result gt 12 and result lt 13')).toBe(true);
    expect(holds('(result add 0.5) mul 2 eq 26')).toBe(true);
    expect(holds('result sub 2.5 eq 10 or false')).toBe(true);
    expect(holds('result div 0 eq 1')).toBe(false);
    expect(holds('not (result ge 13)')).toBe(true);
    expect(holds('-result lt 0')).toBe(true);
    expect(holds('result mod 5 eq 2.5')).toBe(true);
    expect(holds("Datastream/Thing/name eq 'Rooftop station'")).toBe(true);
    expect(holds("Datastream/ObservedProperty/@iot.id eq 'pm2_5'")).toBe(true);
    expect(holds("@iot.id eq 'dev-a~pm2_5~" + T + "'")).toBe(true);
    // A number compared with a string is compared as a string (OGC 18-088 casts it).
    expect(holds("result eq '12.5'")).toBe(true);
    expect(holds('result gt 2e3')).toBe(false);
  });

  it('reads dates and the date, string and math functions', () => {
    expect(holds('phenomenonTime ge 2026-03-10T12:00:00Z and phenomenonTime lt 2026-03-10T12:00:00.001Z')).toBe(true);
    expect(holds('year(phenomenonTime) eq 2026 and month(phenomenonTime) eq 3 and day(phenomenonTime) eq 10')).toBe(
      true,
    );
    expect(holds('hour(phenomenonTime) eq 12 and minute(phenomenonTime) eq 0 and second(phenomenonTime) eq 0')).toBe(
      true,
    );
    expect(holds('phenomenonTime lt now()')).toBe(true);
    expect(holds('round(result) eq 13 and floor(result) eq 12 and ceiling(result) eq 13')).toBe(true);
    const thing = thingOf(device);
    expect(holds("substringof('top', name) and startswith(name, 'Roof') and endswith(name, 'station')", thing)).toBe(
      true,
    );
    expect(
      holds("contains(tolower(name), 'rooftop') and length(name) eq 15 and indexof(name, 'station') eq 8", thing),
    ).toBe(true);
    expect(holds("concat(substring(name, 0, 4), toupper(trim(' x '))) eq 'RoofX'", thing)).toBe(true);
    expect(holds("properties/productLine eq 'sd1'", thing)).toBe(true);
  });

  it('reads geography literals without SRID and the spatial functions, st_* included', () => {
    const stream = datastreamOf(device, 'pm2_5');
    expect(holds("geo.distance(observedArea, geography'POINT(-122 47)') lt 1", stream)).toBe(true);
    expect(holds("geo.distance(observedArea, geography'POINT(-122 47)') lt 0.5", stream)).toBe(false);
    expect(
      holds("st_within(observedArea, geography'POLYGON((-123 47, -122 47, -122 48, -123 48, -123 47))')", stream),
    ).toBe(true);
    expect(holds("st_within(observedArea, geography'POLYGON((0 0, 1 0, 1 1, 0 0))')", stream)).toBe(false);
    expect(holds("st_disjoint(observedArea, geography'POLYGON((0 0, 1 0, 1 1, 0 0))')", stream)).toBe(true);
    expect(
      holds(
        "geo.intersects(observedArea, geography'SRID=4326;POLYGON((-123 47,-122 47,-122 48,-123 48,-123 47))')",
        stream,
      ),
    ).toBe(true);
    expect(
      holds("st_contains(geography'POLYGON((-123 47, -122 47, -122 48, -123 48, -123 47))', observedArea)", stream),
    ).toBe(true);
    expect(holds("st_equals(observedArea, geography'POINT(-122.3 47.6)')", stream)).toBe(true);
    expect(holds("geo.length(geography'LINESTRING(0 0, 3 4)') eq 5", stream)).toBe(true);
  });

  it('parses $orderby, $select, $expand nested with its own options, $top, $skip and $count', () => {
    const options = parseQueryOptions({
      $orderby: 'phenomenonTime desc,@iot.id',
      $select: 'result,phenomenonTime,@iot.id',
      $expand: 'Datastream($select=name;$expand=Thing($expand=Locations)),FeatureOfInterest',
      $top: '5',
      $skip: '10',
      $count: 'true',
    });
    expect(options.orderBy.map((o) => [o.expr, o.desc])).toEqual([
      [{ kind: 'path', path: ['phenomenonTime'] }, true],
      [{ kind: 'path', path: ['id'] }, false],
    ]);
    expect(options.select).toEqual([['result'], ['phenomenonTime'], ['id']]);
    expect(options).toMatchObject({ top: 5, skip: 10, count: true });
    expect(options.expand.map((e) => e.name)).toEqual(['Datastream', 'FeatureOfInterest']);
    expect(options.expand[0]!.options.select).toEqual([['name']]);
    expect(options.expand[0]!.options.expand[0]!.options.expand[0]!.name).toBe('Locations');
    // A path in $expand expands each step.
    expect(parseQueryOptions({ $expand: 'Datastreams/Observations' }).expand[0]!.options.expand[0]!.name).toBe(
      'Observations',
    );
  });

  it("refuses bad OData with a 400 naming the option (its OData shape is the route's: http-area.test.ts)", () => {
    const syntax = refusal({ $filter: 'result gt' });
    expect([syntax.status, syntax.target]).toEqual([400, '$filter']);
    expect(syntax.message).toContain('$filter: syntax error');
    expect([refusal({ $top: '-1' }).status, refusal({ $top: '-1' }).target]).toEqual([400, '$top']);
    expect(refusal({ $top: '10001' }).message).toBe('$top is at most 10000');
    expect(refusal({ $skip: 'x' }).status).toBe(400);
    expect(refusal({ $count: 'yes' }).status).toBe(400);
    expect(
      refusal({ $expand: 'Datastreams($expand=Thing($expand=Locations($expand=HistoricalLocations)))' }).message,
    ).toBe('$expand nests at most 3 levels deep');
    expect(refusal({ $expand: 'Datastreams/Thing/Locations/HistoricalLocations' }).status).toBe(400);
    expect(refusal({ $filter: "st_within(location, geography'POLYGON((0 0, 1 0'" }).status).toBe(400);
    expect(refusal({ $filter: "name eq 'unclosed" }).status).toBe(400);
    // Constructs the service does not implement: 501 (OGC 18-088 req/request-data/query-status-code).
    expect(refusal({ $filter: "st_relate(location, geography'POINT(1 2)', 'T********')" }).status).toBe(501);
    expect(refusal({ $resultFormat: 'dataArray' }).status).toBe(501);
  });

  it('finds the phenomenonTime range a filter pins down, whichever side the time stands on', () => {
    const bounds = (filter: string) => timeBounds(parseQueryOptions({ $filter: filter }).filter);
    expect(
      bounds('phenomenonTime ge 2026-03-10T00:00:00Z and result gt 3 and 2026-03-11T00:00:00Z gt phenomenonTime'),
    ).toEqual({
      from: Date.UTC(2026, 2, 10),
      to: Date.UTC(2026, 2, 11) - 1,
    });
    expect(bounds('phenomenonTime eq 2026-03-10T00:00:00Z')).toEqual({
      from: Date.UTC(2026, 2, 10),
      to: Date.UTC(2026, 2, 10),
    });
    // An or cannot narrow the read.
    expect(bounds('phenomenonTime ge 2026-03-10T00:00:00Z or result gt 3')).toEqual({});
    expect(new Instant(1).ms).toBe(1);
  });
});
