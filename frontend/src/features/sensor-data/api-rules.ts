import { API_KEY_HEADER } from '../../../../shared/contracts/define-route';
import type { ApiUsage, QuotaWarning } from '../../../../shared/contracts/sensor-data-api-keys';

/** How much of the month's quota is used, 0 to 100 (a device without API access shows 0). */
export const usedPercent = (usage: Pick<ApiUsage, 'used' | 'limit'>): number =>
  usage.limit > 0 ? Math.min(100, Math.round((usage.used / usage.limit) * 100)) : 0;

/** One recorded quota warning, as the usage table says it. */
export const warningText = (warning: QuotaWarning): string =>
  warning.threshold === 100
    ? `Quota used up (${warning.used} requests)`
    : `${warning.threshold} % reached (${warning.used} requests)`;

/** The highest warning recorded this month, which sets the row's tone. */
export const worstWarning = (usage: Pick<ApiUsage, 'warnings'>): QuotaWarning | undefined =>
  [...usage.warnings].sort((a, b) => b.threshold - a.threshold)[0];

/**
 * The "how to call" example: this environment's sensor-data base URL (from the runtime configuration), the key
 * header and the versioned readings route; the key is left as a placeholder, since it is shown only once.
 */
export const curlExample = (baseUrl: string, deviceId?: string): string =>
  [
    `curl -H '${API_KEY_HEADER}: ak_…' \\`,
    `  '${baseUrl.replace(/\/$/, '')}/v1/devices/${deviceId ? encodeURIComponent(deviceId) : '{deviceId}'}/readings?limit=50'`,
  ].join('\n');
