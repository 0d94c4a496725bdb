import { tierFeaturesValueOfLines } from '../../shared/sensor-data/tier-features';
import type { RouteFixture } from './authz-fixture-types';
import { apiAs, uniqueId } from './stack';

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

/**
 * The cache tools and the item look-up (docs/system.md). Loading rebuilds two hours of a seeded device, a recompute
 * that writes what is there already; evicting names a device that has no files, so nothing any test reads is removed.
 */
export const CACHE_FIXTURES: Record<string, RouteFixture> = {
  listCacheFiles: { prepare: async () => ({ params: { deviceId: 'demo-device-1' } }) },
  loadCacheFiles: {
    prepare: async () => ({ body: { options: { deviceId: 'demo-device-1', from: Date.now() - 60 * 60_000 } } }),
  },
  deleteItemsFromCache: {
    prepare: async () => ({ body: { pathObjectsArray: [{ deviceId: uniqueId('authz-cache') }] } }),
  },
  listLookupTables: { prepare: async () => ({}) },
  batchGetDdbItems: {
    prepare: async () => ({ body: { params: { RequestItems: { parameters: { Keys: [{ id: 'tier-features' }] } } } } }),
  },
};

/** The audit log's search (docs/audit.md): reading changes nothing. */
export const AUDIT_FIXTURES: Record<string, RouteFixture> = {
  searchAudit: { prepare: async () => ({ body: {}, query: { limit: 5 } }) },
  listAuditActions: { prepare: async () => ({}) },
};
