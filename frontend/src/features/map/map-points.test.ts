import {
  boundsOf,
  fitAspect,
  formatCoordinate,
  graticule,
  gridStep,
  isPlaceable,
  MERCATOR_MAX_LAT,
  mapPointsOf,
  plotProjection,
  statusColour,
  statusCounts,
  toFeatureCollection,
  UNKNOWN_STATUS_COLOUR,
} from './map-points';

const point = (id: string, lat: number, lon: number, status = 'online') => ({
  id,
  name: id,
  lat,
  lon,
  status,
  href: `/dashboard/devices/${id}`,
});

describe('the devices map data', () => {
  it('places only finite coordinates within the globe', () => {
    expect(isPlaceable(52.5, 13.4)).toBe(true);
    expect(isPlaceable(-90, 180)).toBe(true);
    expect(isPlaceable(91, 0)).toBe(false);
    expect(isPlaceable(0, -181)).toBe(false);
    expect(isPlaceable(Number.NaN, 0)).toBe(false);
    expect(isPlaceable(undefined, 0)).toBe(false);
  });

  it('fits the bounds to the points, widening a single point and clamping to Web Mercator', () => {
    expect(boundsOf([])).toBeUndefined();
    expect(boundsOf([point('a', 10, 20), point('b', -5, 40)])).toEqual([
      [20, -5],
      [40, 10],
    ]);
    const one = boundsOf([point('a', 52, 13)], 1)!;
    expect(one[0][0]).toBeCloseTo(12.5);
    expect(one[1][0]).toBeCloseTo(13.5);
    expect(one[0][1]).toBeCloseTo(51.5);
    expect(one[1][1]).toBeCloseTo(52.5);
    const polar = boundsOf([point('p', 89.9, 0)])!;
    expect(polar[1][1]).toBe(MERCATOR_MAX_LAT);
  });

  it('turns points into GeoJSON features that carry their colour and link', () => {
    const collection = toFeatureCollection([point('a', 1, 2, 'offline'), point('b', 3, 4, 'weird')]);
    expect(collection.features).toHaveLength(2);
    expect(collection.features[0]).toMatchObject({
      geometry: { type: 'Point', coordinates: [2, 1] },
      properties: { deviceId: 'a', colour: statusColour('offline'), href: '/dashboard/devices/a' },
    });
    expect(collection.features[1]!.properties.colour).toBe(UNKNOWN_STATUS_COLOUR);
  });

  it('draws a graticule of meridians and parallels, the equator marked', () => {
    const lines = graticule(30).features;
    expect(lines.filter((l) => l.properties.kind === 'meridian')).toHaveLength(13);
    expect(lines.filter((l) => l.properties.kind === 'equator')).toHaveLength(1);
    expect(lines.every((l) => l.geometry.coordinates.length > 2)).toBe(true);
  });

  it('counts statuses in the legend order, known ones first', () => {
    expect(
      statusCounts([
        point('a', 0, 0, 'offline'),
        point('b', 0, 0, 'zzz'),
        point('c', 0, 0, 'online'),
        point('d', 0, 0, 'online'),
      ]),
    ).toEqual([
      ['online', 2],
      ['offline', 1],
      ['zzz', 1],
    ]);
  });

  it('projects the fallback plot inside its box, north up', () => {
    const project = plotProjection(
      [
        [0, 0],
        [10, 10],
      ],
      200,
      100,
      10,
    );
    const southWest = project(0, 0);
    const northEast = project(10, 10);
    expect(northEast.y).toBeLessThan(southWest.y);
    expect(northEast.x).toBeGreaterThan(southWest.x);
    for (const { x, y } of [southWest, northEast]) {
      expect(x).toBeGreaterThanOrEqual(10);
      expect(x).toBeLessThanOrEqual(190);
      expect(y).toBeGreaterThanOrEqual(10);
      expect(y).toBeLessThanOrEqual(90);
    }
  });

  it('grows plot bounds to the plot shape, within the globe', () => {
    const [[west, south], [east, north]] = fitAspect(
      [
        [-120, 40],
        [10, 52],
      ],
      2,
      0,
    );
    expect((east - west) / (north - south)).toBeCloseTo(2);
    expect(west).toBe(-120);
    expect(south + north).toBeCloseTo(92);
    const wide = fitAspect(
      [
        [-180, -10],
        [180, 10],
      ],
      1,
    );
    expect(wide).toEqual([
      [-180, -90],
      [180, 90],
    ]);
  });

  it('chooses round grid steps and writes coordinates in words', () => {
    expect(gridStep(10)).toBe(5);
    expect(gridStep(1)).toBe(0.5);
    expect(gridStep(360)).toBe(100);
    expect(formatCoordinate(52.52, -13.405)).toBe('52.5200° N, 13.4050° W');
  });
});

describe('mapPointsOf', () => {
  it("links map points into the page's section", () => {
    const [first] = mapPointsOf(
      [
        {
          id: 'dev-1',
          name: '',
          productLine: 'sd1',
          status: 'online',
          dataVisibility: 'public',
          location: { lat: 1, lon: 2 },
          locationApproximate: false,
        },
      ],
      '/admin',
    );
    expect(first).toEqual({
      id: 'dev-1',
      name: 'dev-1',
      lat: 1,
      lon: 2,
      status: 'online',
      href: '/admin/devices/dev-1',
    });
  });
});
