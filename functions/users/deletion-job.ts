import { scheduledJob } from '../_shared/schedule/scheduled-job';
import { createDeletionJobDeps } from './wiring/account';
import { readAccountEnv } from './wiring/common';

const env = readAccountEnv();

/**
 * The scheduled deletion job (SCHEDULED_JOBS UsersDeletionJob, hourly): deletes every account whose queued
 * deletion is due at the event's time. A person who fails is logged and stays queued for the next run.
 */
export const handler = scheduledJob('UsersDeletionJob', ({ now }, { account }) => account.runDueDeletions(now), {
  deps: () => createDeletionJobDeps(env),
});
