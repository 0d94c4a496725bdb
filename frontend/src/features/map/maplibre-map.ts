import {
  type GeoJSONSource,
  type MapLayerMouseEvent,
  Map as MapLibreMap,
  type MapSourceDataEvent,
  NavigationControl,
  Popup,
  ScaleControl,
  setWorkerUrl,
} from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import 'maplibre-gl/dist/maplibre-gl.css';
import { baseMapUrls } from 'virtual:base-map';
import { onColorSchemeChange, readToken } from '../../lib/theme';
import {
  type BaseMapLevel,
  baseMapLevel,
  baseMapStyle,
  basePaint,
  FIT_MAX_ZOOM,
  type MapColours,
} from './base-map-style';
import type { Bounds, PointCollection } from './map-points';

/*
 * Loaded on demand (import()) by devices-map.tsx, so MapLibre's megabyte reaches only the pages with a map,
 * and only in browsers with WebGL.
 */

// MapLibre finds its worker next to its own module; Vite's dependency pre-bundling moves that module, so the
// worker's address is given explicitly (Vite emits the file as an asset in the build).
setWorkerUrl(workerUrl);

const SOURCE = 'devices';

const mapColours = (): MapColours => ({
  background: readToken('--map-bg', '#cddff0'),
  land: readToken('--map-land', '#f4f1e8'),
  coast: readToken('--map-coast', '#6f8fb0'),
  border: readToken('--map-border', '#9b8a9c'),
  label: readToken('--map-label', '#4b5563'),
  fine: readToken('--map-grid-fine', '#cdd6e1'),
  grid: readToken('--map-grid', '#b8c4d3'),
  equator: readToken('--map-equator', '#8a9bb0'),
  cluster: readToken('--map-cluster', '#3d4a5c'),
  ring: readToken('--map-point-ring', '#ffffff'),
});

export interface MapHandle {
  /** Replaces the points and fits the view to them. */
  show: (points: PointCollection, bounds: Bounds | undefined) => void;
  remove: () => void;
}

export interface MapCallbacks {
  /** A point was chosen: builds the popup's content (a link that navigates inside the app). */
  popupContent: (deviceId: string, name: string, status: string, href: string) => HTMLElement;
  /** MapLibre could not draw (e.g. the WebGL context was lost or refused). */
  onFailure: (error: unknown) => void;
  /** The points given to `show` are drawn (the map is idle after placing them). */
  onDrawn: () => void;
}

/** Creates the map in `container`; throws when MapLibre cannot start (no WebGL context). */
export const createDevicesMap = (container: HTMLElement, callbacks: MapCallbacks): MapHandle => {
  const colours = mapColours();
  const map = new MapLibreMap({
    container,
    style: baseMapStyle(colours),
    center: [0, 20],
    zoom: 0.5,
    attributionControl: false,
    renderWorldCopies: false,
    maxZoom: 16,
    // Labels appear at once rather than over 300 ms of frames: each frame costs a phone's main thread (issue 36).
    fadeDuration: 0,
  });
  map.addControl(new NavigationControl({ showCompass: false }), 'top-right');
  map.addControl(new ScaleControl({ unit: 'metric' }), 'bottom-left');
  let pending: { points: PointCollection; bounds: Bounds | undefined } | undefined;
  let ready = false;
  // The base map's file for the view (decision 080): the world's small one, the detailed one once a view is zoomed in
  // that far. Never back: the detailed file draws every zoom.
  let level: BaseMapLevel | undefined;
  const baseMapForView = () => {
    const needed = baseMapLevel(map.getZoom());
    if (level === needed || level === 'detail') return;
    level = needed;
    (map.getSource('base') as GeoJSONSource | undefined)?.setData(
      new URL(baseMapUrls[needed], window.location.href).href,
    );
  };
  map.on('zoomend', () => {
    if (level) baseMapForView();
  });

  const apply = () => {
    if (!ready || !pending) return;
    const { points, bounds } = pending;
    pending = undefined;
    // setData is processed in the worker: "drawn" is the first idle after the source has the new data.
    const loaded = (event: MapSourceDataEvent) => {
      if (event.sourceId !== SOURCE || !map.isSourceLoaded(SOURCE)) return;
      map.off('sourcedata', loaded);
      map.once('idle', () => callbacks.onDrawn());
    };
    map.on('sourcedata', loaded);
    (map.getSource(SOURCE) as GeoJSONSource | undefined)?.setData(points);
    if (bounds) map.fitBounds(bounds, { padding: 40, maxZoom: FIT_MAX_ZOOM, animate: false });
    baseMapForView();
  };

  map.on('load', () => {
    map.addSource(SOURCE, {
      type: 'geojson',
      data: { type: 'FeatureCollection', features: [] },
      cluster: true,
      clusterRadius: 40,
      clusterMaxZoom: 12,
    });
    map.addLayer({
      id: 'clusters',
      type: 'circle',
      source: SOURCE,
      filter: ['has', 'point_count'],
      paint: {
        'circle-color': colours.cluster,
        'circle-opacity': 0.85,
        'circle-radius': ['step', ['get', 'point_count'], 12, 10, 16, 50, 22],
        'circle-stroke-color': colours.ring,
        'circle-stroke-width': 2,
      },
    });
    map.addLayer({
      id: 'points',
      type: 'circle',
      source: SOURCE,
      filter: ['!', ['has', 'point_count']],
      paint: {
        'circle-color': ['get', 'colour'],
        'circle-radius': 8,
        'circle-stroke-color': colours.ring,
        'circle-stroke-width': 2,
      },
    });
    ready = true;
    apply();
  });

  map.on('click', 'points', (event: MapLayerMouseEvent) => {
    const feature = event.features?.[0];
    if (feature?.geometry.type !== 'Point') return;
    const { deviceId, name, status, href } = feature.properties as Record<string, string>;
    new Popup({ closeButton: true, maxWidth: '18rem' })
      .setLngLat(feature.geometry.coordinates as [number, number])
      .setDOMContent(callbacks.popupContent(deviceId ?? '', name ?? '', status ?? '', href ?? ''))
      .addTo(map);
  });

  // A cluster opens to the zoom at which it splits.
  map.on('click', 'clusters', (event: MapLayerMouseEvent) => {
    const feature = event.features?.[0];
    if (feature?.geometry.type !== 'Point') return;
    const source = map.getSource(SOURCE) as GeoJSONSource;
    const center = feature.geometry.coordinates as [number, number];
    void source
      .getClusterExpansionZoom(Number(feature.properties.cluster_id))
      .then((zoom) => map.easeTo({ center, zoom }));
  });

  for (const layer of ['points', 'clusters']) {
    map.on('mouseenter', layer, () => {
      map.getCanvas().style.cursor = 'pointer';
    });
    map.on('mouseleave', layer, () => {
      map.getCanvas().style.cursor = '';
    });
  }

  map.on('error', (event) => callbacks.onFailure(event.error));
  map.on('webglcontextlost', () => callbacks.onFailure(new Error('The map lost its WebGL context')));

  // The OS switched between light and dark: repaint with the new scheme's tokens, keeping the view.
  const stopFollowing = onColorSchemeChange(() => {
    if (!map.isStyleLoaded()) return;
    const now = mapColours();
    for (const [layer, property, value] of basePaint(now)) map.setPaintProperty(layer, property, value);
    if (!ready) return;
    map.setPaintProperty('clusters', 'circle-color', now.cluster);
    map.setPaintProperty('clusters', 'circle-stroke-color', now.ring);
    map.setPaintProperty('points', 'circle-stroke-color', now.ring);
  });

  return {
    show: (points, bounds) => {
      pending = { points, bounds };
      apply();
    },
    remove: () => {
      stopFollowing();
      map.remove();
    },
  };
};
