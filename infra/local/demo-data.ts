import type { GroupName } from '../../shared/auth/groups';

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

export const DEMO_PARAMETERS = [
  { id: 'maintenance-mode', value: false },
  { id: 'support-email', value: 'support@example.com' },
  { id: 'banner-message', value: { text: 'Welcome to the local demo', level: 'info' } },
];
