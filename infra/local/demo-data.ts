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
 * uses April's; April manages an organization and a campaign that hold her device; Dana is a campaign user
 * (so she sees the device through the campaign); Uma is an organization user (which grants no device access).
 */
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
];
