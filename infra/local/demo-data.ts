import type { StoredDevice } from '../../functions/devices/domain/device-model';
import type { GroupName } from '../../shared/auth/groups';
import type { RelationType } from '../../shared/relations/relation-types';

/** Local only: every demo account shares this password. It is in the README; never use it anywhere real. */
export const DEMO_PASSWORD = 'Local-Demo-Passw0rd';

export interface DemoAccount {
  email: string;
  givenName: string;
  familyName: string;
  group?: GroupName;
}

/** One account per group and one with no group at all (spec §6 fallback precedence 100). */
export const DEMO_ACCOUNTS = [
  { email: 'admin@example.com', givenName: 'Ada', familyName: 'Admin', group: 'Administrators' },
  { email: 'employee@example.com', givenName: 'Emil', familyName: 'Employee', group: 'Employees' },
  { email: 'distributor@example.com', givenName: 'Dana', familyName: 'Distributor', group: 'Distributors' },
  { email: 'approved@example.com', givenName: 'April', familyName: 'Approved', group: 'Approved_users' },
  { email: 'user@example.com', givenName: 'Uma', familyName: 'User', group: 'Authenticated_users' },
  { email: 'none@example.com', givenName: 'Noel', familyName: 'None', group: 'None' },
  { email: 'nogroup@example.com', givenName: 'Nora', familyName: 'Nogroup' },
] as const satisfies readonly DemoAccount[];

/**
 * Demo accounts that already have a billing customer in the local Stripe server, so the profile shows a billing
 * id (the record's `subscriptionId`, found by e-mail at the first read) before billing has screens of its own.
 */
export const DEMO_CUSTOMER_EMAILS = ['user@example.com', 'approved@example.com'] as const;

export const DEMO_PARAMETERS = [
  { id: 'maintenance-mode', value: false },
  { id: 'support-email', value: 'support@example.com' },
  { id: 'banner-message', value: { text: 'Welcome to the local demo', level: 'info' } },
];

/**
 * A small relation graph to explore: e-mails stand for the demo accounts' user ids. Uma owns a device and
 * uses April's; April manages an organization and a campaign that hold her device; the campaign holds Uma's
 * device too; Dana is a campaign user (so she sees both devices through the campaign, within its window); Uma
 * is an organization user (which grants no device access).
 */
/**
 * Device records for the demo relation graph (docs/devices.md): Uma's private rooftop station, April's public
 * buoy a kilometre away, and one registered, unclaimed device whose claim code is in the README, to try claiming.
 * E-mails stand for the owners' user ids. `seenMinutesAgo` sets last seen relative to the start.
 */
export interface DemoDevice
  extends Pick<
    StoredDevice,
    | 'id'
    | 'serial'
    | 'name'
    | 'productLine'
    | 'model'
    | 'firmwareVersion'
    | 'location'
    | 'locationPrivacy'
    | 'dataVisibility'
  > {
  owner?: string;
  seenMinutesAgo?: number;
  claimCode: string;
}

export const DEMO_DEVICES: readonly DemoDevice[] = [
  {
    id: 'demo-device-1',
    serial: 'DEMO-0001',
    name: 'Rooftop station',
    productLine: 'al30',
    model: 'AL-30',
    firmwareVersion: '1.4.2',
    location: { lat: 47.6205, lon: -122.3493 },
    locationPrivacy: 'approximate',
    dataVisibility: 'private',
    owner: 'user@example.com',
    seenMinutesAgo: 2,
    claimCode: 'DEMO-0001-CODE',
  },
  {
    id: 'demo-device-2',
    serial: 'DEMO-0002',
    name: 'Lake buoy',
    productLine: 'sd1',
    model: 'SD-1',
    firmwareVersion: '2.0.1',
    location: { lat: 47.629, lon: -122.338 },
    locationPrivacy: 'exact',
    dataVisibility: 'public',
    owner: 'approved@example.com',
    seenMinutesAgo: 120,
    claimCode: 'DEMO-0002-CODE',
  },
  {
    id: 'dev-demo-0003',
    serial: 'DEMO-0003',
    name: 'DEMO-0003',
    productLine: 'al60',
    model: 'AL-60',
    firmwareVersion: '1.0.0',
    locationPrivacy: 'approximate',
    dataVisibility: 'private',
    claimCode: '7KQ2-M9XD-4RTP',
  },
];

/** The organization the demo relations name (docs/organizations.md); its manager is its creator. */
export const DEMO_ORGANIZATIONS = [
  {
    id: 'demo-org-1',
    name: 'Northside Air Network',
    description: 'Volunteers measuring air and water quality around the lake',
    createdBy: 'approved@example.com',
  },
] as const;

/**
 * The campaign the demo relations name (docs/campaigns.md), run by the demo organization; its manager is its
 * creator. Its window is set around the first start (days before and after): running, so its device shows data.
 */
export const DEMO_CAMPAIGNS = [
  {
    id: 'demo-campaign-1',
    name: 'Lake shore survey',
    description: 'Air and water readings along the lake shore through the season',
    organizationId: 'demo-org-1',
    daysBefore: 30,
    daysAfter: 60,
    createdBy: 'approved@example.com',
  },
] as const;

export const DEMO_RELATIONS: readonly { type: RelationType; referrer: string; referent: string }[] = [
  { type: 'device-owner', referrer: 'demo-device-1', referent: 'user@example.com' },
  { type: 'device-owner', referrer: 'demo-device-2', referent: 'approved@example.com' },
  { type: 'device-user', referrer: 'demo-device-2', referent: 'user@example.com' },
  { type: 'organization-manager', referrer: 'demo-org-1', referent: 'approved@example.com' },
  { type: 'organization-user', referrer: 'demo-org-1', referent: 'user@example.com' },
  { type: 'organization-device', referrer: 'demo-org-1', referent: 'demo-device-2' },
  { type: 'campaign-manager', referrer: 'demo-campaign-1', referent: 'approved@example.com' },
  { type: 'campaign-user', referrer: 'demo-campaign-1', referent: 'distributor@example.com' },
  { type: 'campaign-device', referrer: 'demo-campaign-1', referent: 'demo-device-2' },
  // Uma lends her rooftop station to the survey: the campaign page compares two devices (docs/sensor-data.md).
  { type: 'campaign-device', referrer: 'demo-campaign-1', referent: 'demo-device-1' },
];
