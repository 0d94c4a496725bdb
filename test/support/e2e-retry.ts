import { expect, jest } from '@jest/globals';

/**
 * `npm test` runs the journeys in two lanes at once on a 2-core machine (test/support/run-suites.ts): a browser test
 * whose timing a saturated core upsets gets one more try, with the first failure printed (`logErrorsBeforeRetry`), so a
 * flake is seen in the log and a broken journey still fails. Integration tests are not retried: they assert the server's behaviour, which load must not change.
 */
if (expect.getState().testPath?.includes('/test/e2e/')) jest.retryTimes(1, { logErrorsBeforeRetry: true });
