import type { Parameter } from '../../../shared/contracts/system';
import { MESSAGES } from '../../../shared/messages';
import { ownValue } from '../../../shared/objects/own-value';
import { TIER_FEATURES_PARAMETER, tierFeaturesProblem } from '../../../shared/sensor-data/tier-features';
import { type AuditNote, NO_AUDIT } from '../../_shared/audit/audit-note';
import { BadRequest, Conflict, NotFound } from '../../_shared/errors';
import type { KeyRead, ReadAhead } from '../../_shared/read-ahead';
import type { ParameterStore } from './ports';

export interface ParameterDeps {
  store: Pick<ParameterStore, 'get' | 'keyRead' | 'list' | 'create' | 'update' | 'remove'>;
  /** Milliseconds since the epoch. */
  now: () => number;
}

/**
 * Parameters other code reads with a shape: a value of another shape is refused (400), whichever route writes
 * it, so what the readers fall back from is only what predates the rule. Looked up by the id a request names, so
 * only by own names: `__proto__` or `toString` is an id with no shape, as any other.
 */
const SHAPED: Record<string, (value: unknown) => string | undefined> = {
  [TIER_FEATURES_PARAMETER]: tierFeaturesProblem,
};

const checkShape = (id: string, value: unknown) => {
  const problem = ownValue(SHAPED, id)?.(value);
  if (problem) throw new BadRequest(problem);
};

/** System parameter use cases. `updated` is always the server's clock (see the contract). */
export const createParameters = ({ store, now }: ParameterDeps) => ({
  list: (page: { limit: number; cursor?: string }) => store.list(page),

  /** What `get` reads, for the route to read it with the session record (one round trip). */
  readAhead: (id: string): KeyRead[] => [store.keyRead(id)],

  get: async (id: string, ahead?: ReadAhead): Promise<Parameter> => {
    const parameter = await store.get(id, ahead);
    if (!parameter) throw new NotFound(MESSAGES.parameterNotFound(id));
    return parameter;
  },

  create: async ({ id, value }: { id: string; value: Parameter['value'] }): Promise<Parameter> => {
    checkShape(id, value);
    const parameter = { id, value, updated: now() };
    if (!(await store.create(parameter))) throw new Conflict(MESSAGES.parameterExists(id));
    return parameter;
  },

  update: async (id: string, value: Parameter['value'], audit: AuditNote = NO_AUDIT): Promise<Parameter> => {
    checkShape(id, value);
    const changed = await store.update(id, value, now());
    if (!changed) throw new NotFound(MESSAGES.parameterNotFound(id));
    audit.before(changed.before);
    return changed.after;
  },

  remove: async (id: string, audit: AuditNote = NO_AUDIT): Promise<void> => {
    const removed = await store.remove(id);
    if (!removed) throw new NotFound(MESSAGES.parameterNotFound(id));
    audit.before(removed);
  },
});

export type Parameters = ReturnType<typeof createParameters>;
