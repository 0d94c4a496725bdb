/**
 * User-facing messages in one module: the spec's exact wording where it gives one (§4, §5, §8), ours
 * elsewhere. The API and the web app both read them, so a test can assert the very string a user sees.
 */
export const MESSAGES = {
  // Spec §4 / §8: account deletion.
  noDeletionQueue: 'No deletion queue found for this user account.',
  noCustomMetadata: 'No custom metadata found for this user account.',
  // Spec §8: session.
  sessionExpired: 'Session is expired. User needs to sign in again.',
  // Spec §8: identity library messages.
  usernameEmpty: 'Username cannot be empty',
  passwordEmpty: 'Password cannot be empty',
  confirmationCodeEmpty: 'Confirmation code cannot be empty',
  networkError: 'Network Error',
  noCurrentUser: 'No current user',
  notAuthenticated: 'User is not authenticated',
  // Ours.
  parameterNotFound: (id: string) => `Parameter not found: ${id}`,
  parameterExists: (id: string) => `Parameter already exists: ${id}`,
  invalidCursor: 'Invalid page cursor',
  // Ours: relations (docs/relations.md holds the rules these enforce).
  relationNotFound: (id: string) => `Relation not found: ${id}`,
  relationExists: (id: string) => `Relation already exists: ${id}`,
  relationSelfGrant: 'You cannot grant yourself a relation',
  relationSameEnds: 'A relation links two different ids',
  relationStaffOnly: (type: string) =>
    `Only staff can change ${type} relations; ownership changes by claiming or transfer`,
  relationManagerRequired: (kind: string) => `Only a manager of this ${kind} can change its members`,
  relationOwnerRequired: 'Only the owner of this device can change its administrators and users',
  relationDeviceManagerRequired: (kind: string) =>
    `Adding a device to a ${kind} needs a manager of the ${kind} who also owns or administers the device`,
  relationDeviceRemovalRequired: (kind: string) =>
    `Only a manager of the ${kind} or an owner or administrator of the device can remove it`,
  relationInviterOnly: 'Only the inviter can create this relation',
  relationInviterOrContact: 'Only the inviter or the contact can remove this relation',
  relationLastManager: (kind: string) => `This ${kind} needs at least one manager: add another manager first`,
  relationNotInFamily: (from: string, to: string) => `A ${from} relation cannot become ${to}`,
  accessDenied: (kind: string) => `You do not have access to this ${kind}`,
  relationReadDenied: 'You do not have access to these relations',
  relationRoleExists: (type: string) => `This person already holds ${type} here: change that role instead`,
  relationOwnerExists: 'This device already has an owner: ownership moves by transfer',
  relationChangeUndone: 'The change could not be completed and was undone; please try again',
} as const;
