import type { Circus } from '@jest/types';
import { TestEnvironment } from 'jest-environment-node';

/** Set on the test's global while its own code or a `beforeEach` has failed; read by test/support/browser.ts. */
const FAILED = '__stackTestFailed';

/**
 * The stack project's environment: Node's, and it tells the test's `afterEach` hooks whether the test failed, from
 * the events jest-circus hands an environment (its documented `handleTestEvent`), so a browser test that failed can
 * leave its page's state behind (test/support/browser.ts).
 */
export default class StackEnvironment extends TestEnvironment {
  handleTestEvent(event: Circus.Event): void {
    if (event.name === 'test_start') this.global[FAILED] = false;
    if (event.name === 'test_fn_failure' || (event.name === 'hook_failure' && event.hook.type === 'beforeEach')) {
      this.global[FAILED] = true;
    }
  }
}
