import { productLineName } from '../text/product-words';
import type { TestRunStatus } from './test-run-status';

/** What the gate reads of a test run: its status and when its result was recorded. */
export interface GateRun {
  id: string;
  status: TestRunStatus;
  /** When the result (Pass or Fail) was recorded; absent while in progress. */
  finished?: number;
}

export type RolloutGate =
  | { open: true; passedRunId: string }
  | { open: false; code: 'draft' | 'untested' | 'failed'; reason: string };

/**
 * May this release roll out? Only a published release (its artifact verified) whose latest result is a Pass: the
 * latest by when results were recorded, so a Fail recorded after a Pass closes the gate again until another Pass.
 * A run still in progress has no result and changes nothing. The reasons are the API's 409 messages and what the
 * rollout form shows before anyone presses a button.
 */
export const rolloutGate = (
  release: { productLine: string; version: string; status: 'draft' | 'published' },
  runs: readonly GateRun[],
): RolloutGate => {
  const name = `${productLineName(release.productLine)} ${release.version}`;
  if (release.status !== 'published') {
    return {
      open: false,
      code: 'draft',
      reason: `${name} is a draft: upload its artifact (the server verifies its SHA-256) before testing and rolling it out.`,
    };
  }
  const results = runs
    .filter((run): run is GateRun & { finished: number } => run.status !== 'InProgress' && run.finished !== undefined)
    .sort((a, b) => b.finished - a.finished || (a.id < b.id ? 1 : -1));
  const latest = results[0];
  if (!latest) {
    return {
      open: false,
      code: 'untested',
      reason: `${name} has no passing test run: record a passing test run before rolling it out.`,
    };
  }
  if (latest.status === 'Fail') {
    const passedBefore = results.some((run) => run.status === 'Pass');
    return {
      open: false,
      code: 'failed',
      reason: passedBefore
        ? `The latest test run of ${name} failed after an earlier pass: record a new passing test run before rolling it out.`
        : `${name} has no passing test run (the latest failed): record a passing test run before rolling it out.`,
    };
  }
  return { open: true, passedRunId: latest.id };
};
