import { validateStyleMin } from '@maplibre/maplibre-gl-style-spec';
import {
  baseMapLevel,
  baseMapStyle,
  basePaint,
  DETAIL_ZOOM,
  FIT_MAX_ZOOM,
  LABEL_TIERS,
  type MapColours,
} from './base-map-style';

const colours: MapColours = {
  background: '#cddff0',
  land: '#f4f1e8',
  coast: '#6f8fb0',
  border: '#9b8a9c',
  label: '#4b5563',
  fine: '#cdd6e1',
  grid: '#b8c4d3',
  equator: '#8a9bb0',
  cluster: '#3d4a5c',
  ring: '#ffffff',
};
const URL = 'http://localhost:5173/assets/base-map-abc.json';

describe('the offline base map style', () => {
  const style = baseMapStyle(colours, URL);

  it('is a valid MapLibre style', () => {
    expect(validateStyleMin(style)).toEqual([]);
  });

  it('downloads nothing but the base map file: no tiles, sprite or glyph files', () => {
    expect(style.glyphs).toBeUndefined();
    expect(style.sprite).toBeUndefined();
    const remote = Object.values(style.sources).filter((source) => 'url' in source || 'tiles' in source);
    expect(remote).toEqual([]);
    const fetched = Object.values(style.sources).filter(
      (source) => 'data' in source && typeof source.data === 'string',
    );
    expect(fetched).toEqual([expect.objectContaining({ data: URL })]);
  });

  it('starts with an empty base map when given no file: the map gives it the file its fitted view needs', () => {
    const empty = baseMapStyle(colours);
    expect(validateStyleMin(empty)).toEqual([]);
    expect(empty.sources.base).toMatchObject({ data: { type: 'FeatureCollection', features: [] } });
  });

  it("draws the world's small file when zoomed out and the detailed one from a region's view in", () => {
    expect(baseMapLevel(0.5)).toBe('world');
    expect(baseMapLevel(DETAIL_ZOOM - 0.01)).toBe('world');
    expect(baseMapLevel(DETAIL_ZOOM)).toBe('detail');
    // A device's own view (fitted, at most FIT_MAX_ZOOM) gets the detailed coasts.
    expect(baseMapLevel(FIT_MAX_ZOOM)).toBe('detail');
  });

  it('paints water under the graticule, the graticule under the land, and names on top', () => {
    const order = style.layers.map((layer) => layer.id);
    expect(order.slice(0, 6)).toEqual(['background', 'degrees', 'graticule', 'land', 'coast', 'borders']);
    expect(order.slice(6)).toEqual(LABEL_TIERS.map(({ tier }) => `labels-${tier}`));
    expect(style.layers[0]).toMatchObject({ paint: { 'background-color': colours.background } });
    expect(style.layers.find((layer) => layer.id === 'land')).toMatchObject({ paint: { 'fill-color': colours.land } });
  });

  it('names the larger countries first and from further out', () => {
    const zooms = LABEL_TIERS.map(({ minzoom }) => minzoom);
    expect([...zooms].sort((a, b) => a - b)).toEqual(zooms);
    expect(zooms[0]).toBe(0);
    // A device's view (fitted, at most FIT_MAX_ZOOM) shows every tier.
    expect(Math.max(...zooms)).toBeLessThanOrEqual(FIT_MAX_ZOOM);
  });

  it('repaints every base layer when the colour scheme changes', () => {
    const repainted = new Set(basePaint(colours).map(([layer]) => layer));
    expect([...repainted].sort()).toEqual(style.layers.map((layer) => layer.id).sort());
  });
});
