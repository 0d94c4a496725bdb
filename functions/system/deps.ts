import { getDocumentClient } from '../_shared/clients';
import { readEnv } from '../_shared/env';
import { createParameters } from './domain/parameters';
import { createTierFeatures } from './domain/tier-features';
import { createParameterStore } from './store/parameter-store';

export const SYSTEM_ENV = { parametersTable: 'PARAMETERS_TABLE' } as const;

export const createSystemDeps = (env = readEnv(SYSTEM_ENV)) => {
  const store = createParameterStore({ db: getDocumentClient(), tableName: env.parametersTable });
  return {
    parameters: createParameters({ store, now: Date.now }),
    tierFeatures: createTierFeatures({ store, now: Date.now }),
  };
};

export type SystemDeps = ReturnType<typeof createSystemDeps>;
