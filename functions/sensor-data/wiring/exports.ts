import { randomBytes } from 'node:crypto';
import { createExportFiles } from '../../_shared/exports/export-files';
import { log } from '../../_shared/logger';
import { MAX_RECEIVES } from '../../_shared/queue/max-receives';
import { createExportJob } from '../domain/export-job';
import { createExports } from '../domain/exports';
import { createExportStore } from '../store/export-store';
import type { CommonDeps } from './common';

/** 24 random bytes: for a guest's export the id is the only proof of ownership, so it must not be guessable. */
export const newExportId = () => `exp_${randomBytes(24).toString('base64url')}`;

/** The exports part's dependencies, built from the area's common ones. */
export const createExportsDeps = (common: CommonDeps) => {
  const store = createExportStore({ db: common.db, tableName: common.env.exportsTable });
  return {
    downloads: createExports({
      log,
      store,
      dataAccess: common.dataAccess,
      work: common.work,
      bucket: common.env.exportsBucket,
      now: common.now,
      newId: newExportId,
    }),
    downloadJob: createExportJob({
      log,
      store,
      files: createExportFiles({ s3: common.s3, bucket: common.env.exportsBucket }),
      readings: common.readings,
      readDevice: common.dataAccess.readDevice,
      profiles: common.profiles,
      now: common.now,
      maxAttempts: MAX_RECEIVES.sensorData,
      webhooks: common.webhooks,
    }),
  };
};
