import { getDocumentClient } from '../_shared/clients';
import { readEnv } from '../_shared/env';
import { createParameters } from './domain/parameters';
import { createParameterStore } from './store/parameter-store';

export const SYSTEM_ENV = { parametersTable: 'PARAMETERS_TABLE' } as const;

export const createSystemDeps = (env = readEnv(SYSTEM_ENV)) => ({
  parameters: createParameters({
    store: createParameterStore({ db: getDocumentClient(), tableName: env.parametersTable }),
    now: Date.now,
  }),
});

export type SystemDeps = ReturnType<typeof createSystemDeps>;
