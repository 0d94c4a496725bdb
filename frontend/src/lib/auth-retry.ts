/**
 * Spec §8: the sign-in library retries on network errors, HTTP 429, 500, 502, 503, 504 and throttling or
 * timeout errors. Amplify's transport already retries each request a few times; this wraps a whole auth
 * step (e.g. signIn) so a short outage of the identity provider does not end in an error on the page.
 * Pure: the caller hands in the clock (`sleep`), so the unit tests run without waiting.
 */

const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);

const RETRYABLE_NAMES = new Set([
  // Amplify's transport (fetch threw) and the Storage XHR handler.
  'NetworkError',
  'ERR_NETWORK',
  // Throttling, as the AWS SDKs classify it.
  'LimitExceededException',
  'ThrottlingException',
  'Throttling',
  'ThrottledException',
  'TooManyRequestsException',
  'RequestLimitExceeded',
  'RequestThrottled',
  'RequestThrottledException',
  'SlowDown',
  // Timeouts.
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  // Server side.
  'InternalErrorException',
  'InternalServerError',
  'ServiceUnavailable',
]);

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;

/** The HTTP status an Amplify AuthError (`metadata`) or an AWS SDK error (`$metadata`) carries. */
export const httpStatusOf = (error: unknown): number | undefined => {
  const e = record(error);
  const status = record(e?.metadata)?.httpStatusCode ?? record(e?.$metadata)?.httpStatusCode;
  return typeof status === 'number' ? status : undefined;
};

/** True for the failures worth trying again: the network, throttling, timeouts and 429/500/502/503/504. */
export const isRetryableAuthError = (error: unknown): boolean => {
  const status = httpStatusOf(error);
  if (status !== undefined && RETRYABLE_STATUS.has(status)) return true;
  const e = record(error);
  const name = typeof e?.name === 'string' ? e.name : undefined;
  if (name && RETRYABLE_NAMES.has(name)) return true;
  // fetch() itself throws a TypeError ("Failed to fetch") when the network is down.
  if (error instanceof TypeError && /fetch|network/i.test(error.message)) return true;
  return typeof e?.message === 'string' && /^network error$/i.test(e.message);
};

export interface RetryOptions {
  /** Tries after the first one. @default 3 */
  retries?: number;
  /** Delay before the first retry; doubled each time. @default 300 */
  baseDelayMs?: number;
  /** Upper bound of one delay. @default 3000 */
  maxDelayMs?: number;
  shouldRetry?: (error: unknown) => boolean;
  sleep?: (ms: number) => Promise<void>;
  /** 0..1, the share of each delay that is random (spreads clients that failed together). @default 0 */
  jitter?: number;
  random?: () => number;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The delay before retry number `attempt` (1-based): exponential, capped, optionally jittered. */
export const backoffDelay = (
  attempt: number,
  { baseDelayMs = 300, maxDelayMs = 3000, jitter = 0, random = Math.random }: RetryOptions = {},
): number => {
  const exponential = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
  return Math.round(exponential * (1 - jitter) + exponential * jitter * random());
};

/** Runs `task`, retrying retryable failures with backoff; the last failure is thrown as it came. */
export const withRetry = async <T>(task: () => Promise<T>, options: RetryOptions = {}): Promise<T> => {
  const { retries = 3, shouldRetry = isRetryableAuthError, sleep = realSleep } = options;
  for (let attempt = 0; ; attempt++) {
    try {
      return await task();
    } catch (error) {
      if (attempt >= retries || !shouldRetry(error)) throw error;
      await sleep(backoffDelay(attempt + 1, options));
    }
  }
};
