import { gzipSync } from 'node:zlib';
import type { LineString, Point, Polygon } from 'geojson';
import {
  type BaseMap,
  buildBaseMap,
  insideRing,
  labelPoint,
  planarLines,
  planarPolygons,
  planarRings,
  ringArea,
  rounded,
} from './base-map';

/** The largest longitude step of any ring or line: more than 180° is a streak drawn across the whole map. */
const widestStep = (lines: number[][][]) =>
  Math.max(0, ...lines.flatMap((line) => line.slice(1).map((point, i) => Math.abs(point[0]! - line[i]![0]!))));

describe('the offline base map built from Natural Earth', () => {
  it('leaves a ring that crosses no antimeridian as it is, closed', () => {
    const square = [
      [10, 10],
      [20, 10],
      [20, 20],
      [10, 20],
      [10, 10],
    ];
    expect(planarRings(square)).toEqual([square]);
  });

  it('cuts a ring across the antimeridian into a piece on each side, none spanning the map', () => {
    // An island from 175° E to 175° W, as the sphere has it (Fiji, Chukotka).
    const island = [
      [175, -10],
      [-175, -10],
      [-175, -20],
      [175, -20],
      [175, -10],
    ];
    const pieces = planarRings(island);
    expect(pieces).toHaveLength(2);
    expect(widestStep(pieces)).toBeLessThanOrEqual(180);
    const [east, west] = [...pieces].sort((a, b) => b[0]![0] - a[0]![0]);
    expect(Math.min(...east!.map(([lon]) => lon))).toBe(175);
    expect(Math.max(...east!.map(([lon]) => lon))).toBe(180);
    expect(Math.min(...west!.map(([lon]) => lon))).toBe(-180);
    expect(Math.max(...west!.map(([lon]) => lon))).toBe(-175);
    // Together the pieces cover the island's 10° × 10°.
    expect(pieces.reduce((sum, ring) => sum + ringArea(ring).area, 0)).toBeCloseTo(100);
  });

  it('closes a ring around the pole along the pole, so Antarctica is land to the bottom of the map', () => {
    const ring = [
      [-180, -70],
      [-90, -72],
      [0, -69],
      [90, -71],
      [180, -70],
      [-180, -70],
    ];
    const pieces = planarRings(ring);
    expect(pieces).toHaveLength(1);
    expect(Math.min(...pieces[0]!.map(([, lat]) => lat))).toBe(-90);
    expect(insideRing([0, -80], pieces[0]!)).toBe(true);
    expect(insideRing([0, -60], pieces[0]!)).toBe(false);
  });

  it('keeps a hole with the piece it lies in', () => {
    const polygons = planarPolygons([
      [
        [0, 0],
        [10, 0],
        [10, 10],
        [0, 10],
        [0, 0],
      ],
      [
        [4, 4],
        [6, 4],
        [6, 6],
        [4, 6],
        [4, 4],
      ],
    ]);
    expect(polygons).toHaveLength(1);
    expect(polygons[0]).toHaveLength(2);
  });

  it('cuts a line at the antimeridian, the crossing on both sides', () => {
    const pieces = planarLines([
      [170, 60],
      [-170, 70],
    ]);
    expect(pieces).toEqual([
      [
        [170, 60],
        [180, 65],
      ],
      [
        [-180, 65],
        [-170, 70],
      ],
    ]);
  });

  it('rounds coordinates and drops the points rounding makes repeat', () => {
    expect(
      rounded(
        [
          [1.001, 2.004],
          [1.004, 2.001],
          [1.5, 2.5],
        ],
        2,
      ),
    ).toEqual([
      [1, 2],
      [1.5, 2.5],
    ]);
  });

  it('puts a name inside its country: the centroid, or across a crescent the middle of its widest stretch', () => {
    const square: [number, number][] = [
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 10],
      [0, 0],
    ];
    const islet: [number, number][] = [
      [20, 0],
      [21, 0],
      [21, 1],
      [20, 1],
      [20, 0],
    ];
    expect(labelPoint([[islet], [square]])).toEqual([5, 5]);
    // A "C" open to the east: its centroid falls in the opening.
    const crescent: [number, number][] = [
      [0, 0],
      [10, 0],
      [10, 2],
      [2, 2],
      [2, 8],
      [10, 8],
      [10, 10],
      [0, 10],
      [0, 0],
    ];
    const at = labelPoint([[crescent]])!;
    expect(insideRing(at, crescent)).toBe(true);
  });

  describe('from the installed world-atlas', () => {
    let map: BaseMap;
    beforeAll(async () => {
      map = JSON.parse(await buildBaseMap());
    }, 60_000);

    const of = <K extends 'land' | 'border' | 'label'>(kind: K) =>
      map.features.filter((feature) => feature.properties.kind === kind);

    it('holds land, borders and names, and no line or ring that spans the map', () => {
      const land = of('land').map((feature) => (feature.geometry as Polygon).coordinates.flat());
      const borders = of('border').map((feature) => (feature.geometry as LineString).coordinates);
      expect(land.length).toBeGreaterThan(1000);
      expect(borders.length).toBeGreaterThan(150);
      // Only Antarctica's closing edge along the south pole may run from one side to the other.
      const spans = [...land, ...borders].filter((line) => widestStep([line]) > 180);
      expect(spans).toHaveLength(1);
      expect(spans[0]!.some(([, lat]) => lat === -90)).toBe(true);
    });

    it('has Seattle, where the demo devices are, on land beside Puget Sound', () => {
      const rings = of('land').map((feature) => (feature.geometry as Polygon).coordinates[0] as [number, number][]);
      const onLand = (lon: number, lat: number) => rings.some((ring) => insideRing([lon, lat], ring));
      // Inland Washington, the open Pacific, and the sound west of the city.
      expect(onLand(-121.5, 47.6)).toBe(true);
      expect(onLand(-126, 47.6)).toBe(false);
      expect(onLand(-122.5, 47.7)).toBe(false);
    });

    it('names countries once each, at a point inside them, the largest first', () => {
      const labels = of('label') as { geometry: Point; properties: { name?: string; rank?: number; tier?: number } }[];
      const names = labels.map((label) => label.properties.name);
      expect(new Set(names).size).toBe(names.length);
      expect(names.slice(0, 3)).toEqual(['Russia', 'Canada', 'United States of America']);
      expect(labels.filter((label) => label.properties.tier === 1)).toHaveLength(30);
      const usa = labels.find((label) => label.properties.name === 'United States of America')!;
      const [lon, lat] = usa.geometry.coordinates;
      expect(lon).toBeGreaterThan(-110);
      expect(lon).toBeLessThan(-85);
      expect(lat).toBeGreaterThan(32);
      expect(lat).toBeLessThan(45);
    });

    it('stays small: well under 2 MB as text (a third of that compressed on the wire)', () => {
      expect(JSON.stringify(map).length).toBeLessThan(2_000_000);
    });
  });

  describe("the world's file (1:110m), drawn below the detailed file's zoom", () => {
    let text: string;
    beforeAll(async () => {
      text = await buildBaseMap('world');
    }, 60_000);

    it('holds land, borders and the largest names, at a tenth of a degree', () => {
      const world = JSON.parse(text) as BaseMap;
      const kinds = new Set(world.features.map((feature) => feature.properties.kind));
      expect([...kinds].sort()).toEqual(['border', 'label', 'land']);
      const names = world.features.filter((feature) => feature.properties.tier === 1).map((f) => f.properties.name);
      expect(names).toEqual(expect.arrayContaining(['Russia', 'Canada', 'United States of America']));
      const coordinates = JSON.stringify(world.features.map((feature) => feature.geometry));
      expect(coordinates).not.toMatch(/\d\.\d{2}/);
    });

    it('is an eighth of the detailed one on the wire (gzip): what a world view costs a phone', async () => {
      const world = gzipSync(text).length;
      const detail = gzipSync(await buildBaseMap('detail')).length;
      expect(world).toBeLessThan(60_000);
      expect(world * 8).toBeLessThan(detail);
    }, 60_000);
  });
});
