import { expect, jest } from '@jest/globals';

/**
 * A browser test whose timing a saturated core upsets (CI's two cores; `npm run test:lanes` doubles the load) gets one
 * more try, with the first failure printed (`logErrorsBeforeRetry`), so a flake is seen in the log and a broken journey
 * still fails. Integration tests are not retried: they assert the server's behaviour, which load must not change.
 */
if (expect.getState().testPath?.includes('/test/e2e/')) jest.retryTimes(1, { logErrorsBeforeRetry: true });
