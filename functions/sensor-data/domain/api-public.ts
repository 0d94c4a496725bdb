import type { Caller } from '../../../shared/auth/verify-token';
import { API_MESSAGES, type ApiUsage, type PublicAllowanceUsage } from '../../../shared/contracts/sensor-data-api-keys';
import type { TierRow } from '../../../shared/sensor-data/tiers';
import { DomainError, Forbidden } from '../../_shared/errors';
import type { ApiKeyPrincipal } from '../../_shared/http/http-area';
import type { ReadAhead } from '../../_shared/read-ahead';
import { type DataAccess, type DataAccessModule, readableRanges } from '../../_shared/sensor-data/data-access';
import { meterKey, monthOf, resetOf } from './api-metering';
import type { ApiQuota } from './api-quota';
import type { ApiUsageStore } from './ports';

export interface PublicApiDeps {
  dataAccess: Pick<DataAccessModule, 'resolve'>;
  quota: Pick<ApiQuota, 'meter'>;
  usage: Pick<ApiUsageStore, 'meterMonth' | 'ownerDevices'>;
  /** The tiers of the devices a person owns or administers: what their own allowance is made of. */
  ownTiers: (personId: string) => Promise<readonly TierRow[]>;
  now: () => number;
}

/**
 * A person's own allowance for other people's public devices: the best apiMaxRequests among the tiers with API access
 * of the devices they own or administer, 0 without one (docs/decisions/048-api-calls-count-against-the-caller.md).
 */
export const publicAllowance = (tiers: readonly TierRow[]): number =>
  Math.max(0, ...tiers.filter((row) => row.features.apiAccess).map((row) => row.features.apiMaxRequests));

/**
 * The public API's gate and the usage pages. A request is gated in this order: the device's access (404, 401/403),
 * the tier's API access (403 naming the tier that grants it), the requested range against the tier's API window
 * (403 naming the tier that reaches back so far), and only then metered and read: refused requests cost no quota.
 * Each request counts against the caller's own allowance, never another person's: the device's month when they reach
 * it through their own relations or campaigns, their own allowance when it is someone else's public device.
 */
export const createPublicApi = ({ dataAccess, quota, usage, ownTiers, now }: PublicApiDeps) => {
  const usageOf = async (access: DataAccess, at: number): Promise<ApiUsage> => {
    const month = monthOf(at);
    const { used, warnings } = await usage.meterMonth(meterKey({ kind: 'device', deviceId: access.device.id }), month);
    const limit = access.tier.features.apiMaxRequests;
    return {
      deviceId: access.device.id,
      deviceName: access.device.name,
      month,
      used,
      limit,
      remaining: Math.max(0, limit - used),
      resetsAt: resetOf(at),
      tier: access.tier.name,
      apiAccess: access.tier.features.apiAccess,
      warnings,
    };
  };

  return {
    /**
     * Gates and meters one public-API request, then reads through `read` (the app's own reads, whose window is the
     * same: a tier with API access reaches back its historicalDataAccessDays, as views do).
     */
    metered: async <T>(
      {
        caller,
        key,
        deviceId,
        requested,
        setHeader,
        ahead,
      }: {
        caller: Caller;
        key: ApiKeyPrincipal;
        deviceId: string;
        requested: { from?: number; to?: number };
        setHeader: (name: string, value: string) => void;
        /** What the request read ahead for the gate (the device, its subscription, the key owner's relations). */
        ahead?: ReadAhead;
      },
      read: (access: DataAccess) => Promise<T>,
    ): Promise<T> => {
      const access = await dataAccess.resolve(caller, deviceId, ahead);
      readableRanges(access, 'api', requested, now());
      if (access.route === 'public') {
        const limit = publicAllowance(await ownTiers(key.ownerId));
        if (limit === 0) throw new Forbidden(API_MESSAGES.noPublicAllowance);
        await quota.meter({ meter: { kind: 'public', ownerId: key.ownerId }, ownerId: key.ownerId, limit }, setHeader);
      } else {
        const limit = access.tier.features.apiMaxRequests;
        await quota.meter({ meter: { kind: 'device', deviceId }, ownerId: key.ownerId, limit }, setHeader);
      }
      return read(access);
    },

    /**
     * Meters one SensorThings call (docs/open-data.md): a call that reads one device the caller reaches through their
     * own relations or campaigns counts against that device's month, as the /v1 reads do; any other (several devices,
     * none, or someone else's public device) against the caller's own allowance. Run before anything is read.
     */
    meterCall: async ({
      key,
      single,
      setHeader,
    }: {
      key: ApiKeyPrincipal;
      single: DataAccess | undefined;
      setHeader: (name: string, value: string) => void;
    }): Promise<void> => {
      if (single && single.route !== 'public') {
        const limit = single.tier.features.apiMaxRequests;
        await quota.meter(
          { meter: { kind: 'device', deviceId: single.device.id }, ownerId: key.ownerId, limit },
          setHeader,
        );
        return;
      }
      const limit = publicAllowance(await ownTiers(key.ownerId));
      if (limit === 0) throw new Forbidden(single ? API_MESSAGES.noPublicAllowance : API_MESSAGES.noOwnAllowance);
      await quota.meter({ meter: { kind: 'public', ownerId: key.ownerId }, ownerId: key.ownerId, limit }, setHeader);
    },

    /** Anyone who may view the device's data (as its reads allow: relations, campaigns, staff, or public data). */
    deviceUsage: async (caller: Caller, deviceId: string, ahead?: ReadAhead): Promise<ApiUsage> =>
      usageOf(await dataAccess.resolve(caller, deviceId, ahead), now()),

    /**
     * The devices the caller's keys called this month through their own relations (recorded per key owner as they
     * call), each as the caller may still see it (a device they lost access to since is left out), and their own
     * allowance for other people's public devices.
     */
    myUsage: async (
      caller: Caller,
    ): Promise<{ month: string; items: ApiUsage[]; publicDevices: PublicAllowanceUsage }> => {
      const at = now();
      const month = monthOf(at);
      const [own, tiers] = await Promise.all([
        usage.meterMonth(meterKey({ kind: 'public', ownerId: caller.sub }), month),
        ownTiers(caller.sub),
      ]);
      const limit = publicAllowance(tiers);
      const publicDevices = {
        month,
        used: own.used,
        limit,
        remaining: Math.max(0, limit - own.used),
        resetsAt: resetOf(at),
        warnings: own.warnings,
      };
      const items: ApiUsage[] = [];
      for (const deviceId of await usage.ownerDevices(caller.sub, month)) {
        const access = await dataAccess.resolve(caller, deviceId).catch((error: unknown) => {
          if (error instanceof DomainError) return undefined;
          throw error;
        });
        if (access) items.push(await usageOf(access, at));
      }
      return { month, items, publicDevices };
    },
  };
};

export type PublicApi = ReturnType<typeof createPublicApi>;
