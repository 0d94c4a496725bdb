import { createReadings } from '../domain/readings';
import { createChartDataStore } from '../store/chart-data-store';
import type { CommonDeps } from './common';

/** The readings part's dependencies, built from the area's common ones. */
export const createReadingsDeps = (common: CommonDeps) => {
  const chartData = createChartDataStore({ s3: common.s3, bucket: common.env.chartDataBucket });
  return {
    reads: createReadings({
      dataAccess: common.dataAccess,
      readings: common.readings,
      rollups: chartData.readChartObjects,
      profiles: common.profiles,
      now: common.now,
    }),
  };
};
