import type { AreaName } from '../../shared/contracts/areas';
import { ACCOUNT_FIXTURES } from './authz-account-fixtures';
import { ALERTS_FIXTURES } from './authz-alerts-fixtures';
import { API_FIXTURES } from './authz-api-fixtures';
import { BILLING_FIXTURES } from './authz-billing-fixtures';
import { CAMPAIGNS_FIXTURES } from './authz-campaigns-fixtures';
import { CODE_RELEASES_FIXTURES } from './authz-code-releases-fixtures';
import { CUSTOMER_FIXTURES } from './authz-customer-fixtures';
import { DATA_INGRESS_FIXTURES } from './authz-data-ingress-fixtures';
import { DATASETS_FIXTURES } from './authz-datasets-fixtures';
import { DEVICES_FIXTURES, deviceOwnedBy } from './authz-devices-fixtures';
import { CALLERS, type CallerName, type FixtureRequest, type RouteFixture } from './authz-fixture-types';
import { INTEGRATIONS_FIXTURES } from './authz-integrations-fixtures';
import { NOTIFICATIONS_FIXTURES } from './authz-notifications-fixtures';
import { ORGANIZATIONS_FIXTURES } from './authz-organizations-fixtures';
import { PEOPLE_FIXTURES } from './authz-people-fixtures';
import { SENSOR_DATA_API_KEYS_FIXTURES } from './authz-sensor-data-api-keys-fixtures';
import { SENSOR_DATA_CAMPAIGNS_FIXTURES } from './authz-sensor-data-campaigns-fixtures';
import { SENSOR_DATA_EXPORTS_FIXTURES } from './authz-sensor-data-exports-fixtures';
import { SENSOR_DATA_LIVE_FIXTURES } from './authz-sensor-data-live-fixtures';
import { SENSOR_DATA_QUALITY_FIXTURES } from './authz-sensor-data-quality-fixtures';
import { SENSOR_DATA_READINGS_FIXTURES } from './authz-sensor-data-readings-fixtures';
import { SENSOR_DATA_STA_FIXTURES } from './authz-sensor-data-sta-fixtures';
import { AUDIT_FIXTURES, CACHE_FIXTURES, TIER_FEATURES_FIXTURES } from './authz-system-fixtures';
import { seedRelation } from './relations';
import { apiAs, type DemoEmail, subOf, tokenOf, uniqueId } from './stack';

const emailOf = (caller: CallerName): DemoEmail =>
  (caller === 'guest' ? 'user@example.com' : CALLERS[caller].email) as DemoEmail;

/** Two demo users other than the caller: the members of the objects the fixtures make. */
const othersOf = async (caller: CallerName): Promise<[string, string]> => {
  const [first, second] = (['user', 'approved', 'distributor'] as const).filter((name) => name !== caller);
  return [await subOf(CALLERS[first!].email as DemoEmail), await subOf(CALLERS[second!].email as DemoEmail)];
};

/**
 * A fresh device with an owner and one device user. `owned`: the caller owns it; `foreign`: another user
 * does, so the caller holds nothing on it.
 */
const deviceWithMember = async (caller: CallerName, whose: 'owned' | 'foreign') => {
  const [other, third] = await othersOf(caller);
  const owner = whose === 'owned' ? await subOf(emailOf(caller)) : other;
  const member = whose === 'owned' ? other : third;
  const deviceId = uniqueId('authz-device');
  await seedRelation('device-owner', deviceId, owner);
  const membership = await seedRelation('device-user', deviceId, member);
  return { deviceId, owner, member, third, membershipId: membership.id };
};

/** A relations route whose success depends on the caller's relation to a device. */
const onDevice = (request: (device: Awaited<ReturnType<typeof deviceWithMember>>) => FixtureRequest): RouteFixture => ({
  prepare: async ({ caller }) => request(await deviceWithMember(caller, 'owned')),
  owned: async ({ caller }) => request(await deviceWithMember(caller, 'owned')),
  foreign: async ({ caller }) => request(await deviceWithMember(caller, 'foreign')),
});

const admin = async () => apiAs('system', await tokenOf('admin@example.com'));

const freshParameter = async () => {
  const id = uniqueId('authz');
  await (await admin()).createParameter({ body: { id, value: 'fixture' } });
  return id;
};

/** One fixture per route of every contract; the matrix fails for a route without one. */
export const FIXTURES: Partial<Record<AreaName, Record<string, RouteFixture>>> = {
  system: {
    listParameters: { prepare: async () => ({ query: { limit: 5 } }) },
    getParameter: { prepare: async () => ({ params: { id: await freshParameter() } }) },
    createParameter: { prepare: async () => ({ body: { id: uniqueId('authz-new'), value: 1 } }) },
    updateParameter: { prepare: async () => ({ params: { id: await freshParameter() }, body: { value: 2 } }) },
    deleteParameter: { prepare: async () => ({ params: { id: await freshParameter() } }) },
    ...TIER_FEATURES_FIXTURES,
    ...CACHE_FIXTURES,
    ...AUDIT_FIXTURES,
  },
  relations: {
    create: {
      prepare: async ({ caller }) => {
        const { deviceId, third } = await deviceWithMember(caller, 'owned');
        return { body: { type: 'device-user', referrerId: deviceId, referentId: third } };
      },
      owned: async ({ caller }) => {
        const { deviceId, third } = await deviceWithMember(caller, 'owned');
        return { body: { type: 'device-administrator', referrerId: deviceId, referentId: third } };
      },
      foreign: async ({ caller }) => {
        const { deviceId } = await deviceWithMember(caller, 'foreign');
        const [other] = await othersOf(caller);
        return { body: { type: 'device-administrator', referrerId: deviceId, referentId: other } };
      },
    },
    list: { prepare: async () => ({ query: { limit: 5, type: 'device-owner' } }) },
    listPage: { prepare: async () => ({ params: { x: 5 } }) },
    listTypes: { prepare: async () => ({}) },
    listByParameters: onDevice(({ deviceId }) => ({
      body: { parameters: [{ typeName: 'referrer', typeArray: ['device-owner', 'device-user'], id: deviceId }] },
    })),
    listByReferrerId: onDevice(({ deviceId }) => ({ params: { id: deviceId, x: 10 } })),
    listByReferentId: {
      prepare: async ({ caller }) => ({ params: { id: await subOf(emailOf(caller)), x: 10 } }),
      owned: async ({ caller }) => ({ params: { id: await subOf(emailOf(caller)), x: 10 } }),
      foreign: async ({ caller }) => ({ params: { id: (await othersOf(caller))[0], x: 10 } }),
    },
    get: onDevice(({ membershipId }) => ({ params: { id: membershipId } })),
    update: onDevice(({ membershipId }) => ({ params: { id: membershipId }, body: { type: 'device-administrator' } })),
    delete: onDevice(({ membershipId }) => ({ params: { id: membershipId } })),
    // Never refused to a signed-in caller: what they may not see is left out of the answer.
    names: {
      prepare: async ({ caller }) => {
        const { deviceId } = await deviceWithMember(caller, 'owned');
        return { body: { objects: [{ kind: 'device', id: deviceId }] } };
      },
      owned: async ({ caller }) => ({
        body: { objects: [{ kind: 'device', id: await deviceOwnedBy(emailOf(caller)) }] },
      }),
      foreign: async ({ caller }) => ({
        body: {
          objects: [
            {
              kind: 'device',
              id: await deviceOwnedBy(caller === 'user' ? 'approved@example.com' : 'user@example.com'),
            },
          ],
        },
      }),
    },
    migrate: { prepare: async () => ({ query: { limit: 5 } }) },
  },
  alerts: ALERTS_FIXTURES,
  campaigns: CAMPAIGNS_FIXTURES,
  'code-releases': CODE_RELEASES_FIXTURES,
  devices: DEVICES_FIXTURES,
  integrations: INTEGRATIONS_FIXTURES,
  organizations: ORGANIZATIONS_FIXTURES,
  users: { ...PEOPLE_FIXTURES, ...ACCOUNT_FIXTURES },
  notifications: NOTIFICATIONS_FIXTURES,
  customer: CUSTOMER_FIXTURES,
  'data-ingress': DATA_INGRESS_FIXTURES,
  'sensor-data': {
    ...SENSOR_DATA_READINGS_FIXTURES,
    ...SENSOR_DATA_EXPORTS_FIXTURES,
    ...SENSOR_DATA_LIVE_FIXTURES,
    ...SENSOR_DATA_API_KEYS_FIXTURES,
    ...SENSOR_DATA_CAMPAIGNS_FIXTURES,
    ...SENSOR_DATA_STA_FIXTURES,
    ...SENSOR_DATA_QUALITY_FIXTURES,
  },
  datasets: DATASETS_FIXTURES,
  api: { ...API_FIXTURES, ...BILLING_FIXTURES },
  // Nothing is pending after the stack's start, so a run only lists the migrations.
  migrate: {
    listMigrations: { prepare: async () => ({}) },
    runMigrations: { prepare: async () => ({}) },
  },
};
