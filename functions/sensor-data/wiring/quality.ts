import { randomBytes } from 'node:crypto';
import { log } from '../../_shared/logger';
import { createRelationTable } from '../../_shared/relations/relation-table';
import { createDataQuality } from '../domain/data-quality';
import { createReprocessJob } from '../domain/reprocess-job';
import { createCampaignLinks, createCampaignReader } from '../store/campaign-reader';
import { createChartDataStore } from '../store/chart-data-store';
import { createQualityStore } from '../store/quality-store';
import { createRollupStore } from '../store/rollup-store';
import type { CommonDeps } from './common';

const ID_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** `cal_` or `exc_` and 12 characters of Crockford's base 32 (60 random bits): a record's id, never a secret. */
export const newQualityId = (prefix: 'cal' | 'exc') =>
  `${prefix}_${[...randomBytes(12)].map((byte) => ID_ALPHABET[byte & 31]).join('')}`;

/** The data-quality part's dependencies (docs/data-quality.md), built from the area's common ones. */
export const createQualityDeps = (common: CommonDeps) => {
  const store = createQualityStore({ db: common.db, tableName: common.env.dataQualityTable });
  const relations = createRelationTable({ db: common.db, tableName: common.env.relationsTable });
  return {
    dataQuality: createDataQuality({
      store,
      dataAccess: common.dataAccess,
      access: common.access,
      campaigns: createCampaignReader({ db: common.db, tableName: common.env.campaignsTable }),
      links: createCampaignLinks({ relations }),
      reprocess: (deviceIds) => common.work.send(deviceIds.map((deviceId) => ({ kind: 'reprocess', deviceId }))),
      log,
      now: common.now,
      newId: newQualityId,
    }),
    reprocessJob: createReprocessJob({
      store,
      rollup: {
        readings: common.readings,
        rollups: createRollupStore({ db: common.db, tableName: common.env.rollupsTable }),
        charts: createChartDataStore({ s3: common.s3, bucket: common.env.chartDataBucket }),
        profiles: common.profiles,
        now: common.now,
      },
      next: (deviceId, cursor) =>
        common.work.send([{ kind: 'reprocess', deviceId, ...(cursor === undefined ? {} : { cursor }) }]),
      log,
      now: common.now,
    }),
  };
};
