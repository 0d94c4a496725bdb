import type { StatusLook } from '../billing/subscription-status';
import { ownValue } from '../objects/own-value';

/** Spec §4: the statuses of a test run against a release. */
export const TEST_RUN_STATUSES = ['Pass', 'Fail', 'InProgress'] as const;
export type TestRunStatus = (typeof TEST_RUN_STATUSES)[number];

/** A run that has a result: only these decide whether a release may roll out. */
export const isConcluded = (status: TestRunStatus): status is 'Pass' | 'Fail' => status !== 'InProgress';

/** The look of a test run's status: the token's colour, a glyph that says the same without colour, and words. */
export interface TestRunLook {
  label: string;
  colour: 'success' | 'danger' | 'caution' | 'muted';
  icon: Extract<StatusLook['icon'], 'check' | 'cross' | 'clock' | 'question'>;
}

// Spec §4: green, red and orange icons.
const LOOKS: Record<TestRunStatus, TestRunLook> = {
  Pass: { label: 'Pass', colour: 'success', icon: 'check' },
  Fail: { label: 'Fail', colour: 'danger', icon: 'cross' },
  InProgress: { label: 'In progress', colour: 'caution', icon: 'clock' },
};

/** Each status its colour and icon; a status this code does not know (a newer API) is grey with a question mark. */
export const testRunLook = (status: string): TestRunLook =>
  ownValue<TestRunLook>(LOOKS, status) ?? { label: status || 'Unknown', colour: 'muted', icon: 'question' };
