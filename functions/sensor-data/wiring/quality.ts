import { randomBytes } from 'node:crypto';
import { log } from '../../_shared/logger';
import { createRelationTable } from '../../_shared/relations/relation-table';
import { createDataQuality } from '../domain/data-quality';
import { createReprocessJob } from '../domain/reprocess-job';
import type { RollupDeps } from '../domain/rollups-recompute';
import { createCampaignLinks, createCampaignReader } from '../store/campaign-reader';
import { createQualityStore } from '../store/quality-store';
import type { CommonDeps } from './common';

const ID_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** `cal_` or `exc_` and 12 characters of Crockford's base 32 (60 random bits): a record's id, never a secret. */
export const newQualityId = (prefix: 'cal' | 'exc') =>
  `${prefix}_${[...randomBytes(12)].map((byte) => ID_ALPHABET[byte & 31]).join('')}`;

/** The data-quality part's dependencies (docs/data-quality.md): calibrations, exclusions, reprocessing's state. */
export const createQualityDeps = (common: CommonDeps) => ({
  dataQuality: createDataQuality({
    store: createQualityStore({ db: common.db, tableName: common.env.dataQualityTable }),
    dataAccess: common.dataAccess,
    access: common.access,
    campaigns: createCampaignReader({ db: common.db, tableName: common.env.campaignsTable }),
    links: createCampaignLinks({
      relations: createRelationTable({ db: common.db, tableName: common.env.relationsTable }),
    }),
    work: common.work,
    log,
    now: common.now,
    newId: newQualityId,
  }),
});

/** The worker's reprocessing (docs/data-quality.md "Reprocessing"): the roll-up recompute over changed ranges. */
export const createReprocessDeps = (common: CommonDeps, rollupWork: RollupDeps) => ({
  reprocessJob: createReprocessJob({
    store: createQualityStore({ db: common.db, tableName: common.env.dataQualityTable }),
    rollup: rollupWork,
    work: common.work,
    log,
    now: common.now,
  }),
});
