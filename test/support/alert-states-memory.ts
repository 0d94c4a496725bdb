import { type DeviceAlertState, emptyState } from '../../functions/_shared/alerts/alert-model';
import { dueShardOf } from '../../functions/_shared/alerts/state-table';
import type { StateStore } from '../../functions/alerts/domain/ports';

/**
 * The alert state table as DynamoDB holds it, in memory: writes on the version, the due index over `dueAt` by
 * partition, `touch` and the outbox's clearing. For the sweep's unit test and the bench's silence simulation.
 */
export const alertStatesInMemory = () => {
  const items = new Map<string, DeviceAlertState>();
  const store: Pick<StateStore, 'get' | 'write' | 'due' | 'touch'> & {
    clearOutbox: (d: string, ids: readonly string[]) => Promise<void>;
    markAtRest: (d: string, version: number) => Promise<boolean>;
  } = {
    get: async (deviceId) => structuredClone(items.get(deviceId) ?? emptyState(deviceId)),
    write: async (state, expected) => {
      if ((items.get(state.deviceId)?.version ?? 0) !== expected) return false;
      items.set(state.deviceId, structuredClone(state));
      return true;
    },
    due: async (shard, now) => ({
      items: [...items.values()]
        .filter((s) => s.dueAt !== undefined && s.dueAt <= now && dueShardOf(s.deviceId) === shard)
        .map((s) => ({ deviceId: s.deviceId, dueAt: s.dueAt! })),
    }),
    touch: async (deviceId, now) => {
      const state = items.get(deviceId) ?? emptyState(deviceId);
      items.set(deviceId, { ...state, version: state.version + 1, dueAt: now });
    },
    // No device records here: a mark is taken and never read (the simulation's batches carry no rest marks).
    markAtRest: async () => true,
    clearOutbox: async (deviceId, ids) => {
      const state = items.get(deviceId);
      if (state) for (const id of ids) delete state.outbox[id];
    },
  };
  return { store, items };
};
