import type {
  DataVisibility,
  Device,
  DeviceState,
  DeviceStatus,
  FirmwareTarget,
  Location,
  LocationPrivacy,
  MapDevice,
  ProductLine,
} from '../../../shared/contracts/devices';
import { ONLINE_WINDOW_MS } from '../../../shared/devices/presence';
import { approximate, placeFor } from '../../_shared/devices/location-privacy';

/** The stored device: the contract's Device without what is derived per read, plus what only the server keeps. */
export interface StoredDevice {
  id: string;
  serial: string;
  name: string;
  productLine: ProductLine;
  model: string;
  firmwareVersion: string;
  /** Written by ingest when the device reports a new version (functions/data-ingress). */
  firmwareReported?: number;
  /** Written by the code-releases area when a rollout assigns the device. */
  firmwareTarget?: FirmwareTarget;
  /** Every rollout that targeted the device, oldest first (the code-releases area appends when it assigns). */
  firmwareHistory?: Pick<FirmwareTarget, 'rolloutId' | 'releaseId' | 'version' | 'assigned'>[];
  location?: Location;
  /**
   * Each location set since issue 41, with when (ms), the newest last and at most LOCATION_HISTORY_KEPT: where the
   * device has been (the SensorThings service's HistoricalLocations; docs/open-data.md).
   */
  locationHistory?: ({ time: number } & Location)[];
  locationPrivacy: LocationPrivacy;
  dataVisibility: DataVisibility;
  state: DeviceState;
  lastSeen?: number;
  created: number;
  updated: number;
  ownerId?: string;
  claimed?: number;
  retired?: number;
  /** SHA-256 of the claim code; kept after the claim so a wrong code is refused alike before and after. */
  claimCodeHash: string;
  registeredBy: string;
}

export { ONLINE_WINDOW_MS };

/** Moves a device record keeps: enough for a station moved now and then, bounded so the record stays small. */
export const LOCATION_HISTORY_KEPT = 50;

/** The moves after setting `location` at `at`: one more when the place changed, none when it did not. */
export const withMove = (
  device: Pick<StoredDevice, 'location' | 'locationHistory'>,
  location: Location | null | undefined,
  at: number,
): StoredDevice['locationHistory'] | undefined => {
  if (!location) return undefined;
  if (device.location?.lat === location.lat && device.location?.lon === location.lon) return undefined;
  return [...(device.locationHistory ?? []), { time: at, lat: location.lat, lon: location.lon }].slice(
    -LOCATION_HISTORY_KEPT,
  );
};

/** The displayed status, derived at read time: nothing has to run when a device goes quiet. */
export const statusOf = (device: Pick<StoredDevice, 'state' | 'lastSeen'>, now: number): DeviceStatus => {
  if (device.state === 'retired') return 'retired';
  if (device.lastSeen === undefined) return 'provisioned';
  return now - device.lastSeen <= ONLINE_WINDOW_MS ? 'online' : 'offline';
};

export { approximate };

export type AccessLevel = Device['access'];

const MANAGES: readonly AccessLevel[] = ['manage', 'own'];

/** The location as this caller may see it (docs/devices.md: exact, approximate, hidden). */
export const visibleLocation = (
  device: Pick<StoredDevice, 'location' | 'locationPrivacy'>,
  access: AccessLevel,
): { location?: Location; locationApproximate?: boolean } => {
  if (!device.location) return {};
  const seen = placeFor(device.location, device.locationPrivacy, MANAGES.includes(access));
  if (!seen) return {};
  return seen.approximate ? { location: seen.place, locationApproximate: true } : { location: seen.place };
};

/** The device as the contract shows it to a caller with this access. */
export const present = (device: StoredDevice, access: AccessLevel, now: number): Device => ({
  id: device.id,
  serial: device.serial,
  name: device.name,
  productLine: device.productLine,
  model: device.model,
  firmwareVersion: device.firmwareVersion,
  ...(device.firmwareReported === undefined ? {} : { firmwareReported: device.firmwareReported }),
  // Which rollout targets a device is fleet operations, not the public's business.
  ...(device.firmwareTarget && MANAGES.includes(access) ? { firmwareTarget: device.firmwareTarget } : {}),
  ...visibleLocation(device, access),
  locationPrivacy: device.locationPrivacy,
  dataVisibility: device.dataVisibility,
  state: device.state,
  status: statusOf(device, now),
  ...(device.lastSeen === undefined ? {} : { lastSeen: device.lastSeen }),
  created: device.created,
  updated: device.updated,
  ...(device.ownerId === undefined ? {} : { ownerId: device.ownerId }),
  ...(device.claimed === undefined ? {} : { claimed: device.claimed }),
  ...(device.retired === undefined ? {} : { retired: device.retired }),
  access,
});

/** A map marker, or undefined when the caller may not see where the device is. */
export const toMapDevice = (device: StoredDevice, access: AccessLevel, now: number): MapDevice | undefined => {
  const { location, locationApproximate } = visibleLocation(device, access);
  if (!location) return undefined;
  return {
    id: device.id,
    name: device.name,
    productLine: device.productLine,
    status: statusOf(device, now),
    dataVisibility: device.dataVisibility,
    location,
    locationApproximate: locationApproximate ?? false,
  };
};

/** On the public map: public, located, not hidden, not retired. The store filters by the same rule. */
export const isPublicMapped = (device: StoredDevice): boolean =>
  device.dataVisibility === 'public' &&
  device.location !== undefined &&
  device.locationPrivacy !== 'hidden' &&
  device.state !== 'retired';

// A serial names one device: its id follows from it, so a second registration is a conditional-write conflict.
export { deviceIdOf } from '../../../shared/contracts/devices';
