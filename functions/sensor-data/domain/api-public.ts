import type { Caller } from '../../../shared/auth/verify-token';
import { API_MESSAGES, type ApiUsage } from '../../../shared/contracts/sensor-data-api-keys';
import { unitOf } from '../../../shared/sensor-data/measurements';
import { BadRequest, DomainError } from '../../_shared/errors';
import type { ApiKeyPrincipal } from '../../_shared/http/http-area';
import { type DataAccess, type DataAccessModule, readableRanges } from '../../_shared/sensor-data/data-access';
import type { ReadingsStore, StoredReading } from '../../_shared/sensor-data/readings-store';
import type { ApiUsageStore } from '../store/api-usage-store';
import { monthOf, resetOf } from './api-metering';
import type { ApiQuota } from './api-quota';

export interface PublicApiDeps {
  dataAccess: Pick<DataAccessModule, 'resolve'>;
  readings: Pick<ReadingsStore, 'query'>;
  quota: Pick<ApiQuota, 'meter'>;
  usage: Pick<ApiUsageStore, 'deviceMonth' | 'ownerDevices'>;
  now: () => number;
}

export interface ApiReadingsQuery {
  from?: number;
  to?: number;
  limit: number;
  offset: number;
}

/**
 * The public API's reads and the usage pages. A request is gated in this order: the device's access (404, 401/403),
 * the tier's API access (403 naming the tier that grants it), the requested range against the tier's API window
 * (403 naming the tier that reaches back so far), and only then metered: refused requests cost no quota.
 */
export const createPublicApi = ({ dataAccess, readings, quota, usage, now }: PublicApiDeps) => {
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
    readings: async (
      caller: Caller,
      key: ApiKeyPrincipal,
      deviceId: string,
      query: ApiReadingsQuery,
      setHeader: (name: string, value: string) => void,
    ) => {
      if (query.from !== undefined && query.to !== undefined && query.from > query.to) {
        throw new BadRequest(API_MESSAGES.rangeReversed);
      }
      const at = now();
      const access = await dataAccess.resolve(caller, deviceId);
      const { range, parts } = readableRanges(access, 'api', query, at);
      await quota.meter({ deviceId, ownerId: key.ownerId, limit: access.tier.features.apiMaxRequests }, setHeader);
      // Newest first across the readable parts; what lies outside them is skipped, not counted (spec §9).
      const wanted = query.offset + query.limit;
      const found: StoredReading[] = [];
      for (const part of [...parts].reverse()) {
        if (found.length >= wanted) break;
        found.push(...(await readings.query(deviceId, { ...part, order: 'desc', limit: wanted - found.length })));
      }
      const items = found.slice(query.offset, wanted);
      const units: Record<string, string> = {};
      for (const name of new Set(items.flatMap((reading) => Object.keys(reading.values)))) {
        const unit = unitOf(name, access.device.measurementUnits);
        if (unit) units[name] = unit;
      }
      return { deviceId, from: range.from, to: range.to, limit: query.limit, offset: query.offset, units, items };
    },

    /** Anyone who may view the device's data (as its reads allow: relations, campaigns, staff, or public data). */
    deviceUsage: async (caller: Caller, deviceId: string): Promise<ApiUsage> =>
      usageOf(await dataAccess.resolve(caller, deviceId), now()),

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
