import { tierFeaturesValueOfLines } from '../../shared/sensor-data/tier-features';
import type { RouteFixture } from './authz-fixtures';
import { apiAs } from './stack';

/**
 * The tier-features routes (docs/sensor-data.md, "Tier features as data"). The PUT sends the table in force
 * back unchanged: the matrix must not change what every other test's devices may read.
 */
export const TIER_FEATURES_FIXTURES: Record<string, RouteFixture> = {
  getTierFeatures: { prepare: async () => ({}) },
  putTierFeatures: {
    prepare: async () => ({
      body: tierFeaturesValueOfLines((await apiAs('system', undefined).getTierFeatures({})).productLines),
    }),
  },
};

/** The audit log's search (docs/audit.md): reading changes nothing. */
export const AUDIT_FIXTURES: Record<string, RouteFixture> = {
  searchAudit: { prepare: async () => ({ body: {}, query: { limit: 5 } }) },
  listAuditActions: { prepare: async () => ({}) },
};
