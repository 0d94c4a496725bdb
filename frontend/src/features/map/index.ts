/**
 * What other features may use of the map (docs/style.md §9, §17): the devices map, a scope's map section and the
 * points' types. MapLibre itself stays behind the map's own dynamic import (maplibre-map.ts), so nothing here adds it
 * to a chunk.
 */
export { DeviceMapSection } from './device-map-section';
export { DevicesMap, type DevicesMapProps } from './devices-map';
export { formatCoordinate, type MapPoint } from './map-points';
