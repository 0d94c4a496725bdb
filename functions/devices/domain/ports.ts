import type { DeviceCredential, ProductLine } from '../../../shared/contracts/devices';
import type { StoredTarget } from '../../_shared/code-releases/rollout-item';
import type { StoredPage } from '../../_shared/paging';
import type { StoredDevice } from './device-model';

type Key = Record<string, unknown>;

/** The stored row: the listed fields plus the secret's hash (never the secret). */
export interface StoredCredential extends DeviceCredential {
  secretHash: string;
}

export interface CredentialStore {
  put: (credential: StoredCredential) => Promise<void>;
  page: (deviceId: string, limit: number, startKey?: Key) => Promise<StoredPage<DeviceCredential>>;
  /** Every credential of the device (a device holds a handful). */
  listAll: (deviceId: string) => Promise<DeviceCredential[]>;
  /** @returns the removed credential, or undefined when the device holds none of that id */
  remove: (deviceId: string, credentialId: string) => Promise<DeviceCredential | undefined>;
}

/** Filters the product-line index reads can apply (DynamoDB filters after reading, so reads are sized up). */
export type DeviceFilter = 'located' | 'publicMapped';

export interface DeviceChanges {
  name?: string;
  location?: StoredDevice['location'] | null;
  locationPrivacy?: StoredDevice['locationPrivacy'];
  dataVisibility?: StoredDevice['dataVisibility'];
  firmwareVersion?: string;
  /** Written with a new location: the moves so far, the newest last (SensorThings' HistoricalLocations). */
  locationHistory?: StoredDevice['locationHistory'];
}

export interface DeviceStore {
  /** @returns false when the id (the serial) is registered */
  create: (device: StoredDevice) => Promise<boolean>;
  get: (id: string) => Promise<StoredDevice | undefined>;
  /** In no particular order; missing ids are left out. */
  getMany: (ids: readonly string[]) => Promise<StoredDevice[]>;
  /** Only one claim wins: the owner is set only while there is none and the device is provisioned. */
  claim: (id: string, ownerId: string, at: number) => Promise<StoredDevice | undefined>;
  /** Undoes a claim whose relation could not be written. */
  unclaim: (id: string, ownerId: string, at: number) => Promise<StoredDevice | undefined>;
  /** Moves the owner only from the one the caller read: a concurrent transfer makes this one fail. */
  setOwner: (id: string, from: string, to: string, at: number) => Promise<StoredDevice | undefined>;
  /** @param allowRetired staff may change a retired device */
  change: (id: string, changes: DeviceChanges, at: number, allowRetired: boolean) => Promise<StoredDevice | undefined>;
  retire: (id: string, at: number) => Promise<StoredDevice | undefined>;
  queryProductLine: (
    productLine: ProductLine,
    page: {
      limit: number;
      startKey?: Key;
      filter?: DeviceFilter;
    },
  ) => Promise<{
    items: StoredDevice[];
    lastKey?: Key;
  }>;
  productLines: readonly ['sd1', 'al30', 'al60', 'al80'];
}

/** What became of each update a device was offered: the code-releases area's targets (read only). */
export interface FirmwareUpdateStates {
  /** The targets of these (rollout, device) pairs that exist, in no particular order. */
  of: (keys: readonly { rolloutId: string; deviceId: string }[]) => Promise<StoredTarget[]>;
}

export interface UserDirectory {
  exists: (userId: string) => Promise<boolean>;
}
