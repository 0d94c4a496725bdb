import type { ApiQuotaCrossed, DomainEvent } from '../../../shared/contracts/events';
import { API_MESSAGES } from '../../../shared/contracts/sensor-data-api-keys';
import { APP_METRICS } from '../../../shared/operations/metrics';
import { TooManyRequests } from '../../_shared/errors';
import type { Log } from '../../_shared/logger';
import type { Counters } from '../../_shared/metrics';
import { monthOf, newlyCrossed, rateLimitHeaders, resetOf, retryAfterSeconds, usageExpiry } from './api-metering';
import type { ApiUsageStore } from './ports';

export interface ApiQuotaDeps {
  log: Log;
  usage: Pick<ApiUsageStore, 'count' | 'recordWarning' | 'forgetWarning' | 'addOwnerDevice'>;
  events: { publish: (events: readonly DomainEvent[]) => Promise<void> };
  now: () => number;
  /** Each threshold crossed, once, for the operations dashboard. */
  counters: Counters;
}

/**
 * Meters one public-API request against the device's monthly quota (docs/sensor-data.md, "Public API"). Over the
 * quota: a 429 saying when it resets, with the rate-limit headers and retry-after. Otherwise the headers are set
 * on the answer, and each of the 70/90/100 % thresholds this request reaches is recorded once and sent as an event.
 */
export const createApiQuota = ({ usage, events, now, counters, log }: ApiQuotaDeps) => {
  const warn = async (deviceId: string, month: string, event: Omit<ApiQuotaCrossed, 'kind' | 'eventId'>) => {
    const won = await usage.recordWarning(deviceId, month, {
      threshold: event.threshold,
      used: event.used,
      at: event.at,
    });
    if (!won) return;
    counters.count(APP_METRICS.quotaCrossings);
    try {
      await events.publish([{ kind: 'api.quota', eventId: `${deviceId}#${month}#${event.threshold}`, ...event }]);
    } catch (error) {
      // The request itself succeeded: take the record back so the next request over the threshold sends it again.
      log('error', 'Quota warning not sent; it will be retried by the next request', {
        deviceId,
        month,
        threshold: event.threshold,
        error: String(error),
      });
      await usage.forgetWarning(deviceId, month, event.threshold);
    }
  };

  return {
    meter: async (
      { deviceId, ownerId, limit }: { deviceId: string; ownerId: string; limit: number },
      setHeader: (name: string, value: string) => void,
    ): Promise<void> => {
      const at = now();
      const month = monthOf(at);
      const expiresAt = usageExpiry(at);
      const counted = await usage.count({ deviceId, month, ownerId, limit, expiresAt });
      if (!counted.counted) {
        throw new TooManyRequests(API_MESSAGES.quotaExceeded(limit, month, resetOf(at)), {
          ...rateLimitHeaders(limit, limit, at),
          'retry-after': String(retryAfterSeconds(at)),
        });
      }
      for (const [name, value] of Object.entries(rateLimitHeaders(counted.used, limit, at))) setHeader(name, value);
      if (counted.newOwner) await usage.addOwnerDevice(ownerId, month, deviceId, expiresAt);
      for (const threshold of newlyCrossed(counted.used, limit, counted.recorded)) {
        await warn(deviceId, month, { deviceId, month, threshold, used: counted.used, limit, actorId: ownerId, at });
      }
    },
  };
};

export type ApiQuota = ReturnType<typeof createApiQuota>;
