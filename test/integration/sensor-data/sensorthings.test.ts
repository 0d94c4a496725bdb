import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { STA_API_ROOT_PATH, STA_ROOT_PATH } from '../../../shared/contracts/sensor-data-sta';
import { type FreshUser, freshUser } from '../../support/people';
import { freshDevice, ingest, setTier, type TestDevice } from '../../support/sensor-data';
import { apiAs, areaUrl, documentClient, stack, uniqueId } from '../../support/stack';

/**
 * The SensorThings API 1.1 through the local gateway, each test named by the OGC 18-088 Annex A test it follows
 * (`http://www.opengis.net/spec/iot_sensing/1.1/conf/…`): the Sensing Core (A.1: every entity type's properties and
 * links, the resource paths) and the Filtering Extension (A.2.1: option order, $expand and $select, status codes,
 * $orderby, $top/$skip/$count, $filter, @iot.nextLink). Then the access rules (a guest, a stranger, a campaign member,
 * an API key over its quota) and bad OData answered 400 in OData's error shape.
 */

const MINUTE = 60_000;
const DAY = 86_400_000;
const CONF = 'http://www.opengis.net/spec/iot_sensing/1.1/conf';

/** A raw GET of the service as a SensorThings client sends it. */
const sta = async (
  path: string,
  { token, key, root = STA_ROOT_PATH }: { token?: string; key?: string; root?: string } = {},
) => {
  const url = path.startsWith('http') ? path : `${areaUrl('sensor-data')}${root}${path}`;
  const response = await fetch(url, {
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(key ? { 'x-api-key': key } : {}) },
  });
  const text = await response.text();
  // biome-ignore lint/suspicious/noExplicitAny: a test reads the JSON as a client does, whatever its shape
  let body: Record<string, any> = {};
  try {
    body = JSON.parse(text);
  } catch {
    body = { text };
  }
  return { status: response.status, headers: response.headers, body, text };
};

const quoted = (id: string) => `'${encodeURIComponent(id)}'`;

let owner: FreshUser;
let stranger: FreshUser;
let member: FreshUser;
/** Public, Tier 1 (API access), located and moved once, 30 readings a minute apart. */
let open: TestDevice;
/** The owner's private device, in the campaign. */
let hidden: TestDevice;
const started = Date.now();
/** The readings' times: 40 to 11 minutes ago, oldest first. */
const times = Array.from({ length: 30 }, (_, i) => Math.floor(started / MINUTE) * MINUTE - (40 - i) * MINUTE);
let campaignStart: number;

beforeAll(async () => {
  [owner, stranger, member] = await Promise.all([
    freshUser({ prefix: 'sta-owner' }),
    freshUser({ prefix: 'sta-stranger' }),
    freshUser({ prefix: 'sta-member' }),
  ]);
  [open, hidden] = await Promise.all([
    freshDevice({ ownerToken: owner.token, visibility: 'public' }),
    freshDevice({ ownerToken: owner.token }),
  ]);
  await Promise.all([setTier(open.id, 'tier1'), setTier(hidden.id, 'tier1')]);
  const devices = apiAs('devices', owner.token);
  await devices.update({
    params: { id: open.id },
    body: { name: 'STA rooftop', location: { lat: 47.6, lon: -122.3 }, locationPrivacy: 'exact' },
  });
  await devices.update({ params: { id: open.id }, body: { location: { lat: 47.62, lon: -122.35 } } });
  const readings = times.map((timestamp, i) => ({ timestamp, values: { pm2_5: i, temperature: 20 + (i % 3) } }));
  await Promise.all([ingest(open, readings), ingest(hidden, readings)]);
  campaignStart = times[20]!;
  const campaign = await apiAs('campaigns', owner.token).create({
    body: { name: uniqueId('STA campaign'), startsAt: campaignStart, endsAt: started + DAY },
  });
  const relations = apiAs('relations', owner.token);
  await relations.create({ body: { type: 'campaign-device', referrerId: campaign.id, referentId: hidden.id } });
  await relations.create({ body: { type: 'campaign-user', referrerId: campaign.id, referentId: member.id } });
}, 120_000);

const thing = () => `/Things(${quoted(open.id)})`;
const stream = (device = open) => `/Datastreams(${quoted(`${device.id}~pm2_5`)})`;

describe('Sensing Core (OGC 18-088 A.1)', () => {
  it(`${CONF}/resource-path/resource-path-to-entities: the service document lists every entity set`, async () => {
    const { status, body } = await sta('');
    expect(status).toBe(200);
    expect(body.value.map((set: { name: string }) => set.name)).toEqual([
      'Things',
      'Locations',
      'HistoricalLocations',
      'Datastreams',
      'Sensors',
      'ObservedProperties',
      'Observations',
      'FeaturesOfInterest',
    ]);
    for (const set of body.value) {
      expect(set.url).toBe(`${areaUrl('sensor-data')}${STA_ROOT_PATH}/${set.name}`);
      expect((await sta(`/${set.name}?$top=1`)).status).toBe(200);
    }
    expect(body.serverSettings.conformance).toContain('http://www.opengis.net/spec/iot_sensing/1.1/req/request-data');
  });

  it(`${CONF}/entity-control-information/common-control-information and each entity type's valid test (A.1.2–A.1.9): mandatory properties and navigation links`, async () => {
    const expected: Record<string, { properties: string[]; links: string[]; path: string }> = {
      Things: {
        properties: ['name', 'description'],
        links: ['Locations', 'HistoricalLocations', 'Datastreams'],
        path: thing(),
      },
      Locations: {
        properties: ['name', 'description', 'encodingType', 'location'],
        links: ['Things', 'HistoricalLocations'],
        path: `${thing()}/Locations`,
      },
      HistoricalLocations: {
        properties: ['time'],
        links: ['Thing', 'Locations'],
        path: `${thing()}/HistoricalLocations`,
      },
      Datastreams: {
        properties: ['name', 'description', 'unitOfMeasurement', 'observationType'],
        links: ['Thing', 'Sensor', 'ObservedProperty', 'Observations'],
        path: `${thing()}/Datastreams`,
      },
      Sensors: {
        properties: ['name', 'description', 'encodingType', 'metadata'],
        links: ['Datastreams'],
        path: `${stream()}/Sensor`,
      },
      ObservedProperties: {
        properties: ['name', 'definition', 'description'],
        links: ['Datastreams'],
        path: `${stream()}/ObservedProperty`,
      },
      Observations: {
        properties: ['phenomenonTime', 'result', 'resultTime'],
        links: ['Datastream', 'FeatureOfInterest'],
        path: `${stream()}/Observations`,
      },
      FeaturesOfInterest: {
        properties: ['name', 'description', 'encodingType', 'feature'],
        links: ['Observations'],
        path: `/FeaturesOfInterest(${quoted(open.id)})`,
      },
    };
    for (const [set, { properties, links, path }] of Object.entries(expected)) {
      const { status, body } = await sta(path);
      expect([set, status]).toEqual([set, 200]);
      const entities = body.value ?? [body];
      expect(entities.length).toBeGreaterThan(0);
      for (const entity of entities) {
        expect(typeof entity['@iot.id']).toBe('string');
        for (const property of properties) expect([set, property, property in entity]).toEqual([set, property, true]);
        for (const link of links)
          expect(entity[`${link}@iot.navigationLink`]).toBe(`${entity['@iot.selfLink']}/${link}`);
        // The selfLink is the entity.
        const self = await sta(entity['@iot.selfLink']);
        expect(self.body['@iot.id']).toBe(entity['@iot.id']);
      }
    }
    const [datastream] = (await sta(`${thing()}/Datastreams?$filter=properties/measurement eq 'pm2_5'`)).body.value;
    expect(datastream.unitOfMeasurement).toEqual({
      name: 'microgram per cubic metre',
      symbol: 'ug/m3',
      definition: 'http://unitsofmeasure.org/ucum.html',
    });
    expect((await sta(`${stream()}/ObservedProperty`)).body.definition).toBe(
      'http://vocab.nerc.ac.uk/standard_name/mass_concentration_of_pm2p5_ambient_aerosol_particles_in_air/',
    );
  });

  it(`${CONF}/resource-path/resource-path-to-entities: by id, navigation, properties, $value and $ref`, async () => {
    expect((await sta(`${thing()}/name`)).body).toEqual({ name: 'STA rooftop' });
    const raw = await sta(`${thing()}/name/$value`);
    expect([raw.status, raw.text, raw.headers.get('content-type')]).toEqual([
      200,
      'STA rooftop',
      'text/plain; charset=utf-8',
    ]);
    expect((await sta(`${stream()}/Thing`)).body['@iot.id']).toBe(open.id);
    expect((await sta(`${stream()}/Thing/Locations`)).body.value[0].location).toEqual({
      type: 'Point',
      coordinates: [-122.35, 47.62],
    });
    const refs = await sta(`${thing()}/Datastreams/$ref`);
    expect(refs.body.value.map((r: Record<string, string>) => Object.keys(r))).toEqual([
      ['@iot.selfLink'],
      ['@iot.selfLink'],
    ]);
    expect((await sta(`${thing()}/Datastreams(${quoted(`${open.id}~temperature`)})`)).body.name).toBe(
      'STA rooftop: Temperature',
    );
    // Each move of the device is a HistoricalLocation linked to the Location it moved to.
    const history = (await sta(`${thing()}/HistoricalLocations?$orderby=time&$expand=Locations`)).body.value;
    expect(history.map((h: { Locations: { location: unknown }[] }) => h.Locations[0]!.location)).toEqual([
      { type: 'Point', coordinates: [-122.3, 47.6] },
      { type: 'Point', coordinates: [-122.35, 47.62] },
    ]);
    // An Observation's own id reads it back.
    const [first] = (await sta(`${stream()}/Observations?$top=1`)).body.value;
    expect((await sta(`/Observations(${quoted(first['@iot.id'])})`)).body.result).toBe(first.result);
  });
});

describe('Filtering Extension (OGC 18-088 A.2.1)', () => {
  it(`${CONF}/request-data/order: $filter, then $orderby, then $skip, then $top`, async () => {
    const { body } = await sta(
      `${stream()}/Observations?$top=3&$skip=2&$orderby=phenomenonTime desc&$filter=result lt 20`,
    );
    // Results 0..19 pass the filter; newest first is 19, 18, …; skip two, take three.
    expect(body.value.map((o: { result: number }) => o.result)).toEqual([17, 16, 15]);
  });

  it(`${CONF}/request-data/expand-and-select: $expand nested two levels with its own options, $select`, async () => {
    const { body } = await sta(
      `${thing()}?$select=name,Datastreams&$expand=Datastreams($select=name;$orderby=name;$expand=Observations($top=2;$orderby=phenomenonTime desc;$select=result))`,
    );
    expect(Object.keys(body).sort()).toEqual(['Datastreams', 'Datastreams@iot.navigationLink', 'name']);
    expect(body.Datastreams.map((d: { name: string }) => d.name)).toEqual([
      'STA rooftop: PM2.5',
      'STA rooftop: Temperature',
    ]);
    expect(body.Datastreams[0].Observations).toEqual([{ result: 29 }, { result: 28 }]);
    expect(body.Datastreams[0]['Observations@iot.nextLink']).toContain('/Observations?$top=2&$skip=2');
    const upward = await sta(`${stream()}/Observations?$top=1&$expand=Datastream($expand=Thing($expand=Locations))`);
    expect(upward.body.value[0].Datastream.Thing.Locations[0]['@iot.id']).toBe(open.id);
  });

  it(`${CONF}/request-data/status-codes: 404 for an entity that is not there, 501 for what is not implemented`, async () => {
    const missing = await sta(`/Things(${quoted(uniqueId('no-such-device'))})`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: { code: '404', message: expect.stringContaining('not found') } });
    expect((await sta(`/Datastreams(${quoted(`${open.id}~no_such`)})`)).status).toBe(404);
    expect((await sta('/Nothings')).status).toBe(404);
    const relate = await sta(`/Locations?$filter=st_relate(location, geography'POINT(1 2)', 'T********')`);
    expect([relate.status, relate.body.error.code]).toEqual([501, '501']);
  });

  it(`${CONF}/request-data/sorting: $orderby on a property, ascending and descending`, async () => {
    const up = await sta(`${stream()}/Observations?$orderby=result&$top=3`);
    const down = await sta(`${stream()}/Observations?$orderby=result desc&$top=3`);
    expect(up.body.value.map((o: { result: number }) => o.result)).toEqual([0, 1, 2]);
    expect(down.body.value.map((o: { result: number }) => o.result)).toEqual([29, 28, 27]);
    const names = await sta(`${thing()}/Datastreams?$orderby=name desc`);
    expect(names.body.value.map((d: { name: string }) => d.name)).toEqual([
      'STA rooftop: Temperature',
      'STA rooftop: PM2.5',
    ]);
  });

  it(`${CONF}/request-data/client-driven-pagination: $top, $skip and $count`, async () => {
    const { body } = await sta(`${stream()}/Observations?$top=5&$skip=10&$count=true`);
    expect(body['@iot.count']).toBe(30);
    expect(body.value.map((o: { result: number }) => o.result)).toEqual([10, 11, 12, 13, 14]);
    expect((await sta(`${thing()}/Datastreams?$count=true&$top=1`)).body['@iot.count']).toBe(2);
  });

  it(`${CONF}/request-data/filter: operators, functions and casting`, async () => {
    const values = async (filter: string) =>
      (await sta(`${stream()}/Observations?$filter=${encodeURIComponent(filter)}`)).body.value.map(
        (o: { result: number }) => o.result,
      );
    expect(await values('result ge 27 or (result add 1) mul 2 eq 4')).toEqual([1, 27, 28, 29]);
    expect(await values(`phenomenonTime ge ${new Date(times[28]!).toISOString()}`)).toEqual([28, 29]);
    expect(await values(`minute(phenomenonTime) eq ${new Date(times[5]!).getUTCMinutes()} and result lt 29`)).toEqual([
      5,
    ]);
    expect(await values("result eq '3'")).toEqual([3]);
    const things = (
      await sta(`/Things?$filter=${encodeURIComponent(`startswith(name, 'STA roof') and @iot.id eq '${open.id}'`)}`)
    ).body.value;
    expect(things.map((t: { name: string }) => t.name)).toEqual(['STA rooftop']);
    const near = await sta(
      `/Locations?$filter=${encodeURIComponent(`@iot.id eq '${open.id}' and st_within(location, geography'POLYGON((-123 47, -122 47, -122 48, -123 48, -123 47))') and geo.distance(location, geography'POINT(-122.35 47.62)') lt 0.001`)}`,
    );
    expect(near.body.value.map((l: { '@iot.id': string }) => l['@iot.id'])).toEqual([open.id]);
  });

  it(`${CONF}/request-data/server-driven-pagination: @iot.nextLink pages through every Observation once`, async () => {
    const seen: number[] = [];
    let next: string | undefined =
      `${areaUrl('sensor-data')}${STA_ROOT_PATH}${stream()}/Observations?$top=7&$orderby=phenomenonTime desc`;
    while (next) {
      const { body } = await sta(next);
      seen.push(...body.value.map((o: { result: number }) => o.result));
      next = body['@iot.nextLink'];
    }
    expect(seen).toEqual(Array.from({ length: 30 }, (_, i) => 29 - i));
    // A collection larger than $top says where the rest is.
    expect((await sta(`${thing()}/Datastreams?$top=1`)).body['@iot.nextLink']).toContain('$skip=1');
  });
});

describe('access, as everywhere', () => {
  it("a guest never sees a private device's Thing; a stranger is refused; the owner sees it", async () => {
    const listed = async (token?: string) =>
      (
        await sta(`/Things?$filter=${encodeURIComponent(`@iot.id eq '${hidden.id}' or @iot.id eq '${open.id}'`)}`, {
          token,
        })
      ).body.value.map((t: { '@iot.id': string }) => t['@iot.id']);
    expect(await listed()).toEqual([open.id]);
    expect(await listed(stranger.token)).toEqual([open.id]);
    expect((await listed(owner.token)).sort()).toEqual([hidden.id, open.id].sort());
    const guest = await sta(`/Things(${quoted(hidden.id)})`);
    expect([guest.status, guest.body.error.code]).toEqual([401, '401']);
    expect((await sta(`/Things(${quoted(hidden.id)})`, { token: stranger.token })).status).toBe(403);
    expect((await sta(`${stream(hidden)}/Observations`, { token: stranger.token })).status).toBe(403);
    expect((await sta(`/Things(${quoted(hidden.id)})`, { token: owner.token })).status).toBe(200);
  });

  it("a campaign member sees the device's Observations only inside the campaign's window", async () => {
    const { body } = await sta(`${stream(hidden)}/Observations?$orderby=phenomenonTime`, { token: member.token });
    expect(body.value.map((o: { result: number }) => o.result)).toEqual(Array.from({ length: 10 }, (_, i) => 20 + i));
    const thingOf = await sta(`/Things(${quoted(hidden.id)})`, { token: member.token });
    expect(thingOf.body.properties.campaigns).toEqual([
      expect.objectContaining({ startsAt: new Date(campaignStart).toISOString() }),
    ]);
    // The owner (a direct relation) sees all of it.
    expect(
      (await sta(`${stream(hidden)}/Observations?$count=true&$top=1`, { token: owner.token })).body['@iot.count'],
    ).toBe(30);
  });

  it('an API key is metered like the /v1 reads: rate-limit headers, and 429 in OData shape over the quota', async () => {
    const { key } = await apiAs('sensor-data', owner.token).createApiKey({ body: { name: 'STA' } });
    const ok = await sta(`${stream()}/Observations?$top=2`, { key, root: STA_API_ROOT_PATH });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-ratelimit-limit')).toBe('3000');
    expect(Number(ok.headers.get('x-ratelimit-remaining'))).toBeLessThan(3000);
    expect(ok.body['@iot.nextLink']).toContain(`${STA_API_ROOT_PATH}/Datastreams(`);
    await documentClient().send(
      new UpdateCommand({
        TableName: stack().tables.apiUsage!,
        Key: { pk: `${open.id}#${new Date().toISOString().slice(0, 7)}` },
        UpdateExpression: 'SET #count = :count',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':count': 3000 },
      }),
    );
    const over = await sta(`${stream()}/Observations?$top=2`, { key, root: STA_API_ROOT_PATH });
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ error: { code: '429', message: expect.stringContaining('is used up') } });
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe("every refusal on a SensorThings path in OData's error shape, whoever refuses (decision 093)", () => {
  const odata = (status: number, message: unknown = expect.any(String), more: object = {}) => ({
    status,
    body: { error: { code: String(status), message, ...more } },
  });
  const refusal = ({ status, body }: { status: number; body: unknown }) => ({ status, body });

  it('the chain: no key, an unknown key, a bad token, a query option over its schema', async () => {
    // Refused before the service runs, by the HTTP chain's authentication and the contract's query schema.
    expect(refusal(await sta('/Things', { root: STA_API_ROOT_PATH }))).toEqual(
      odata(401, 'A valid API key is required (X-Api-Key header)'),
    );
    expect(refusal(await sta('/Things', { root: STA_API_ROOT_PATH, key: 'ak_not-a-key' }))).toEqual(odata(401));
    expect(refusal(await sta(`/Things(${quoted(hidden.id)})`, { token: 'not-a-token' }))).toEqual(odata(401));
    expect(refusal(await sta(`/Things?$top=${'1'.repeat(4_001)}`))).toEqual(
      odata(400, expect.stringContaining('$top is at most 4000 characters'), { target: '$top' }),
    );
  });

  it('the service: a guest on a private Thing, a bad $top, a key over its quota (above) answer the same shape', async () => {
    expect(refusal(await sta(`/Things(${quoted(hidden.id)})`))).toEqual(odata(401));
    expect(refusal(await sta(`/Things(${quoted(hidden.id)})`, { token: stranger.token }))).toEqual(odata(403));
    expect(refusal(await sta(`${stream()}/Observations?$top=-1`))).toEqual(
      odata(400, expect.any(String), { target: '$top' }),
    );
  });

  it('the gateway: a method the service does not take, a path that is not percent-encoding, a request line over 16 KB', async () => {
    const root = `${areaUrl('sensor-data')}${STA_ROOT_PATH}`;
    const posted = await fetch(`${root}/Things`, { method: 'POST', body: '{}' });
    expect({ status: posted.status, body: await posted.json() }).toEqual(
      odata(405, `Method POST is not allowed on ${STA_ROOT_PATH}/Things`),
    );
    const deleted = await fetch(`${areaUrl('sensor-data')}${STA_API_ROOT_PATH}`, { method: 'DELETE' });
    expect({ status: deleted.status, body: await deleted.json() }).toEqual(odata(405));
    expect(refusal(await sta(`/Things('%ZZ')`))).toEqual(odata(400));
    // Refused by the HTTP parser before any route is matched: a request line over 16 KB.
    expect(refusal(await sta(`/Things?$filter=${'x'.repeat(17_000)}`))).toEqual(
      odata(431, 'The request line and headers are larger than 16 KB'),
    );
    // Elsewhere in the area, the platform's shape.
    const other = await fetch(`${areaUrl('sensor-data')}/devices/${encodeURIComponent(open.id)}/readings`, {
      method: 'DELETE',
    });
    expect(Object.keys(await other.json())).toEqual(['message']);
  });
});

describe('bad OData: a 400 in OData error shape, never a 500', () => {
  it.each([
    ['a $filter syntax error', '/Things?$filter=name eq', '$filter'],
    ['an unknown property', '/Things?$filter=colour eq 1', '$filter'],
    ['an unknown property in $orderby', '/Things?$orderby=colour', '$orderby'],
    ['an unknown property in $select', '/Things?$select=colour', '$select'],
    ['$top=-1', '/Things?$top=-1', '$top'],
    [
      '$expand four levels deep',
      '/Things?$expand=Datastreams($expand=Thing($expand=Locations($expand=HistoricalLocations)))',
      '$expand',
    ],
    ['an unknown navigation property', '/Things?$expand=Sensors', '$expand'],
    ['a forged $skiptoken', '/Observations?$skiptoken=bm9wZQ', '$skiptoken'],
  ])('%s', async (_name, path, target) => {
    const { status, body } = await sta(path.replace(/ /g, '%20'));
    expect(status).toBe(400);
    expect(body).toEqual({ error: { code: '400', message: expect.any(String), target } });
  });
});
