import type { alerts } from './alerts';
import type { api } from './api';
import type { AreaName } from './areas';
import type { campaigns } from './campaigns';
import type { codeReleases } from './code-releases';
import type { customer } from './customer';
import type { dataIngress } from './data-ingress';
import type { datasets } from './datasets';
import {
  type AnyObjectAccessMap,
  defineObjectAccess,
  filtered,
  notAnObject,
  type ObjectAccessMap,
  owner,
  publicObject,
  staffWide,
} from './define-object-access';
import type { devices } from './devices';
import type { integrations } from './integrations';
import type { migrate } from './migrate';
import type { notifications } from './notifications';
import type { organizations } from './organizations';
import type { relations } from './relations';
import type { sensorData } from './sensor-data';
import type { system } from './system';
import type { users } from './users';

/**
 * Who may reach which object, per route (docs/authorization.md). The compiler asks for a declaration for every route
 * with a path parameter; `object-access-coverage.test.ts` for every route naming an object in its query or body; the
 * authorization matrix calls every `owner` and `filtered` route on an owned and on a foreign object and expects exactly
 * what is declared here. Only tests import this file (the contracts themselves ship in Lambdas and the web app).
 */

const STAFF_ONLY = 'only staff pass the group rule, and staff act on every object (spec §6)';

const alertsAccess = defineObjectAccess<typeof alerts>({
  createRule: owner('device', 403, { note: 'a rule on a device, campaign or organization the caller cannot manage' }),
  listRules: owner('device', 403, { note: 'the rules of a device the caller cannot see: refused, not an empty list' }),
  previewRule: owner('device', 403, { note: "a backtest over another person's private device" }),
  getRule: owner('alert-rule', 403, { note: 'a rule on a target the caller cannot see' }),
  updateRule: owner('alert-rule', 403),
  deleteRule: owner('alert-rule', 403),
  listEvents: owner('device', 403, { note: 'the alerts of a device the caller cannot see' }),
  acknowledgeEvent: owner('alert', 403, { note: 'an alert of a device the caller cannot see' }),
});

const campaignsAccess = defineObjectAccess<typeof campaigns>({
  create: owner('organization', 403, { note: 'a campaign in an organization the caller does not manage' }),
  listByOrganization: owner('organization', 403),
  get: owner('campaign', 403),
  update: owner('campaign', 403),
  delete: owner('campaign', 403),
  deviceAccess: owner('device', 403),
});

const codeReleasesAccess = defineObjectAccess<typeof codeReleases>({
  getRelease: staffWide('release', STAFF_ONLY),
  updateRelease: staffWide('release', STAFF_ONLY),
  deleteRelease: staffWide('release', STAFF_ONLY),
  createArtifactUpload: staffWide('release', STAFF_ONLY),
  setArtifact: staffWide('release', STAFF_ONLY),
  listTestRuns: staffWide('release', STAFF_ONLY),
  createTestRun: staffWide('release', STAFF_ONLY),
  concludeTestRun: staffWide('test-run', STAFF_ONLY),
  listRollouts: staffWide('release', STAFF_ONLY),
  createRollout: staffWide('release', STAFF_ONLY),
  getRollout: staffWide('rollout', STAFF_ONLY),
  listRolloutDevices: staffWide('rollout', STAFF_ONLY),
  haltRollout: staffWide('rollout', STAFF_ONLY),
  advanceRollout: staffWide('rollout', STAFF_ONLY),
  resumeRollout: staffWide('rollout', STAFF_ONLY),
  rollbackRollout: staffWide('rollout', STAFF_ONLY),
});

const customerAccess: AnyObjectAccessMap = defineObjectAccess<typeof customer>({});

const dataIngressAccess: AnyObjectAccessMap = defineObjectAccess<typeof dataIngress>({
  reportFirmwareStatus: owner('rollout', 404, {
    note: 'a device reports only on a rollout it is in: another device’s rollout is not said to exist to it',
  }),
});

const datasetsAccess = defineObjectAccess<typeof datasets>({
  createDataset: owner('device', 403, {
    note: "a dataset of another's private device, or a version of another's dataset",
  }),
  getDataset: owner('dataset', 404, { note: 'a permissioned dataset is hidden from whoever may not read it' }),
  listDatasetVersions: owner('dataset', 404),
  listCampaignDatasets: filtered('campaign', "a campaign's datasets the caller may read: none of a private campaign's"),
});

const devicesAccess = defineObjectAccess<typeof devices>({
  get: owner('device', 403, { note: 'a private device: refused, naming the rule' }),
  update: owner('device', 403),
  transfer: owner('device', 403),
  retire: owner('device', 403),
  listFirmwareUpdates: owner('device', 403, { note: 'its managers and staff, as the rollout that targets it now' }),
  listCredentials: owner('device', 403),
  createCredential: owner('device', 403),
  rotateCredentials: owner('device', 403),
  revokeCredential: owner('device', 403),
});

const integrationsAccess = defineObjectAccess<typeof integrations>({
  createWebhook: owner('device', 403, {
    note: 'the target may be a device, a campaign or an organization: manage on it; the matrix uses a device',
  }),
  listWebhooks: owner('device', 403, { note: 'the target named in the query: manage on it' }),
  getWebhook: owner('webhook', 403),
  updateWebhook: owner('webhook', 403),
  deleteWebhook: owner('webhook', 403),
  rotateSecret: owner('webhook', 403),
  testWebhook: owner('webhook', 403),
  listDeliveries: owner('webhook', 403),
  replayDelivery: owner('delivery', 403),
});

const migrateAccess: AnyObjectAccessMap = defineObjectAccess<typeof migrate>({});

const notificationsAccess = defineObjectAccess<typeof notifications>({
  createNotification: staffWide('notification', STAFF_ONLY),
  queueNotification: staffWide('notification', STAFF_ONLY),
  getNotification: owner('notification', 404, { note: "another person's banner is not said to exist" }),
  updateNotification: owner('notification', 404, { staff: 404, note: 'read state is the addressee’s own' }),
  deleteNotification: owner('notification', 404, { staff: 404, note: 'only the addressee dismisses a banner' }),
  listUserNotifications: owner('person', 403),
  listDeliveries: staffWide('notification', STAFF_ONLY),
});

const organizationsAccess = defineObjectAccess<typeof organizations>({
  get: owner('organization', 403),
  update: owner('organization', 403),
  delete: owner('organization', 403),
  createLogoUpload: owner('organization', 403),
  setLogo: owner('organization', 403),
  deleteLogo: owner('organization', 403),
});

const relationsAccess = defineObjectAccess<typeof relations>({
  create: owner('device', 403),
  listPage: notAnObject('`{x}` is a page size'),
  listByParameters: owner('device', 403),
  listByReferrerId: owner('device', 403),
  listByReferentId: owner('person', 403),
  get: owner('relation', 403),
  update: owner('relation', 403),
  delete: owner('relation', 403),
  names: filtered('device', "names of the objects the caller may view: another person's private device is left out"),
});

const sensorDataAccess = defineObjectAccess<typeof sensorData>({
  listReadings: owner('device', 403, { note: 'a private device (the tier and campaign windows: sensor-data tests)' }),
  series: owner('device', 403),
  dataSummary: owner('device', 403),
  createExport: owner('device', 403),
  getExport: owner('export', 404),
  watchLive: owner('device', 403),
  unwatchLive: owner('realtime-identity', 403, {
    staff: 403,
    note: "nobody, staff included, acts for another's browser",
  }),
  attachTargetPolicy: owner('realtime-identity', 403, { staff: 403 }),
  detachTargetPolicy: owner('realtime-identity', 403, { staff: 403 }),
  revokeApiKey: owner('api-key', 404),
  apiReadings: owner('device', 403, { note: 'called with the key of a person who may not read the device' }),
  apiSeries: owner('device', 403),
  deviceApiUsage: owner('device', 403),
  campaignSeries: owner('campaign', 403),
  staResource: owner('device', 403, {
    note: "a SensorThings path naming a device (`Things('…')`); collections list only what the caller may see",
  }),
  apiStaResource: owner('device', 403, { note: 'called with the key of a person who may not read the device' }),
  listCalibrations: owner('device', 403),
  addCalibration: owner('device', 403, {
    note: "a campaign manager's reach: test/integration/sensor-data/data-quality",
  }),
  listExclusions: owner('device', 403),
  addExclusion: owner('device', 403),
  removeExclusion: owner('device', 403),
  reprocessing: owner('device', 403),
  listCampaignCalibrations: owner('campaign', 403),
  addCampaignCalibration: owner('campaign', 403),
  listCampaignExclusions: owner('campaign', 403),
  addCampaignExclusion: owner('campaign', 403),
  removeCampaignExclusion: owner('campaign', 403),
});

const systemAccess = defineObjectAccess<typeof system>({
  getParameter: publicObject('parameter', 'system parameters have no owner: every signed-in person reads them'),
  createParameter: staffWide('parameter', STAFF_ONLY),
  updateParameter: staffWide('parameter', STAFF_ONLY),
  deleteParameter: staffWide('parameter', STAFF_ONLY),
  listCacheFiles: staffWide('device', STAFF_ONLY),
  loadCacheFiles: staffWide('device', STAFF_ONLY),
  deleteItemsFromCache: staffWide('device', STAFF_ONLY),
  searchAudit: staffWide('person', STAFF_ONLY),
});

const usersAccess = defineObjectAccess<typeof users>({
  peopleNames: filtered(
    'person',
    'names of people the caller shares an object with, and their own: a stranger is left out',
  ),
  getGroup: publicObject('group', "a group's name and description are the same for everyone"),
  getUserRecord: owner('person', 403),
  getUser: owner('person', 403),
  usersDdbWithBatchGet: staffWide('person', STAFF_ONLY),
  listGroupsForUser: owner('person', 403),
  listUsersInGroup: staffWide('group', STAFF_ONLY),
  disableUser: staffWide('person', STAFF_ONLY),
  enableUser: staffWide('person', STAFF_ONLY),
  newUserNotice: owner('person', 403),
  addUserToGroup: staffWide('person', STAFF_ONLY),
  removeUserFromGroup: staffWide('person', STAFF_ONLY),
  updateUser: owner('person', 403),
  updateUserRecord: owner('person', 403),
  addCartItem: owner('cart', 403),
  updateCartItem: owner('cart', 403),
  removeCartItem: owner('cart', 403),
  deleteUser: owner('person', 403, { note: 'queues the deletion: the person themself, or staff' }),
  adminDeleteUser: staffWide('person', STAFF_ONLY),
  adminResetUserPassword: staffWide('person', STAFF_ONLY),
  forceResetPassword: staffWide('person', STAFF_ONLY),
  adminUserGlobalSignOut: owner('person', 403),
  adminListUserAuthEvents: owner('person', 403),
  filterUsersByFirstLast: notAnObject('`{first}/{last}` are a search text'),
  inviteUser: owner('organization', 403, { note: 'an invitation into something the caller does not manage' }),
  getInvite: publicObject('invite', 'the unguessable invitation id is the invitee’s key; it shows who invites to what'),
  deleteInvite: owner('invite', 403),
  listInvites: owner('invite', 403),
  updateInvite: owner('invite', 403),
});

const apiAccess = defineObjectAccess<typeof api>({
  aws: owner('signed-url-key', 403, { note: "a signed URL for another person's device file" }),
  productsGet: publicObject('product', 'the product catalogue is public'),
  pricesListByProduct: publicObject('price', 'the price list is public'),
  pricesGet: publicObject('price', 'the price list is public'),
  invoicesGet: owner('invoice', 404, { note: "another customer's invoice is not said to exist" }),
  customersSearchByEmail: owner('customer', 403),
  subscriptionsListByCustomer: owner('customer', 403),
  subscriptionsListByDevice: owner('device', 403),
  activeEntitlementsList: owner('customer', 403),
  invoicesListByCustomer: owner('customer', 403),
  subscriptionsChangeTier: owner('subscription', 403),
  subscriptionsCancel: owner('subscription', 403),
  subscriptionsResume: owner('subscription', 403),
  checkout: owner('device', 403, { note: "a tier for another person's device" }),
});

/** Every area's declarations, as AREAS lists the areas. */
export const OBJECT_ACCESS = {
  alerts: alertsAccess,
  campaigns: campaignsAccess,
  'code-releases': codeReleasesAccess,
  customer: customerAccess,
  'data-ingress': dataIngressAccess,
  datasets: datasetsAccess,
  devices: devicesAccess,
  integrations: integrationsAccess,
  migrate: migrateAccess,
  notifications: notificationsAccess,
  organizations: organizationsAccess,
  relations: relationsAccess,
  'sensor-data': sensorDataAccess,
  system: systemAccess,
  users: usersAccess,
  api: apiAccess,
} as const satisfies Record<AreaName, AnyObjectAccessMap | ObjectAccessMap>;
