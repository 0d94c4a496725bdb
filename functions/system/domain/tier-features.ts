import type { Parameter, TierFeaturesSettings } from '../../../shared/contracts/system';
import { MESSAGES } from '../../../shared/messages';
import {
  readTierTable,
  TIER_FEATURES_PARAMETER,
  type TierFeaturesValue,
  tierTableOf,
} from '../../../shared/sensor-data/tier-features';
import type { TierTable } from '../../../shared/sensor-data/tiers';
import { type AuditNote, NO_AUDIT } from '../../_shared/audit/audit-note';
import type { Log } from '../../_shared/logger';
import type { ParameterStore } from './ports';

export interface TierFeaturesDeps {
  log: Log;
  store: Pick<ParameterStore, 'get' | 'put'>;
  /** Milliseconds since the epoch. */
  now: () => number;
}

const settingsOf = (table: TierTable, stored: { updated: number } | undefined): TierFeaturesSettings => ({
  productLines: Object.entries(table).map(([productLine, rows]) => ({
    productLine: productLine as keyof TierTable,
    tiers: rows.map(({ tier, name, features, chosen }) => ({ tier, name, features, chosen })),
  })),
  stored: stored !== undefined,
  ...(stored ? { updated: stored.updated } : {}),
});

/**
 * The tier-features table administrators edit (docs/sensor-data.md, "Tier features as data"): one system
 * parameter, validated on every write; deleting it (the generic parameter route) brings back the seed.
 */
export const createTierFeatures = ({ store, now, log }: TierFeaturesDeps) => ({
  get: async (): Promise<TierFeaturesSettings> => {
    const parameter = await store.get(TIER_FEATURES_PARAMETER);
    const { table, stored, problem } = readTierTable(parameter?.value);
    if (problem) log('error', MESSAGES.tierFeaturesStoredInvalid, { problem });
    return settingsOf(table, stored ? parameter : undefined);
  },

  /** The contract validated the table (TierFeaturesTable); the next read of any device applies it. */
  put: async (value: TierFeaturesValue, audit: AuditNote = NO_AUDIT): Promise<TierFeaturesSettings> => {
    const updated = now();
    const replaced = await store.put({
      id: TIER_FEATURES_PARAMETER,
      value: value as unknown as Parameter['value'],
      updated,
    });
    // The stored table before and after, in one shape (the answer is the editor's view of it).
    audit.before(replaced?.value);
    audit.after(value);
    return settingsOf(tierTableOf(value), { updated });
  },
});

export type TierFeatures = ReturnType<typeof createTierFeatures>;
