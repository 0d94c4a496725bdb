import type { Parameter } from '../../../shared/contracts/system';
import { MESSAGES } from '../../../shared/messages';
import { Conflict, NotFound } from '../../_shared/errors';
import type { ParameterStore } from '../store/parameter-store';

export interface ParameterDeps {
  store: Pick<ParameterStore, keyof ParameterStore>;
  /** Milliseconds since the epoch. */
  now: () => number;
}

/** System parameter use cases. `updated` is always the server's clock (see the contract). */
export const createParameters = ({ store, now }: ParameterDeps) => ({
  list: (page: { limit: number; cursor?: string }) => store.list(page),

  get: async (id: string): Promise<Parameter> => {
    const parameter = await store.get(id);
    if (!parameter) throw new NotFound(MESSAGES.parameterNotFound(id));
    return parameter;
  },

  create: async ({ id, value }: { id: string; value: Parameter['value'] }): Promise<Parameter> => {
    const parameter = { id, value, updated: now() };
    if (!(await store.create(parameter))) throw new Conflict(MESSAGES.parameterExists(id));
    return parameter;
  },

  update: async (id: string, value: Parameter['value']): Promise<Parameter> => {
    const parameter = await store.update(id, value, now());
    if (!parameter) throw new NotFound(MESSAGES.parameterNotFound(id));
    return parameter;
  },

  remove: async (id: string): Promise<void> => {
    if (!(await store.remove(id))) throw new NotFound(MESSAGES.parameterNotFound(id));
  },
});

export type Parameters = ReturnType<typeof createParameters>;
