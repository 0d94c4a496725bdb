/**
 * The identity provider's groups, as the spec names them. The CDK auth stack, the local stack's user pool
 * bootstrap, the API's access checks and the front end all read this one list.
 * A lower precedence number is a higher role (Cognito's own convention).
 */
export const GROUPS = [
  { name: 'Administrators', precedence: 1, description: 'Run the whole platform, including staff roles.' },
  { name: 'Employees', precedence: 2, description: 'Staff: run people, billing, notifications and releases.' },
  { name: 'Distributors', precedence: 3, description: 'Resellers who provision devices for customers.' },
  { name: 'Approved_users', precedence: 4, description: 'Users approved for wider data access.' },
  { name: 'Authenticated_users', precedence: 5, description: 'Users who completed sign-up.' },
  { name: 'None', precedence: 6, description: 'Explicitly no role beyond a signed-in account.' },
] as const;

export type GroupName = (typeof GROUPS)[number]['name'];

export const GROUP_NAMES = GROUPS.map((g) => g.name) as GroupName[];

/** Spec §6: a user with no (known) group has this precedence. */
export const FALLBACK_PRECEDENCE = 100;

/** Spec §6: a required group missing from the table counts as precedence 0, which no real group reaches. */
export const UNKNOWN_GROUP_PRECEDENCE = 0;

export const STAFF_GROUP: GroupName = 'Employees';

/** The group of a person who completed sign-up; a first sign-in through an identity provider joins it (issue 21). */
export const SIGNED_UP_GROUP: GroupName = 'Authenticated_users';

const byName = new Map<string, number>(GROUPS.map((g) => [g.name, g.precedence]));

export const isGroupName = (name: string): name is GroupName => byName.has(name);

/** The best (lowest) precedence among the user's groups; groups not in the table are ignored. */
export const bestPrecedence = (userGroups: readonly string[]): number =>
  userGroups.reduce((best, g) => Math.min(best, byName.get(g) ?? FALLBACK_PRECEDENCE), FALLBACK_PRECEDENCE);

export const requiredPrecedence = (group: string): number => byName.get(group) ?? UNKNOWN_GROUP_PRECEDENCE;

/** Role access holds when the user's best precedence is at or below the required group's precedence. */
export const hasRole = (userGroups: readonly string[], required: string): boolean =>
  bestPrecedence(userGroups) <= requiredPrecedence(required);

export const isStaff = (userGroups: readonly string[]): boolean => hasRole(userGroups, STAFF_GROUP);
