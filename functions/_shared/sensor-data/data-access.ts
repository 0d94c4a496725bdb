import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Caller } from '../../../shared/auth/verify-token';
import { clipToWindows, type TimeRange, type Windows } from '../../../shared/campaigns/window';
import type { DataVisibility, ProductLine } from '../../../shared/contracts/devices';
import { MESSAGES } from '../../../shared/messages';
import {
  DAY_MS,
  type DataPurpose,
  grantsPurpose,
  type TierRow,
  unlockingTier,
  WINDOW_SLACK_MS,
} from '../../../shared/sensor-data/tiers';
import type { Access } from '../access/access';
import { Forbidden, NotFound, Unauthorized } from '../errors';
import { type KeyRead, type ReadAhead, readKey } from '../read-ahead';
import type { DeviceTiers } from './device-tier';

/** What the sensor-data reads need of a device record (the devices area owns the record). */
export interface DataDevice {
  id: string;
  name: string;
  productLine: ProductLine;
  dataVisibility: DataVisibility;
  state: string;
  lastSeen?: number;
  /** Units devices declared for measurements outside the catalogue (data-ingress keeps them). */
  measurementUnits?: Record<string, string>;
  /** Every measurement name the device has sent (data-ingress adds to it). */
  measurementNames?: string[];
  /** What the SensorThings service shows of the device (docs/open-data.md): its model, place and when it was made. */
  model?: string;
  location?: { lat: number; lon: number };
  locationPrivacy?: 'exact' | 'approximate' | 'hidden';
  /** Where the device was set, and when, from the first move recorded (the devices area appends a move). */
  locationHistory?: { time: number; lat: number; lon: number }[];
  created?: number;
}

/** How the caller reaches the device's data. `public`: only because the device's data is public. */
export type DataRoute = 'staff' | 'relation' | 'campaign' | 'public';

export interface DataAccess {
  device: DataDevice;
  tier: TierRow;
  /** Every tier of the device's line, lowest first, as the table in force says: what would unlock more. */
  lineTiers: readonly TierRow[];
  route: DataRoute;
  /** Staff or the device's owner or an administrator: they see its exact location whatever its privacy. */
  manages?: boolean;
  /** Campaign route only: the campaigns that let the caller in. */
  campaignIds?: readonly string[];
  /** Staff, a relation or a campaign: the "permissioned" download window applies; else the public one. */
  permissioned: boolean;
  /** Campaign route only: the campaigns' windows; null is unlimited. */
  windows: Windows;
}

export type { DataPurpose };

/** How far back a purpose may reach, in days; null when the tier does not offer it at all. */
export const reachDays = (access: Pick<DataAccess, 'tier' | 'permissioned'>, purpose: DataPurpose): number | null => {
  const f = access.tier.features;
  if (purpose === 'download') {
    return access.permissioned ? f.manualDataDownloadPermissionedAccessDays : f.manualDataDownloadPublicAccessDays;
  }
  if (purpose === 'api') return f.apiAccess ? f.historicalDataAccessDays : null;
  return f.historicalDataAccessDays;
};

/**
 * The earliest time (ms) the purpose may reach now, or a 403 naming the tier that unlocks it when the device's
 * tier does not offer the purpose at all.
 */
export const windowStart = (access: DataAccess, purpose: DataPurpose, now: number): number => {
  const days = reachDays(access, purpose);
  if (days === null) {
    const unlock = unlockingTier(access.lineTiers, grantsPurpose(purpose, access.permissioned, 1));
    throw new Forbidden(MESSAGES.tierLacksPurpose(purpose, access.tier.name, access.device.productLine, unlock?.name));
  }
  return now - days * DAY_MS;
};

/** Where a requested range ends: at `to`, else now, and never more than a day ahead (device clocks may run fast). */
export const rangeEnd = (requested: { to?: number }, now: number): number =>
  Math.min(requested.to ?? now, now + DAY_MS);

/**
 * The parts of a requested range this access may read (spec §9: what lies outside is skipped, not counted).
 * A range reaching back before the tier's window is a 403 naming the tier that unlocks it: the data is kept,
 * and upgrading unlocks it at once. Without `from`, the range starts at the window.
 */
export const readableRanges = (
  access: DataAccess,
  purpose: DataPurpose,
  requested: { from?: number; to?: number },
  now: number,
): { range: TimeRange; parts: TimeRange[] } => {
  const start = windowStart(access, purpose, now);
  const to = rangeEnd(requested, now);
  const from = requested.from ?? start;
  // A minute of slack: a client that computed "now minus N days" a moment ago is inside the window, and asks
  // for N days (not N + 1) when it is not.
  if (from < start - WINDOW_SLACK_MS) {
    const days = Math.ceil((now - from - WINDOW_SLACK_MS) / DAY_MS);
    const unlock = unlockingTier(access.lineTiers, grantsPurpose(purpose, access.permissioned, days));
    throw new Forbidden(
      MESSAGES.outsideTierWindow(
        purpose,
        access.tier.name,
        reachDays(access, purpose)!,
        access.device.productLine,
        unlock?.name,
      ),
    );
  }
  const range = { from: Math.max(from, start), to };
  return { range, parts: clipToWindows(range, access.windows) };
};

/**
 * What the reads take of a device record: not its claim, owner, firmware or credential fields. The SensorThings
 * catalogue lists devices with the same (functions/sensor-data/store/sta-catalog.ts).
 */
export const DEVICE_ATTRIBUTES = [
  'id',
  'name',
  'productLine',
  'dataVisibility',
  'state',
  'lastSeen',
  'measurementUnits',
  'measurementNames',
  'model',
  'location',
  'locationPrivacy',
  'locationHistory',
  'created',
] as const;

export interface DataAccessDeps {
  db: DynamoDBDocumentClient;
  devicesTable: string;
  access: Pick<Access, 'forCaller' | 'readAhead'>;
  tiers: Pick<DeviceTiers, 'tierReader' | 'keyReads'>;
}

/**
 * Who may read a device's data, through which route and under which tier: the one place the sensor-data reads,
 * exports, the public API and the live view ask. Unknown device: 404. A private device the caller cannot reach:
 * 401 for a guest, 403 otherwise (as the devices area answers).
 */
export const createDataAccess = ({ db, devicesTable, access, tiers }: DataAccessDeps) => {
  // Consistent: a device made private is closed on the very next request.
  const deviceRead = (deviceId: string): KeyRead => ({
    table: devicesTable,
    key: { id: deviceId },
    consistent: true,
    attributes: DEVICE_ATTRIBUTES,
  });

  const readDevice = async (deviceId: string, ahead?: ReadAhead): Promise<DataDevice | undefined> => {
    const item = await readKey(db, deviceRead(deviceId), ahead);
    if (!item) return undefined;
    const names = item.measurementNames as Set<string> | string[] | undefined;
    return { ...(item as unknown as DataDevice), ...(names ? { measurementNames: [...names].sort() } : {}) };
  };

  return {
    readDevice,

    /**
     * Every key `resolve` reads by key (the device, its subscription, the tier table, the caller's own relations
     * to it), so a request can read them with its session record in one round trip and hand them to `resolve`
     * (`ahead`).
     */
    readAhead: (caller: Pick<Caller, 'sub' | 'groups'> | undefined, deviceId: string): KeyRead[] => [
      deviceRead(deviceId),
      ...tiers.keyReads(deviceId),
      ...access.readAhead(caller, 'device', deviceId),
    ],

    resolve: async (caller: Caller | undefined, deviceId: string, ahead?: ReadAhead): Promise<DataAccess> => {
      // Independent reads side by side (or all read ahead): this runs before every data read, so its latency is theirs.
      const [device, decision, tierFor] = await Promise.all([
        readDevice(deviceId, ahead),
        access.forCaller(caller).check('device', deviceId, {}, ahead),
        tiers.tierReader(deviceId, ahead),
      ]);
      if (!device) throw new NotFound(MESSAGES.deviceNotFound(deviceId));
      let route: DataRoute;
      if (decision.allowed) {
        route = decision.via === 'staff' ? 'staff' : decision.campaignIds ? 'campaign' : 'relation';
      } else if (device.dataVisibility === 'public') {
        route = 'public';
      } else if (!caller) {
        throw new Unauthorized();
      } else {
        throw new Forbidden(MESSAGES.accessDenied('device'));
      }
      const { tier, line } = tierFor(device.productLine);
      return {
        device,
        tier,
        lineTiers: line,
        route,
        manages:
          decision.allowed &&
          (decision.via === 'staff' || decision.via === 'device-owner' || decision.via === 'device-administrator'),
        ...(route === 'campaign' && decision.campaignIds ? { campaignIds: decision.campaignIds } : {}),
        permissioned: route !== 'public',
        windows: route === 'campaign' ? (decision.windows ?? []) : null,
      };
    },
  };
};

export type DataAccessModule = ReturnType<typeof createDataAccess>;
