import { getSqsClient } from '../../_shared/clients';
import { createPostpone } from '../../_shared/queue/queue-visibility';
import type { RollupDeps } from '../domain/rollups-recompute';
import { createRollupStore } from '../store/rollup-store';
import type { CommonDeps } from './common';

/**
 * The worker's roll-up recompute: the raw readings in, the hourly and daily roll-ups and chart data out; and how a
 * coalesced roll-up that is not due yet goes back to its queue until it is.
 */
export const createRollupsDeps = (common: CommonDeps) => ({
  postpone: createPostpone({ sqs: getSqsClient(), queueUrl: common.env.sensorDataQueueUrl }),
  rollupWork: {
    readings: common.readings,
    rollups: createRollupStore({ db: common.db, tableName: common.env.rollupsTable }),
    charts: common.chartData,
    now: common.now,
  } satisfies RollupDeps,
});
