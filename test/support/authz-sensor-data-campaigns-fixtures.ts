import { campaign } from './authz-campaigns-fixtures';
import type { RouteFixture } from './authz-fixture-types';
import { onOwnedOrForeign } from './authz-fixture-types';

/**
 * The authorization matrix's fixtures for the sensor-data campaign routes (merged in authz-fixtures.ts): a campaign
 * the caller manages (owned) or another demo account manages (foreign: 403 unless staff). The devices and their
 * gates are in test/integration/sensor-data/campaign-series.test.ts.
 */
export const SENSOR_DATA_CAMPAIGNS_FIXTURES: Record<string, RouteFixture> = {
  campaignSeries: onOwnedOrForeign(campaign, (id) => ({ params: { id }, query: { width: 200 } })),
};
