import { readEnv } from '../_shared/env';
import { scheduledJob } from '../_shared/schedule/scheduled-job';
import { ALERTS_ENV, createSweepDeps } from './deps';

const env = readEnv(ALERTS_ENV);

/**
 * The alerts sweep (SCHEDULED_JOBS AlertsSweepJob: every minute, every 10 s locally): the devices past their
 * next-expected time by the due index, their silences, reminders and plans (docs/alerts.md, "The sweep").
 */
export const handler = scheduledJob('AlertsSweepJob', ({ now }, { sweep }) => sweep.run(now), {
  deps: () => createSweepDeps(env),
});
