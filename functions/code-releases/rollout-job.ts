import { readEnv } from '../_shared/env';
import { scheduledJob } from '../_shared/schedule/scheduled-job';
import { CODE_RELEASES_ENV, createRolloutStagesDeps } from './deps';

const env = readEnv(CODE_RELEASES_ENV);

/**
 * The rollout stage job (SCHEDULED_JOBS RolloutStagesJob, every 5 minutes): timeouts, abort criteria, advancing a
 * soaked stage, announcing halts, as of the schedule's time (docs/code-releases.md, "Stages").
 */
export const handler = scheduledJob('RolloutStagesJob', ({ now }, { stages }) => stages.run(now), {
  deps: () => createRolloutStagesDeps(env),
});
