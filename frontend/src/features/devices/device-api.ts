import { useQuery } from '@tanstack/react-query';
import { areaKey, routeKey, routeQuery } from '../../lib/query';

/** One device as its viewer may see it (`access` says what they may do). */
/** The device's read, for `useQuery` and for a screen drawn with it (`useFirstReads`). */
export const deviceRead = (id: string) => routeQuery('devices', 'get', { params: { id } });

export const useDevice = (id: string) => useQuery(deviceRead(id));

/** The lists and maps of devices: a device added, changed or gone may show in any of them. */
export const deviceListKeys = [
  routeKey('devices', 'listMine'),
  routeKey('devices', 'listAll'),
  routeKey('devices', 'map'),
];

/** Every read that may show a device's record: its page, the lists and the maps. */
export const deviceShownKeys = (id: string) => [routeKey('devices', 'get', { params: { id } }), ...deviceListKeys];

/**
 * A claim, transfer or retirement also moves relations (the owner's, the device's members), so the members
 * panels and the dashboards' lists read them again.
 */
export const deviceOwnershipKeys = (id?: string) => [
  ...(id ? deviceShownKeys(id) : deviceListKeys),
  areaKey('relations'),
];

/** The device's ingress credentials. */
export const credentialKeys = (id: string) => [routeKey('devices', 'listCredentials', { params: { id } })];
