import { newSecret } from '../../_shared/devices/credential-token';
import { log } from '../../_shared/logger';
import { lambdaCounters } from '../../_shared/metrics';
import { createRelationTable } from '../../_shared/relations/relation-table';
import { newKeyId } from '../domain/api-key-token';
import { createApiKeys } from '../domain/api-keys';
import { createPublicApi } from '../domain/api-public';
import { createApiQuota } from '../domain/api-quota';
import { createApiKeyStore } from '../store/api-key-store';
import { createApiUsageStore } from '../store/api-usage-store';
import { createOwnDeviceTiers } from '../store/own-device-tiers';
import type { CommonDeps } from './common';

/** The api-keys part's dependencies, built from the area's common ones. */
export const createApiKeysDeps = (common: CommonDeps) => {
  const usage = createApiUsageStore({ db: common.db, tableName: common.env.apiUsageTable });
  return {
    apiKeys: createApiKeys({
      store: createApiKeyStore({ db: common.db, tableName: common.env.apiKeysTable }),
      now: common.now,
      newKeyId,
      newSecret,
    }),
    publicApi: createPublicApi({
      dataAccess: common.dataAccess,
      quota: createApiQuota({ log, usage, events: common.events, now: common.now, counters: lambdaCounters }),
      usage,
      ownTiers: createOwnDeviceTiers({
        relations: createRelationTable({ db: common.db, tableName: common.env.relationsTable }),
        dataAccess: common.dataAccess,
        tiers: common.tiers,
      }),
      now: common.now,
    }),
  };
};
