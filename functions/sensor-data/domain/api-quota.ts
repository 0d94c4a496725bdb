import type { ApiQuotaCrossed, DomainEvent } from '../../../shared/contracts/events';
import { API_MESSAGES } from '../../../shared/contracts/sensor-data-api-keys';
import { APP_METRICS } from '../../../shared/operations/metrics';
import { TooManyRequests } from '../../_shared/errors';
import type { Log } from '../../_shared/logger';
import type { Counters } from '../../_shared/metrics';
import {
  meterKey,
  monthOf,
  newlyCrossed,
  type QuotaMeter,
  rateLimitHeaders,
  resetOf,
  retryAfterSeconds,
  usageExpiry,
} from './api-metering';
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
 * Meters one public-API request against the caller's own allowance (docs/sensor-data.md, "Metering"): a device's
 * month for a device they reach through their relations, their own allowance for another person's public device.
 * Over it: a 429 saying when it resets, with the rate-limit headers and retry-after. Otherwise the headers are set on
 * the answer, and each of the 70/90/100 % thresholds this request reaches is recorded once and sent, to the caller.
 */
export const createApiQuota = ({ usage, events, now, counters, log }: ApiQuotaDeps) => {
  const warn = async (meter: QuotaMeter, month: string, event: Omit<ApiQuotaCrossed, 'kind' | 'eventId'>) => {
    const key = meterKey(meter);
    const won = await usage.recordWarning(key, month, { threshold: event.threshold, used: event.used, at: event.at });
    if (!won) return;
    counters.count(APP_METRICS.quotaCrossings);
    try {
      await events.publish([{ kind: 'api.quota', eventId: `${key}#${month}#${event.threshold}`, ...event }]);
    } catch (error) {
      // The request itself succeeded: take the record back so the next request over the threshold sends it again.
      log('error', 'Quota warning not sent; it will be retried by the next request', {
        meter: key,
        month,
        threshold: event.threshold,
        error: String(error),
      });
      await usage.forgetWarning(key, month, event.threshold);
    }
  };

  return {
    meter: async (
      { meter, ownerId, limit }: { meter: QuotaMeter; ownerId: string; limit: number },
      setHeader: (name: string, value: string) => void,
    ): Promise<void> => {
      const at = now();
      const month = monthOf(at);
      const expiresAt = usageExpiry(at);
      const counted = await usage.count({ meter: meterKey(meter), month, ownerId, limit, expiresAt });
      if (!counted.counted) {
        const words = meter.kind === 'device' ? API_MESSAGES.quotaExceeded : API_MESSAGES.publicQuotaExceeded;
        throw new TooManyRequests(words(limit, month, resetOf(at)), {
          ...rateLimitHeaders(limit, limit, at),
          'retry-after': String(retryAfterSeconds(at)),
        });
      }
      for (const [name, value] of Object.entries(rateLimitHeaders(counted.used, limit, at))) setHeader(name, value);
      if (meter.kind === 'device' && counted.newOwner) {
        await usage.addOwnerDevice(ownerId, month, meter.deviceId, expiresAt);
      }
      for (const threshold of newlyCrossed(counted.used, limit, counted.recorded)) {
        await warn(meter, month, {
          ...(meter.kind === 'device' ? { deviceId: meter.deviceId } : {}),
          month,
          threshold,
          used: counted.used,
          limit,
          actorId: ownerId,
          at,
        });
      }
    },
  };
};

export type ApiQuota = ReturnType<typeof createApiQuota>;
