import { readTogether } from '../../_shared/read-ahead';
import { createRelationTable } from '../../_shared/relations/relation-table';
import { createCampaignSeries } from '../domain/campaign-series';
import { createSeriesPoints } from '../domain/series-points';
import { createCampaignHolds, createCampaignReader } from '../store/campaign-reader';
import type { CommonDeps } from './common';

/** The campaign comparison's dependencies, built from the area's common ones. */
export const createCampaignsDeps = (common: CommonDeps) => {
  return {
    campaignSeries: createCampaignSeries({
      access: common.access,
      campaigns: createCampaignReader({ db: common.db, tableName: common.env.campaignsTable }),
      holds: createCampaignHolds({
        relations: createRelationTable({ db: common.db, tableName: common.env.relationsTable }),
      }),
      dataAccess: common.dataAccess,
      readTogether: (reads) => readTogether(common.db, reads),
      points: createSeriesPoints({ readings: common.readings, rollups: common.chartData.readChartObjects }),
      now: common.now,
    }),
  };
};
