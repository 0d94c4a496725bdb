import * as z from 'zod';
import { SafeText } from '../text/sanitize';
import { EpochMillis } from './common';
import { apiKey, defineRoute, type Routes, signedIn } from './define-route';
import { readingsRoutes } from './sensor-data-readings';
import { DeviceId } from './shapes';

/**
 * The public API (docs/sensor-data.md, "Public API"): a person's API keys, the versioned read routes a key calls
 * (metered per calendar month against the caller's own allowance: a device's tier for the devices they reach
 * through their relations, their own best tier for other people's public devices), and the usage they show.
 */

export const ApiKeyId = z
  .string()
  .trim()
  .min(1, 'Key id cannot be empty')
  .max(64, 'Key id is at most 64 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'Key id may contain only letters, digits, _ and -');

/** A key as listed: never its secret. */
export const ApiKey = z.object({
  keyId: z.string(),
  name: z.string(),
  created: EpochMillis,
  /** Recorded at most once a minute. */
  lastUsed: EpochMillis.optional(),
});
export type ApiKey = z.infer<typeof ApiKey>;

/** Answered once, when the key is made: send `key` (`ak_{keyId}.{secret}`) as the X-Api-Key header. */
export const NewApiKey = ApiKey.extend({ key: z.string() });
export type NewApiKey = z.infer<typeof NewApiKey>;

/** The quota thresholds (percent of apiMaxRequests) whose crossing is recorded once a month. */
export const QUOTA_THRESHOLDS = [70, 90, 100] as const;
export const QuotaThreshold = z.union([z.literal(70), z.literal(90), z.literal(100)]);
export type QuotaThreshold = z.infer<typeof QuotaThreshold>;

export const QuotaWarning = z.object({ threshold: QuotaThreshold, used: z.number().int(), at: EpochMillis });
export type QuotaWarning = z.infer<typeof QuotaWarning>;

/** A device's public-API use in one calendar month (UTC). */
export const ApiUsage = z.object({
  deviceId: z.string(),
  deviceName: z.string().optional(),
  /** `YYYY-MM`, UTC. */
  month: z.string(),
  used: z.number().int().nonnegative(),
  /** The tier's apiMaxRequests now (0 without API access). */
  limit: z.number().int().nonnegative(),
  remaining: z.number().int().nonnegative(),
  /** When the count starts again: the first of next month, 00:00 UTC. */
  resetsAt: EpochMillis,
  tier: z.string(),
  apiAccess: z.boolean(),
  warnings: z.array(QuotaWarning),
});
export type ApiUsage = z.infer<typeof ApiUsage>;

/**
 * A person's own allowance for reading other people's public devices with their keys, this month: as many requests
 * as the best tier with API access among the devices they own or administer (0 without one).
 */
export const PublicAllowanceUsage = z.object({
  month: z.string(),
  used: z.number().int().nonnegative(),
  limit: z.number().int().nonnegative(),
  remaining: z.number().int().nonnegative(),
  resetsAt: EpochMillis,
  warnings: z.array(QuotaWarning),
});
export type PublicAllowanceUsage = z.infer<typeof PublicAllowanceUsage>;

const IdParams = z.object({ id: DeviceId });

export const apiKeysRoutes = {
  createApiKey: defineRoute({
    method: 'POST',
    path: '/api-keys',
    access: signedIn,
    summary:
      'Make a public API key that acts as you (your relations only, never staff powers); answered once, stored hashed.',
    body: z.object({ name: SafeText('Name', 60) }),
    response: NewApiKey,
    status: 201,
  }),
  listApiKeys: defineRoute({
    method: 'GET',
    path: '/api-keys',
    access: signedIn,
    summary: 'Your API keys: names and times, never secrets.',
    response: z.object({ items: z.array(ApiKey) }),
  }),
  revokeApiKey: defineRoute({
    method: 'DELETE',
    path: '/api-keys/{keyId}',
    access: signedIn,
    summary: 'Revoke one of your API keys (staff: anyone’s). Requests with it are refused at once.',
    params: z.object({ keyId: ApiKeyId }),
    response: z.void(),
  }),
  // The public reads answer exactly as the app's reads (same query, same page and series), under the API's tier
  // window and metered: a script can move from one to the other without relearning the shapes.
  apiReadings: defineRoute({
    method: 'GET',
    path: '/v1/devices/{id}/readings',
    access: apiKey,
    summary:
      "Public API: a device's readings in a range (ms), newest first, paged by limit and offset, as GET " +
      '/devices/{id}/readings answers. Metered per device and month; answers carry x-ratelimit-* headers.',
    params: IdParams,
    query: readingsRoutes.listReadings.query,
    response: readingsRoutes.listReadings.response,
  }),
  apiSeries: defineRoute({
    method: 'GET',
    path: '/v1/devices/{id}/series',
    access: apiKey,
    summary:
      "Public API: chart data of a device's measurements (min, max, mean per bucket), as GET /devices/{id}/series " +
      'answers. Metered per device and month; answers carry x-ratelimit-* headers.',
    params: IdParams,
    query: readingsRoutes.series.query,
    response: readingsRoutes.series.response,
  }),
  deviceApiUsage: defineRoute({
    method: 'GET',
    path: '/devices/{id}/api-usage',
    access: signedIn,
    summary:
      "This month's public-API use of a device (anyone who may view its data, as its reads), with the quota warnings.",
    params: IdParams,
    response: ApiUsage,
  }),
  myApiUsage: defineRoute({
    method: 'GET',
    path: '/api-usage',
    access: signedIn,
    summary:
      "This month's use of every device you called with your keys through your own relations, and of your own allowance for other people's public devices.",
    response: z.object({ month: z.string(), items: z.array(ApiUsage), publicDevices: PublicAllowanceUsage }),
  }),
} satisfies Routes;

/**
 * The public API's messages (kept beside its contract, which this part owns; shared/messages.ts holds the rest).
 */
export const API_MESSAGES = {
  apiKeyLimit: (max: number) => `You hold the most API keys allowed (${max}): revoke one first`,
  apiKeyNotFound: (keyId: string) => `API key not found: ${keyId}`,
  quotaExceeded: (limit: number, month: string, resetsAt: number) =>
    `The API quota of this device (${limit} requests in ${month}) is used up; it resets at ${new Date(resetsAt).toISOString()}`,
  publicQuotaExceeded: (limit: number, month: string, resetsAt: number) =>
    `Your API allowance for other people's public devices (${limit} requests in ${month}) is used up; it resets at ${new Date(resetsAt).toISOString()}`,
  noPublicAllowance:
    "Reading another person's public device with an API key counts against your own allowance: a device you own or administer needs a tier with API access",
  noOwnAllowance:
    'A SensorThings call that reads several devices, or none, counts against your own allowance: a device you own or administer needs a tier with API access',
};
