import type { ExpressionSpecification, Map as MapLibreMap, StyleSpecification } from 'maplibre-gl';
import { graticule } from './map-points';

/** The map's colours, from the theme's tokens (app/tokens.css): WebGL paints pixels CSS cannot restyle. */
export interface MapColours {
  /** The water, and the canvas behind everything. */
  background: string;
  land: string;
  coast: string;
  border: string;
  label: string;
  fine: string;
  grid: string;
  equator: string;
  cluster: string;
  ring: string;
}

/** The base map's features (frontend/build/base-map.ts): `kind` is land, border or label; labels have a tier. */
const kind = (value: 'land' | 'border' | 'label'): ExpressionSpecification => ['==', ['get', 'kind'], value];

export const graticuleColour = (colours: MapColours): ExpressionSpecification => [
  'match',
  ['get', 'kind'],
  'equator',
  colours.equator,
  colours.grid,
];

/**
 * Closer than this the map shows nothing more: Natural Earth's 1:50m coastlines are about a kilometre coarse, so
 * a view fitted to one device stops here and shows the region around it rather than a blank square of land.
 */
export const FIT_MAX_ZOOM = 6;

/**
 * The system's sans-serif: with no `glyphs` URL in the style, MapLibre draws each character itself from this
 * font family (TinySDF on a canvas), so names need no glyph files from a server.
 */
export const LABEL_FONT = ['sans-serif'];

/** Where each tier of country names appears (the largest countries first). */
export const LABEL_TIERS = [
  { tier: 1, minzoom: 0, size: 12 },
  { tier: 2, minzoom: 2.5, size: 11 },
  { tier: 3, minzoom: 4, size: 11 },
] as const;

/** The base map's files (frontend/build/base-map.ts): the world's at 1:110m, and closer in 1:50m. */
export type BaseMapLevel = 'world' | 'detail';

/** From this zoom on the map shows the detailed file; below it the world's (a degree is under 12 px there). */
export const DETAIL_ZOOM = 3;

/** The file a view at `zoom` needs. */
export const baseMapLevel = (zoom: number): BaseMapLevel => (zoom >= DETAIL_ZOOM ? 'detail' : 'world');

/**
 * The offline style: water as the background, a faint graticule under the land (so it shows on the sea only),
 * land, its coastline, the borders between countries, and the countries' names, all from one GeoJSON file of the
 * app's own origin (`baseMapUrl`, absolute: MapLibre's worker fetches it). No tiles, sprites or glyph files. Without
 * a URL the base source starts empty, and the map gives it the file its view needs once it is fitted to its points.
 */
export const baseMapStyle = (colours: MapColours, baseMapUrl?: string): StyleSpecification => ({
  version: 8,
  sources: {
    base: {
      type: 'geojson',
      data: baseMapUrl ?? { type: 'FeatureCollection', features: [] },
      attribution: 'Natural Earth',
    },
    graticule: { type: 'geojson', data: graticule(15) },
    // Zoomed in, the coarse lines leave the view: degree lines keep a sense of place and scale.
    degrees: { type: 'geojson', data: graticule(1) },
  },
  layers: [
    { id: 'background', type: 'background', paint: { 'background-color': colours.background } },
    {
      id: 'degrees',
      type: 'line',
      source: 'degrees',
      minzoom: 5,
      paint: { 'line-color': colours.fine, 'line-width': 0.5 },
    },
    {
      id: 'graticule',
      type: 'line',
      source: 'graticule',
      paint: {
        'line-color': graticuleColour(colours),
        'line-width': ['match', ['get', 'kind'], 'equator', 1.5, 0.75],
      },
    },
    { id: 'land', type: 'fill', source: 'base', filter: kind('land'), paint: { 'fill-color': colours.land } },
    {
      id: 'coast',
      type: 'line',
      source: 'base',
      filter: kind('land'),
      paint: { 'line-color': colours.coast, 'line-width': ['interpolate', ['linear'], ['zoom'], 0, 0.6, 6, 1.4] },
    },
    {
      id: 'borders',
      type: 'line',
      source: 'base',
      filter: kind('border'),
      layout: { 'line-join': 'round' },
      paint: {
        'line-color': colours.border,
        'line-width': ['interpolate', ['linear'], ['zoom'], 0, 0.5, 6, 1.2],
        'line-dasharray': [3, 2],
      },
    },
    ...LABEL_TIERS.map(({ tier, minzoom, size }) => ({
      id: `labels-${tier}`,
      type: 'symbol' as const,
      source: 'base',
      minzoom,
      filter: ['all', kind('label'), ['==', ['get', 'tier'], tier]] as ExpressionSpecification,
      layout: {
        'text-field': ['get', 'name'] as ExpressionSpecification,
        'text-font': LABEL_FONT,
        'text-size': size,
        'text-max-width': 7,
        'symbol-sort-key': ['get', 'rank'] as ExpressionSpecification,
      },
      paint: { 'text-color': colours.label, 'text-halo-color': colours.land, 'text-halo-width': 1.2 },
    })),
  ],
});

/** Repaints the base map's layers in new colours (the OS switched between light and dark), keeping the view. */
type PaintProperty = Parameters<MapLibreMap['setPaintProperty']>[1];
type PaintValue = Parameters<MapLibreMap['setPaintProperty']>[2];

export const basePaint = (colours: MapColours): [layer: string, property: PaintProperty, value: PaintValue][] => [
  ['background', 'background-color', colours.background],
  ['degrees', 'line-color', colours.fine],
  ['graticule', 'line-color', graticuleColour(colours)],
  ['land', 'fill-color', colours.land],
  ['coast', 'line-color', colours.coast],
  ['borders', 'line-color', colours.border],
  ...LABEL_TIERS.flatMap(({ tier }): [string, PaintProperty, PaintValue][] => [
    [`labels-${tier}`, 'text-color', colours.label],
    [`labels-${tier}`, 'text-halo-color', colours.land],
  ]),
];
