import type { Caller } from '../../../shared/auth/verify-token';
import type { ApiUsage } from '../../../shared/contracts/sensor-data-api-keys';
import { DomainError } from '../../_shared/errors';
import type { ApiKeyPrincipal } from '../../_shared/http/http-area';
import type { ReadAhead } from '../../_shared/read-ahead';
import { type DataAccess, type DataAccessModule, readableRanges } from '../../_shared/sensor-data/data-access';
import { monthOf, resetOf } from './api-metering';
import type { ApiQuota } from './api-quota';
import type { ApiUsageStore } from './ports';

export interface PublicApiDeps {
  dataAccess: Pick<DataAccessModule, 'resolve'>;
  quota: Pick<ApiQuota, 'meter'>;
  usage: Pick<ApiUsageStore, 'deviceMonth' | 'ownerDevices'>;
  now: () => number;
}

/**
 * The public API's gate and the usage pages. A request is gated in this order: the device's access (404, 401/403),
 * the tier's API access (403 naming the tier that grants it), the requested range against the tier's API window
 * (403 naming the tier that reaches back so far), and only then metered and read: refused requests cost no quota.
 */
export const createPublicApi = ({ dataAccess, quota, usage, now }: PublicApiDeps) => {
  const usageOf = async (access: DataAccess, at: number): Promise<ApiUsage> => {
    const month = monthOf(at);
    const { used, warnings } = await usage.deviceMonth(access.device.id, month);
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
      await quota.meter({ deviceId, ownerId: key.ownerId, limit: access.tier.features.apiMaxRequests }, setHeader);
      return read(access);
    },

    /** Anyone who may view the device's data (as its reads allow: relations, campaigns, staff, or public data). */
    deviceUsage: async (caller: Caller, deviceId: string, ahead?: ReadAhead): Promise<ApiUsage> =>
      usageOf(await dataAccess.resolve(caller, deviceId, ahead), now()),

    /**
     * The devices the caller's keys called this month (recorded per key owner as they call), each as the caller
     * may still see it: a device they lost access to since is left out.
     */
    myUsage: async (caller: Caller): Promise<{ month: string; items: ApiUsage[] }> => {
      const at = now();
      const month = monthOf(at);
      const items: ApiUsage[] = [];
      for (const deviceId of await usage.ownerDevices(caller.sub, month)) {
        const access = await dataAccess.resolve(caller, deviceId).catch((error: unknown) => {
          if (error instanceof DomainError) return undefined;
          throw error;
        });
        if (access) items.push(await usageOf(access, at));
      }
      return { month, items };
    },
  };
};

export type PublicApi = ReturnType<typeof createPublicApi>;
