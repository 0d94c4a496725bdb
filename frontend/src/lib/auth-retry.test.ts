import { backoffDelay, httpStatusOf, isRetryableAuthError, withRetry } from './auth-retry';

const serviceError = (name: string, httpStatusCode?: number) =>
  Object.assign(new Error(name), { name, metadata: httpStatusCode ? { httpStatusCode } : undefined });

describe('isRetryableAuthError', () => {
  it.each([429, 500, 502, 503, 504])('retries HTTP %i', (status) => {
    expect(isRetryableAuthError(serviceError('Whatever', status))).toBe(true);
    expect(isRetryableAuthError({ name: 'X', $metadata: { httpStatusCode: status } })).toBe(true);
  });

  it.each([
    'NetworkError',
    'TooManyRequestsException',
    'ThrottlingException',
    'LimitExceededException',
    'TimeoutError',
    'RequestTimeoutException',
  ])('retries %s', (name) => {
    expect(isRetryableAuthError(serviceError(name))).toBe(true);
  });

  it('retries a failed fetch and a "Network Error"', () => {
    expect(isRetryableAuthError(new TypeError('Failed to fetch'))).toBe(true);
    expect(isRetryableAuthError(new Error('Network Error'))).toBe(true);
  });

  it('does not retry what another try cannot fix', () => {
    expect(isRetryableAuthError(serviceError('NotAuthorizedException', 400))).toBe(false);
    expect(isRetryableAuthError(serviceError('UserNotFoundException', 400))).toBe(false);
    expect(isRetryableAuthError(serviceError('CodeMismatchException', 400))).toBe(false);
    expect(isRetryableAuthError(serviceError('Whatever', 501))).toBe(false);
    expect(isRetryableAuthError(undefined)).toBe(false);
    expect(isRetryableAuthError('Network down')).toBe(false);
  });
});

describe('httpStatusOf', () => {
  it('reads Amplify and AWS SDK metadata', () => {
    expect(httpStatusOf({ metadata: { httpStatusCode: 503 } })).toBe(503);
    expect(httpStatusOf({ $metadata: { httpStatusCode: 429 } })).toBe(429);
    expect(httpStatusOf(new Error('x'))).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it('doubles from the base delay up to the cap', () => {
    const options = { baseDelayMs: 100, maxDelayMs: 500 };
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(n, options))).toEqual([100, 200, 400, 500, 500]);
  });

  it('spreads the jittered share of the delay', () => {
    expect(backoffDelay(1, { baseDelayMs: 100, jitter: 0.5, random: () => 0 })).toBe(50);
    expect(backoffDelay(1, { baseDelayMs: 100, jitter: 0.5, random: () => 1 })).toBe(100);
  });
});

describe('withRetry', () => {
  const fakeClock = () => {
    const waits: number[] = [];
    return { waits, sleep: async (ms: number) => void waits.push(ms) };
  };

  it('returns the first success after retryable failures, waiting with backoff', async () => {
    const clock = fakeClock();
    const failures = [serviceError('NetworkError'), serviceError('TooManyRequestsException', 429)];
    let calls = 0;
    const task = async () => {
      calls += 1;
      const failure = failures.shift();
      if (failure) throw failure;
      return 'signed in';
    };
    await expect(withRetry(task, { sleep: clock.sleep, baseDelayMs: 100 })).resolves.toBe('signed in');
    expect(calls).toBe(3);
    expect(clock.waits).toEqual([100, 200]);
  });

  it('throws a non-retryable failure at once', async () => {
    const clock = fakeClock();
    const failure = serviceError('NotAuthorizedException', 400);
    let calls = 0;
    const task = async () => {
      calls += 1;
      throw failure;
    };
    await expect(withRetry(task, { sleep: clock.sleep })).rejects.toBe(failure);
    expect(calls).toBe(1);
    expect(clock.waits).toEqual([]);
  });

  it('gives up after the last retry with the last failure', async () => {
    const clock = fakeClock();
    let n = 0;
    const task = async () => {
      n += 1;
      throw serviceError('NetworkError', 503);
    };
    await expect(withRetry(task, { sleep: clock.sleep, retries: 2, baseDelayMs: 10 })).rejects.toMatchObject({
      name: 'NetworkError',
    });
    expect(n).toBe(3);
    expect(clock.waits).toEqual([10, 20]);
  });
});
