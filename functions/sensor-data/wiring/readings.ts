import { createReadings } from '../domain/readings';
import type { CommonDeps } from './common';

/** The readings part's dependencies, built from the area's common ones. */
export const createReadingsDeps = (common: CommonDeps) => ({
  reads: createReadings({
    dataAccess: common.dataAccess,
    readings: common.readings,
    rollups: common.chartData.readChartObjects,
    now: common.now,
  }),
});
