import type { RollupDeps } from '../domain/rollups-recompute';
import { createRollupStore } from '../store/rollup-store';
import type { CommonDeps } from './common';

/** The worker's roll-up recompute: the raw readings in, the hourly and daily roll-ups and chart data out. */
export const createRollupsDeps = (common: CommonDeps) => ({
  rollupWork: {
    readings: common.readings,
    rollups: createRollupStore({ db: common.db, tableName: common.env.rollupsTable }),
    charts: common.chartData,
    now: common.now,
  } satisfies RollupDeps,
});
